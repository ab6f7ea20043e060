package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The LMDB read-path measurement reads every key back on each of its paths (no timing asserted). */
class LmdbReadPathTest {

  @TempDir
  Path tmp;

  @Test
  void timesEveryPathInEveryRound() throws Exception {
    // measure itself refuses a path that read back fewer value bytes than a hit on every key gives
    Map<String, List<Double>> cpu = LmdbReadPath.measure(tmp, 500, 2_000, 2, null);
    assertEquals(List.of("operation", "client", "bytebuffer-copy", "bytebuffer-view"), List.copyOf(cpu.keySet()));
    for (Map.Entry<String, List<Double>> e : cpu.entrySet()) {
      assertEquals(2, e.getValue().size(), e.getKey() + ": one figure per round");
      assertTrue(e.getValue().stream().allMatch(ns -> ns > 0), e.getKey() + ": " + e.getValue());
    }
  }
}
