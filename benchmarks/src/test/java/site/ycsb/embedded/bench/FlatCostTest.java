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

import site.ycsb.embedded.lmdb.LmdbClient;

/**
 * The flat-cost benchmark at tiny counts: every line it promises, (d0) run around LibraryDB and (d) around
 * the binding on the same loaded data, and (d)-(d0) computed from those two and nothing else. No timing is
 * asserted (the machine is shared); only the shape of the output and the arithmetic.
 */
class FlatCostTest {

  private static final Path WORKLOADS = Path.of("../workloads");

  @Test
  void bindingCostIsTheMedianOfEachRoundsDMinusD0() {
    // Round differences 0.5, 0.2, 0.9: the median is 0.5; the difference of the medians would be 0.9.
    assertEquals(500.0, FlatCost.bindingCost(new double[] {3000, 5000, 4000}, new double[] {3500, 5200, 4900}), 1e-9);
    assertEquals(-50.0, FlatCost.bindingCost(new double[] {1000}, new double[] {950}), 1e-9);
    assertThrows(IllegalArgumentException.class, () -> FlatCost.bindingCost(new double[] {1, 2}, new double[] {1}));
    FlatCost.Cost small = new FlatCost.Cost(100, 3000, 3400, 400);
    assertEquals(1.1, FlatCost.ratio(small, new FlatCost.Cost(1000, 6000, 6440, 440)), 1e-9);
    assertTrue(Double.isNaN(FlatCost.ratio(new FlatCost.Cost(100, 3000, 2990, -10), small)));
  }

  @Test
  void tinyRunPrintsEachLayerAndTheDifferenceOfThoseLayers(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status;
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      status = FlatCost.run(new String[] {"--engines", "lmdb", "--records", "600,300", "--rounds", "2", "--ops", "500",
          "--dir", dir.toString(), "--workloads", WORKLOADS.toString()}, out);
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, text);
    List<Map<String, String>> steps = new ArrayList<>();
    Map<Integer, Map<String, String>> results = new HashMap<>();
    Map<String, String> verdict = null;
    for (String line : text.split("\n")) {
      if (line.startsWith("step ")) {
        steps.add(words(line));
      } else if (line.startsWith("flatcost ") && line.contains(" records=")) {
        Map<String, String> w = words(line);
        results.put(Integer.valueOf(w.get("records")), w);
      } else if (line.startsWith("flatcost ") && line.contains(" binding_ratio=")) {
        verdict = words(line);
      }
    }
    // Per N (in ascending order), per round, one (d0) step around LibraryDB and one (d) around the binding.
    assertEquals(8, steps.size(), text);
    for (int i = 0; i < steps.size(); i++) {
      Map<String, String> s = steps.get(i);
      assertEquals(i < 4 ? "300" : "600", s.get("records"), text);
      assertEquals("500", s.get("ops"));
      assertEquals(s.get("layer").equals("d0") ? LibraryDB.class.getName() : LmdbClient.class.getName(), s.get("db"));
      assertTrue(Double.parseDouble(s.get("ns_per_op")) > 0, s.toString());
    }
    // Round 1 reads (d0) first, round 2 (d) first.
    assertEquals(List.of("d0", "d", "d", "d0"), steps.subList(0, 4).stream().map(s -> s.get("layer")).toList());
    assertTrue(text.contains("lmdb N=300: loaded in "), text);
    for (int n : new int[] {300, 600}) {
      Map<String, String> r = results.get(n);
      assertTrue(r != null, "no result line for N=" + n + ": " + text);
      double[] d0 = layer(steps, n, "d0");
      double[] d = layer(steps, n, "d");
      // Two rounds: the median of the two round differences is their mean, printed to 0.1 ns.
      double expected = ((d[0] - d0[0]) + (d[1] - d0[1])) / 2;
      assertEquals(expected, Double.parseDouble(r.get("binding_ns")), 0.2, r.toString());
      assertEquals((d0[0] + d0[1]) / 2, Double.parseDouble(r.get("d0_ns")), 0.2, r.toString());
      assertEquals((d[0] + d[1]) / 2, Double.parseDouble(r.get("d_ns")), 0.2, r.toString());
    }
    assertTrue(verdict != null, text);
    assertEquals("300", verdict.get("small"));
    assertEquals("600", verdict.get("large"));
    double small = Double.parseDouble(results.get(300).get("binding_ns"));
    double large = Double.parseDouble(results.get(600).get("binding_ns"));
    String ratio = verdict.get("binding_ratio");
    if (ratio.equals("-")) {
      assertTrue(small <= 0.05, "no ratio although (d)-(d0) at the smallest N is " + small);
      assertEquals("undefined", verdict.get("within_10_percent"));
    } else if (small >= 1) { // printed to 0.1 ns: the ratio of the printed figures is close to the printed ratio
      assertEquals(large / small, Double.parseDouble(ratio), 0.01 + 0.1 * Math.abs(large / small), verdict.toString());
      assertTrue(List.of("yes", "no").contains(verdict.get("within_10_percent")), verdict.toString());
    }
    assertTrue(text.contains("(d)-(d0)") && text.contains("wall time: "), text);
    try (var left = Files.list(dir)) {
      assertTrue(left.noneMatch(Files::isDirectory), "each N's data is deleted after its rounds");
    }
  }

  @Test
  void unknownEngineIsRefusedBeforeAnyStep(@TempDir Path dir) {
    assertThrows(IllegalArgumentException.class, () -> FlatCost.run(new String[] {"--engines", "mongodb",
        "--dir", dir.toString()}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
  }

  private static double[] layer(List<Map<String, String>> steps, int n, String layer) {
    return steps.stream().filter(s -> s.get("records").equals(Integer.toString(n)) && s.get("layer").equals(layer))
        .mapToDouble(s -> Double.parseDouble(s.get("ns_per_op"))).toArray();
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
