package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The client-cost measurement runs both workload classes through YCSB's own client thread (no timing asserted). */
class ClientCostTest {

  @Test
  void timesEveryStepOfBothWorkloadsInEachRound() throws Exception {
    Map<String, double[]> figures = ClientCost.measure(Path.of("../workloads"), 2000, 2, null);
    assertEquals(List.of("load core", "load ours", "read core", "read ours"), List.copyOf(figures.keySet()));
    for (Map.Entry<String, double[]> e : figures.entrySet()) {
      double[] row = e.getValue();
      assertEquals(3, row.length, e.getKey() + ": the median, then one figure per round");
      assertTrue(row[1] > 0 && row[2] > 0, e.getKey());
      assertEquals((row[1] + row[2]) / 2, row[0], 1e-9, e.getKey() + ": the median of two rounds");
    }
  }
}
