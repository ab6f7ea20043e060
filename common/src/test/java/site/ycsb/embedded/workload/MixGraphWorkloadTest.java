package site.ycsb.embedded.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import site.ycsb.DB;
import site.ycsb.WorkloadException;

/**
 * The generated stream against the published model, with the formulas written out here rather than taken from
 * the class: generalized Pareto CDF 1 - (1 + k*x/sigma)^(-1/k), key-range shares a*exp(b*x) + c*exp(d*x)
 * normalised, key ranks P(rank &lt;= r) = a*r^b, the mix ratios, the sine rate.
 */
class MixGraphWorkloadTest {

  // the published parameters (RocksDB PR #5953's mixgraph example), which are also the class's defaults
  static final double VALUE_K = 0.2615;
  static final double VALUE_SIGMA = 25.45;
  static final double ITER_K = 2.517;
  static final double ITER_SIGMA = 14.236;
  static final double[] RANGE = {14.18, -2.917, 0.0164, -0.08082};
  static final double KEY_A = 0.002312;
  static final double KEY_B = 0.3467;

  static MixGraphWorkload workload(String... kv) throws WorkloadException {
    Properties p = new Properties();
    p.setProperty("recordcount", "300000");
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    MixGraphWorkload w = new MixGraphWorkload();
    w.init(p);
    return w;
  }

  static double paretoCdf(double x, double k, double sigma) {
    return 1 - Math.pow(1 + k * x / sigma, -1 / k);
  }

  /** The sizes written (inserts and updates) or scanned, from the recording DB's log. */
  static List<Long> sizes(List<String> ops, String prefix) {
    List<Long> out = new ArrayList<>();
    for (String op : ops) {
      if (op.startsWith(prefix)) {
        out.add(Long.parseLong(op.substring(op.lastIndexOf(' ') + 1)));
      }
    }
    return out;
  }

  static double atOrBelow(List<Long> xs, long s) {
    return xs.stream().filter(x -> x <= s).count() / (double) xs.size();
  }

  /** One operation of a workload's load phase ({@code MixGraphWorkload::doInsert}) or run phase. */
  interface Step {
    boolean call(MixGraphWorkload w, DB db, Object threadstate);
  }

  /** The calls that {@code n} steps of one thread of {@code w} made, in order, as the recording DB logs them. */
  static List<String> calls(MixGraphWorkload w, Step step, int n) throws WorkloadException {
    Object state = w.initThread(new Properties(), 0, 1);
    TraceWorkloadTest.RecordingDb db = new TraceWorkloadTest.RecordingDb();
    for (int i = 0; i < n; i++) {
      step.call(w, db, state);
    }
    return db.ops;
  }

  @Test
  void loadedValueSizesFollowTheGeneralizedPareto() throws Exception {
    List<String> ops = calls(workload("recordcount", "200000"), MixGraphWorkload::doInsert, 200_000);
    List<Long> values = sizes(ops, "INSERT ");
    assertEquals(200_000, values.size());
    // sizes are the Pareto draw rounded up, at most 1024
    for (long s : new long[] {1, 3, 10, 15, 20, 40, 80, 150, 300, 600}) {
      assertEquals(paretoCdf(s, VALUE_K, VALUE_SIGMA), atOrBelow(values, s), 0.005, "P(size <= " + s + ")");
    }
    assertEquals(1024, values.stream().mapToLong(Long::longValue).max().orElseThrow());
    assertEquals(1, values.stream().mapToLong(Long::longValue).min().orElseThrow());
    // the loaded keys are 0 .. n-1 in order, 48-byte decimal
    assertEquals("INSERT " + "0".repeat(48) + " ", ops.get(0).substring(0, 56));
    assertEquals("0".repeat(42) + "199999", ops.get(199_999).split(" ")[1]);
  }

  @Test
  void keyRangeHotnessFollowsTheTwoTermExponential() throws Exception {
    MixGraphWorkload w = workload("mixgraph.mix_get_ratio", "1", "mixgraph.mix_put_ratio", "0",
        "mixgraph.mix_seek_ratio", "0");
    int n = 200_000;
    long[] hits = new long[30];
    for (String op : calls(w, MixGraphWorkload::doTransaction, n)) {
      assertTrue(op.startsWith("READ "), op);
      long keynum = Long.parseLong(op.substring(5));
      hits[(int) (keynum / 10_000)]++; // 300,000 keys in 30 ranges of 10,000
    }
    double[] model = new double[30];
    double total = 0;
    for (int x = 1; x <= 30; x++) {
      model[x - 1] = RANGE[0] * Math.exp(RANGE[1] * x) + RANGE[2] * Math.exp(RANGE[3] * x);
      total += model[x - 1];
    }
    long[] sorted = hits.clone();
    Arrays.sort(sorted);
    for (int rank = 0; rank < 30; rank++) {
      assertEquals(model[rank] / total, sorted[29 - rank] / (double) n, 0.004, "range of hotness rank " + (rank + 1));
    }
    // the hottest range is placed by the seeded shuffle, not at the start of the key space
    int hottest = 0;
    for (int i = 1; i < 30; i++) {
      hottest = hits[i] > hits[hottest] ? i : hottest;
    }
    assertTrue(hottest != 0, "hottest range at position " + hottest);
  }

