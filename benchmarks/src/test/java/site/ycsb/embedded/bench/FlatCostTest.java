package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flat-cost benchmark at tiny counts: every line it promises, each round run around the engine-timed binding on
 * the same loaded data, and the binding's own work computed from the whole read and the engine call and nothing
 * else. No timing is asserted (the machine is shared); only the shape of the output and the arithmetic.
 */
class FlatCostTest {

  private static final Path WORKLOADS = Path.of("../workloads");

  @Test
  void ownWorkIsTheMedianOfEachRoundsWholeMinusEngine() {
    // Round differences 500, 200, 900: the median is 500; the difference of the medians would be 700.
    // LibraryDB's own works 100, 150, 300: added per round 400, 50, 600, median 400 (the medians' difference: 350).
    List<FlatCost.Round> binding = List.of(new FlatCost.Round(3500, 3000, 20), new FlatCost.Round(5200, 5000, 22),
        new FlatCost.Round(4900, 4000, 21));
    List<FlatCost.Round> library = List.of(new FlatCost.Round(3100, 3000, 20), new FlatCost.Round(5150, 5000, 20),
        new FlatCost.Round(4300, 4000, 20));
    FlatCost.Cost c = FlatCost.summarise(100, binding, library);
    assertEquals(500.0, c.own(), 1e-9);
    assertEquals(4900.0, c.whole(), 1e-9);
    assertEquals(4000.0, c.engine(), 1e-9);
    assertEquals(479.0, c.ownNet(), 1e-9);
    assertEquals(150.0, c.libraryOwn(), 1e-9);
    assertEquals(400.0, c.added(), 1e-9);
    assertThrows(IllegalArgumentException.class, () -> FlatCost.summarise(1, List.of(new FlatCost.Round(1, 1, 1)),
        List.of()));
    FlatCost.Cost small = new FlatCost.Cost(100, 3400, 3000, 420, 20, 300, 120);
    assertEquals(1.1, FlatCost.ratio(small, new FlatCost.Cost(1000, 6440, 6000, 460, 20, 330, 130)), 1e-9);
    assertTrue(Double.isNaN(FlatCost.ratio(new FlatCost.Cost(100, 3000, 2990, 10, 20, 5, 5), small)));
  }

