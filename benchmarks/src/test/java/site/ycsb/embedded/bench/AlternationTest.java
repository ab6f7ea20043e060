package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The one pairing per round: which path runs when, a line per round, and what comes back. */
class AlternationTest {

  @Test
  void everyRoundRunsThePathsInTheOrderAddedAndTheMediansAreTheRounds() throws Exception {
    List<String> calls = new ArrayList<>();
    List<Integer> lines = new ArrayList<>();
    Alternation a = new Alternation();
    for (String name : List.of("x", "y", "z")) {
      a.path(name, r -> {
        calls.add(name + r);
        return new double[] {r * 10 + name.charAt(0), -r};
      });
    }
    Map<String, double[][]> figures = a.run(3, (r, f) -> {
      lines.add(r);
      assertEquals(List.of("x", "y", "z"), List.copyOf(f.keySet()), "every path's figures in the round's line");
    });
    assertEquals(List.of("x0", "y0", "z0", "x1", "y1", "z1", "x2", "y2", "z2"), calls);
    assertEquals(List.of(0, 1, 2), lines, "a line per round");
    assertEquals(List.of("x", "y", "z"), List.copyOf(figures.keySet()), "the paths in the order added");
    assertArrayEquals(new double[] {20 + 'y', -2}, figures.get("y")[2], "round 2's figures of y");
    assertEquals(10 + 'z', Alternation.median(figures.get("z"), 0), 1e-9);
    assertEquals(-1, Alternation.median(figures.get("z"), 1), 1e-9);
    // the median of an odd count is the middle one, of an even count the mean of the middle two
    assertEquals(3, Alternation.median(new double[] {9, 3, 1}), 1e-9);
    assertEquals(2.5, Alternation.median(new double[] {4, 1, 2, 3}), 1e-9);
    assertEquals(Double.NaN, Alternation.median(List.of()));
  }
}