  @Test
  void keyRanksWithinARangeFollowThePowerModel() throws Exception {
    MixGraphWorkload w = workload();
    SplittableRandom r = new SplittableRandom(7);
    int n = 200_000;
    long[] ranks = new long[n];
    for (int i = 0; i < n; i++) {
      ranks[i] = w.keyRank(r.nextDouble());
    }
    for (long rank : new long[] {1, 100, 10_000, 1_000_000, 10_000_000}) {
      long below = Arrays.stream(ranks).filter(x -> x <= rank).count();
      assertEquals(KEY_A * Math.pow(rank, KEY_B), below / (double) n, 0.004, "P(rank <= " + rank + ")");
    }
  }

  @Test
  void theMixRatiosAndScanLengthsHold() throws Exception {
    int n = 100_000;
    Map<String, Integer> counts = new HashMap<>();
    for (String op : calls(workload(), MixGraphWorkload::doTransaction, n)) {
      counts.merge(op.substring(0, op.indexOf(' ')), 1, Integer::sum);
    }
    assertEquals(0.85, counts.get("READ") / (double) n, 0.006);
    assertEquals(0.14, counts.get("UPDATE") / (double) n, 0.006);
    assertEquals(0.01, counts.get("SCAN") / (double) n, 0.002);

    MixGraphWorkload seeks = workload("mixgraph.mix_get_ratio", "0", "mixgraph.mix_put_ratio", "0");
    List<Long> lengths = sizes(calls(seeks, MixGraphWorkload::doTransaction, 20_000), "SCAN ");
    assertEquals(20_000, lengths.size());
    for (long s : new long[] {1, 5, 10, 30, 100, 1000}) {
      assertEquals(paretoCdf(s, ITER_K, ITER_SIGMA), atOrBelow(lengths, s), 0.015, "P(scan length <= " + s + ")");
    }
    assertEquals(10_000, lengths.stream().mapToLong(Long::longValue).max().orElseThrow());
  }

  @Test
  void theSineRateSpacesTheRequests() throws Exception {
    MixGraphWorkload w = workload("mixgraph.sine_mix_rate", "true", "mixgraph.sine_a", "500",
        "mixgraph.sine_b", Double.toString(Math.PI / 2), "mixgraph.sine_c", "0", "mixgraph.sine_d", "1000");
    w.useClock(new PaceClock() {
      @Override
      public long nanoTime() {
        return 5_000_000_000L;
      }

      @Override
      public void sleepUntil(long nanos) {
      }
    });
    int inFirstSecond = 0;
    int inSecondSecond = 0;
    while (true) {
      long t = w.nextSlot() - 5_000_000_000L;
      if (t >= 2_000_000_000L) {
        break;
      }
      if (t < 1_000_000_000L) {
        inFirstSecond++;
      } else {
        inSecondSecond++;
      }
    }
    // integral of 500*sin(pi*t/2) + 1000 over [0, 1) and [1, 2): 1000 + 1000/pi each
    assertEquals(1000 + 1000 / Math.PI, inFirstSecond, 3);
    assertEquals(1000 + 1000 / Math.PI, inSecondSecond, 3);
  }

  @Test
  void theEndBlockShowsTheGeneratedDistributionsBesideTheModel() throws Exception {
    MixGraphWorkload w = workload();
    calls(w, MixGraphWorkload::doTransaction, 50_000);
    String out = TraceWorkloadTest.stderrOf(w::cleanup);
    String line = out.lines().filter(l -> l.startsWith("[MIXGRAPH] ")).findFirst().orElseThrow();
    Map<String, String> b = new HashMap<>();
    for (String item : line.substring(11).split(", ")) {
      b.put(item.substring(0, item.indexOf('=')), item.substring(item.indexOf('=') + 1));
    }
    assertEquals("run", b.get("phase"));
    assertEquals("50000", b.get("ops"));
    assertEquals("get:0.8500,put:0.1400,seek:0.0100", b.get("model_mix"));
    // ceil(25.45 * ((1 - p)^-0.2615 - 1) / 0.2615): p10 2.7, p50 19.3, p90 80.4, p99 227.3
    assertEquals("p10:3,p50:20,p90:81,p99:228", b.get("model_valuesize"));
    String[] model = b.get("model_keyrange_share").split(",");
    String[] got = b.get("keyrange_share").split(",");
    assertEquals(30, model.length);
    assertEquals(30, got.length);
    assertEquals(Double.parseDouble(model[0]), Double.parseDouble(got[0]), 0.01);
  }

  @Test
  void refusesAModelItCannotGenerate() {
    assertThrows(WorkloadException.class, () -> workload("recordcount", "0"));
    assertThrows(WorkloadException.class, () -> workload("mixgraph.mix_get_ratio", "0", "mixgraph.mix_put_ratio",
        "0", "mixgraph.mix_seek_ratio", "0"));
    assertThrows(WorkloadException.class, () -> workload("mixgraph.keyrange_dist_a", "0", "mixgraph.keyrange_dist_c",
        "0"));
    assertThrows(WorkloadException.class, () -> workload("mixgraph.key_size", "4"));
  }
}