  @Test
  void tinyRunPrintsEachRoundAndTheBindingsOwnWorkFromIt(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status;
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      status = Bench.run(new String[] {"flat-cost", "--engines", "lmdb", "--records", "600,300", "--rounds", "2",
          "--ops", "500", "--dir", dir.toString(), "--workloads", WORKLOADS.toString()}, out);
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, text);
    List<Map<String, String>> steps = new ArrayList<>();
    Map<String, Map<String, String>> results = new HashMap<>();
    Map<String, Map<String, String>> verdicts = new HashMap<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("step ")) {
        steps.add(words(line));
      } else if (line.startsWith("flatcost ") && line.contains(" records=")) {
        Map<String, String> w = words(line);
        results.put(w.get("op") + " " + w.get("records"), w);
      } else if (line.startsWith("flatcost ") && line.contains(" binding_ratio=")) {
        Map<String, String> w = words(line);
        verdicts.put(w.get("op"), w);
      }
    }
    // Per N (in ascending order), per operation (reads, then updates), per round, one JVM of paired operations: a line
    // for the engine-timed LMDB binding's path and one for LibraryDB's on the same handle, adding up to the round's.
    assertEquals(16, steps.size(), text);
    assertEquals(List.of("d", "d0", "d", "d0"), steps.subList(0, 4).stream().map(s -> s.get("layer")).toList());
    for (int i = 0; i < steps.size(); i++) {
      Map<String, String> s = steps.get(i);
      assertEquals(i < 8 ? "300" : "600", s.get("records"), text);
      assertEquals(i % 8 < 4 ? "read" : "update", s.get("op"), text);
      assertEquals(s.get("layer").equals("d0") ? LibraryDB.class.getName() : TimedBindings.Lmdb.class.getName(),
          s.get("db"));
      double whole = Double.parseDouble(s.get("whole_ns"));
      double engine = Double.parseDouble(s.get("engine_ns"));
      assertTrue(engine > 0 && whole > engine, s.toString());
      assertEquals(whole - engine, Double.parseDouble(s.get("own_all_ns")), 0.15, s.toString());
      double own = Double.parseDouble(s.get("own_ns"));
      long paused = Long.parseLong(s.get("paused"));
      // Without a pause the unpaused mean is the mean over every operation; a pause only takes some out of it.
      assertTrue(own > 0 && (paused > 0 || Math.abs(own - (whole - engine)) < 0.15), s.toString());
      // -1: no operation's own work was under the pause threshold (a cold JVM's few hundred updates can be all slow)
      int median = Integer.parseInt(s.get("own_median_ns"));
      assertTrue(median >= 0 || median == -1 && paused == Long.parseLong(s.get("ops")), s.toString());
      assertTrue(Double.parseDouble(s.get("clock_ns")) > 0, s.toString());
      // A read makes one engine call on either path; an update of LMDB, whose updates are not blind, a get and a put
      // on either path.
      assertEquals(s.get("op").equals("update") ? 2.0 : 1.0, Double.parseDouble(s.get("engine_calls")), 1e-9,
          s.toString());
      if (i % 2 == 1) {
        assertEquals(500, Integer.parseInt(s.get("ops")) + Integer.parseInt(steps.get(i - 1).get("ops")), text);
        assertEquals(steps.get(i - 1).get("round"), s.get("round"));
      }
    }
    assertTrue(text.contains("lmdb N=300: loaded in "), text);
    for (String op : List.of("read", "update")) {
      for (int n : new int[] {300, 600}) {
        Map<String, String> r = results.get(op + " " + n);
        assertTrue(r != null, "no result line for " + op + " N=" + n + ": " + text);
        double[] own = figure(steps, op, n, "d", "own_ns");
        double[] engine = figure(steps, op, n, "d", "engine_ns");
        double[] clock = figure(steps, op, n, "d", "clock_ns");
        double[] calls = figure(steps, op, n, "d", "engine_calls");
        double[] library = figure(steps, op, n, "d0", "own_ns");
        double[] libraryCalls = figure(steps, op, n, "d0", "engine_calls");
        // Two rounds: each median is the two rounds' mean, printed to 0.1 ns.
        assertEquals((own[0] + own[1]) / 2, Double.parseDouble(r.get("own_ns")), 0.2, r.toString());
        assertEquals((engine[0] + engine[1]) / 2, Double.parseDouble(r.get("engine_ns")), 0.2, r.toString());
        assertEquals((own[0] + own[1]) / 2 - (clock[0] + clock[1]) / 2 * (calls[0] + calls[1]) / 2,
            Double.parseDouble(r.get("own_net_ns")), 0.3, r.toString());
        assertEquals((library[0] + library[1]) / 2, Double.parseDouble(r.get("library_own_ns")), 0.2, r.toString());
        // Each path's own work less one clock read per engine call, the clock of the round's JVM.
        double added0 = own[0] - clock[0] * calls[0] - (library[0] - clock[0] * libraryCalls[0]);
        double added1 = own[1] - clock[1] * calls[1] - (library[1] - clock[1] * libraryCalls[1]);
        assertEquals((added0 + added1) / 2, Double.parseDouble(r.get("added_ns")), 0.3, r.toString());
      }
      Map<String, String> verdict = verdicts.get(op);
      assertTrue(verdict != null, text);
      assertEquals("300", verdict.get("small"));
      assertEquals("600", verdict.get("large"));
      double small = Double.parseDouble(results.get(op + " 300").get("own_net_ns"));
      double large = Double.parseDouble(results.get(op + " 600").get("own_net_ns"));
      String ratio = verdict.get("binding_ratio");
      if (ratio.equals("-")) {
        assertTrue(small <= 0.05, "no ratio although the own work at the smallest N is " + small);
        assertEquals("undefined", verdict.get("within_10_percent"));
      } else if (small >= 1) { // printed to 0.1 ns: the ratio of the printed figures is close to the printed ratio
        assertEquals(large / small, Double.parseDouble(ratio), 0.01 + 0.1 * Math.abs(large / small),
            verdict.toString());
        assertTrue(List.of("yes", "no").contains(verdict.get("within_10_percent")), verdict.toString());
      }
      double change = Math.abs(Double.parseDouble(verdict.get("added_change_ns")));
      if (Math.abs(change - 0.1 * small) > 0.2) { // the printed figures are rounded to 0.1 ns
        assertEquals(change <= 0.1 * small ? "yes" : "no", verdict.get("added_flat"), verdict.toString());
      }
    }
    assertTrue(text.contains("binding_ratio = the binding's own work") && text.contains("wall time: "), text);
    try (var left = Files.list(dir)) {
      assertTrue(left.noneMatch(Files::isDirectory), "each N's data is deleted after its rounds");
    }
  }

  @Test
  void unknownEngineIsRefusedBeforeAnyStep(@TempDir Path dir) {
    assertThrows(IllegalArgumentException.class, () -> Bench.run(new String[] {"flat-cost", "--engines", "mongodb",
        "--dir", dir.toString()}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
  }

  private static double[] figure(List<Map<String, String>> steps, String op, int n, String layer, String name) {
    return steps.stream().filter(s -> s.get("op").equals(op) && s.get("records").equals(Integer.toString(n))
        && s.get("layer").equals(layer)).mapToDouble(s -> Double.parseDouble(s.get(name))).toArray();
  }

  private static Map<String, String> words(String line) {
    Map<String, String> m = new HashMap<>();
    for (String w : line.trim().split(" ")) {
      int eq = w.indexOf('=');
      if (eq > 0) {
        m.put(w.substring(0, eq), w.substring(eq + 1));
      }
    }
    return m;
  }
}
