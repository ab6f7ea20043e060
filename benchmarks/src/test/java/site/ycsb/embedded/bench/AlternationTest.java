package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The one pairing per round: which path runs when, which rounds count, and what comes back. */
class AlternationTest {

  @Test
  void rotatingRoundsStartAtAnotherPathAndOnlyTimedRoundsCount() throws Exception {
    List<String> calls = new ArrayList<>();
    List<Integer> lines = new ArrayList<>();
    Alternation a = new Alternation().untimed(2).rotating();
    for (String name : List.of("x", "y", "z")) {
      a.path(name, r -> {
        calls.add(name + r);
        return new double[] {r * 10 + name.charAt(0), -r};
      });
    }
    Map<String, double[][]> figures = a.run(3, (r, f) -> {
      lines.add(r);
      assertEquals(3, f.size(), "every path's figures in the round's line");
    });
    // Round r runs path (p + r) mod 3 as its p-th, the untimed rounds -2 and -1 included.
    assertEquals(List.of("y-2", "z-2", "x-2", "z-1", "x-1", "y-1", "x0", "y0", "z0", "y1", "z1", "x1", "z2", "x2",
        "y2"), calls);
    assertEquals(List.of(0, 1, 2), lines, "a line per timed round only");
    assertEquals(List.of("x", "y", "z"), List.copyOf(figures.keySet()), "the paths in the order added");
    assertArrayEquals(new double[] {'y', 10 + 'y', 20 + 'y'}, Alternation.column(figures.get("y"), 0));
    assertEquals(10 + 'z', Alternation.median(figures.get("z"), 0), 1e-9);
    assertEquals(-1, Alternation.median(figures.get("z"), 1), 1e-9);
  }

  @Test
  void withoutRotationEveryRoundRunsThePathsInTheOrderAdded() throws Exception {
    List<String> calls = new ArrayList<>();
    new Alternation().untimed(1).quietCompiler()
        .path("a", r -> {
          calls.add("a" + r);
          return new double[] {1};
        })
        .path("b", r -> {
          calls.add("b" + r);
          return new double[] {2};
        })
        .run(2, (r, f) -> { });
    assertEquals(List.of("a-1", "b-1", "a0", "b0", "a1", "b1"), calls);
  }

  @Test
  void medianOfAnOddCountIsTheMiddleOfAnEvenTheMeanOfTheTwo() {
    assertEquals(3, Alternation.median(new double[] {9, 3, 1}), 1e-9);
    assertEquals(2.5, Alternation.median(new double[] {4, 1, 2, 3}), 1e-9);
  }
}
