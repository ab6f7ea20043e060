package site.ycsb.embedded.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicLong;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.RandomByteIterator;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;
import site.ycsb.embedded.ClientExitStatus;
import site.ycsb.embedded.EngineProperties;

/**
 * The model of Facebook's RocksDB workloads (Cao et al., "Characterizing, Modeling, and Benchmarking RocksDB
 * Key-Value Workloads at Facebook", FAST 2020) that db_bench runs as {@code mixgraph}, written anew for YCSB:
 * <ul>
 *   <li>Key-range hotness: the {@code recordcount} keys are cut into {@code keyrange_num} ranges of equal size;
 *       the range of hotness rank x (1 = hottest) is chosen with probability proportional to
 *       {@code a*exp(b*x) + c*exp(d*x)} (keyrange_dist_a..d); ranks are placed at shuffled positions in the key
 *       space (seeded), so the hot range is not always the first.</li>
 *   <li>Key within its range: the power model of key access, rank r drawn with P(rank &lt;= r) = a*r^b
 *       (key_dist_a, key_dist_b; either 0: uniform in the range), each rank at a fixed pseudo-random offset.</li>
 *   <li>Value sizes and scan lengths: generalized Pareto, x = theta + sigma*((1-p)^-k - 1)/k, rounded up and held
 *       to [value_min, mix_max_value_size] and [1, mix_max_scan_len] (db_bench wraps a draw above its cap around,
 *       size % cap, instead).</li>
 *   <li>The query mix: get (YCSB read), put (YCSB update of a loaded key) and seek (YCSB scan of the drawn scan
 *       length) in the ratios mix_get_ratio, mix_put_ratio, mix_seek_ratio.</li>
 *   <li>The request rate, with {@code mixgraph.sine_mix_rate=true}: sine_a*sin(sine_b*t + sine_c) + sine_d
 *       operations per second, t in seconds since the run began, for all threads together (at least 1).</li>
 * </ul>
 * The load writes keys 0 .. recordcount-1 in order with values of the model's sizes. Keys are decimal numbers
 * zero-padded to key_size bytes. At the end a {@code [MIXGRAPH]} line on stderr gives the generated
 * distributions beside the model's.
 */
public class MixGraphWorkload extends Workload {

  public static final String PREFIX = "mixgraph.";
  /** The model's parameters this class reads, each after {@link #PREFIX} (db_bench's names). */
  public static final List<String> PARAMETERS = List.of("key_size", "keyrange_num", "keyrange_dist_a",
      "keyrange_dist_b", "keyrange_dist_c", "keyrange_dist_d", "key_dist_a", "key_dist_b", "value_k", "value_sigma",
      "value_theta", "value_min", "mix_max_value_size", "iter_k", "iter_sigma", "iter_theta", "mix_max_scan_len",
      "mix_get_ratio", "mix_put_ratio", "mix_seek_ratio", "sine_mix_rate", "sine_a", "sine_b", "sine_c", "sine_d",
      "seed");

  /** The generated sizes are counted exactly below this. */
  private static final int EXACT = 1 << 14;
  private static final double[] QUANTILES = {0.1, 0.5, 0.9, 0.99};

  /** The model's parameters, as db_bench names them. */
  static final class Model {
    long records;
    int keySize;
    int keyranges;
    double[] keyrangeDist = new double[4];
    double keyDistA;
    double keyDistB;
    double valueK;
    double valueSigma;
    double valueTheta;
    int valueMin;
    int valueMax;
    double iterK;
    double iterSigma;
    double iterTheta;
    int scanMax;
    double get;
    double put;
    double seek;
    boolean sine;
    double[] sineAbcd = new double[4];
    long seed;
  }

  /** One client thread's random stream and counts. */
  static final class ThreadState {
    final SplittableRandom random;
    final long[] ops = new long[3];
    final long[] rangeHits;
    final SizeHistogram values = new SizeHistogram(EXACT);
    final SizeHistogram scans = new SizeHistogram(EXACT);

    ThreadState(long seed, int ranges) {
      random = new SplittableRandom(seed);
      rangeHits = new long[ranges];
    }
  }

  private Model m;
  private KeyFormat keys;
  private String table;
  private String field;
  /** The cumulative share of the ranges by hotness rank (index 0 = hottest). */
  private double[] rankCdf;
  /** The model's share of each hotness rank. */
  private double[] rankShare;
  /** Where in the key space the range of each hotness rank sits. */
  private int[] rankPosition;
  private final AtomicLong nextInsert = new AtomicLong();
  private final AtomicLong threadSeeds = new AtomicLong();
  private final List<ThreadState> states = new ArrayList<>();
  private PaceClock clock = PaceClock.SYSTEM;
  private final Object pace = new Object();
  private long paceStart = Long.MIN_VALUE;
  private long paceNext;
  private volatile String phase = "none";

  @Override
  public void init(Properties p) throws WorkloadException {
    EngineProperties props = new EngineProperties(p, "workload");
    try {
      m = model(props, p);
      keys = KeyFormat.decimal(m.keySize);
      keys.key(Math.max(0, m.records - 1)); // refuses now when the numbers do not fit in key_size digits
      table = p.getProperty("table", "usertable");
      field = p.getProperty("fieldnameprefix", "field") + "0";
      nextInsert.set(Long.parseLong(p.getProperty("insertstart", "0").trim()));
      buildRanges();
    } catch (IllegalArgumentException e) {
      throw ClientExitStatus.refusedWorkload(new WorkloadException(e.getMessage()));
    }
    System.err.printf(Locale.ROOT, "[mixgraph] %d keys of %d bytes in %d key ranges (hottest %.3f of requests),"
        + " values GPD(k=%s, sigma=%s, theta=%s) in [%d, %d], mix get/put/seek %s/%s/%s, scans GPD(k=%s, sigma=%s)"
        + " up to %d, rate %s%n", m.records, m.keySize, m.keyranges, rankShare[0], m.valueK, m.valueSigma,
        m.valueTheta, m.valueMin, m.valueMax, m.get, m.put, m.seek, m.iterK, m.iterSigma, m.scanMax,
        m.sine ? String.format(Locale.ROOT, "%s*sin(%s*t+%s)+%s ops/s", m.sineAbcd[0], m.sineAbcd[1],
            m.sineAbcd[2], m.sineAbcd[3]) : "unpaced (mixgraph.sine_mix_rate=false)");
  }

  static Model model(EngineProperties props, Properties p) {
    Model m = new Model();
    m.records = Long.parseLong(p.getProperty("recordcount", "0").trim());
    if (m.records < 1) {
      throw new IllegalArgumentException("property recordcount = '" + p.getProperty("recordcount")
          + "' is not allowed: expected the number of keys, at least 1 (db_bench's -num)");
    }
    m.keySize = props.integer(PREFIX + "key_size", 48, 1, 1024);
    m.keyranges = (int) Math.min(props.integer(PREFIX + "keyrange_num", 30, 1, 1 << 20), m.records);
    String[] abcd = {"a", "b", "c", "d"};
    double[] rangeDefaults = {14.18, -2.917, 0.0164, -0.08082};
    for (int i = 0; i < 4; i++) {
      m.keyrangeDist[i] = props.decimal(PREFIX + "keyrange_dist_" + abcd[i], rangeDefaults[i], -1e9, 1e9);
    }
    m.keyDistA = props.decimal(PREFIX + "key_dist_a", 0.002312, 0, 1);
    m.keyDistB = props.decimal(PREFIX + "key_dist_b", 0.3467, 0, 1e3);
    m.valueK = props.decimal(PREFIX + "value_k", 0.2615, -1e3, 1e3);
    m.valueSigma = props.decimal(PREFIX + "value_sigma", 25.45, 1e-9, 1e12);
    m.valueTheta = props.decimal(PREFIX + "value_theta", 0, 0, 1e12);
    m.valueMin = props.integer(PREFIX + "value_min", 1, 1, TraceWorkload.MAX_VALUE_SIZE);
    m.valueMax = props.integer(PREFIX + "mix_max_value_size", 1024, m.valueMin, TraceWorkload.MAX_VALUE_SIZE);
    m.iterK = props.decimal(PREFIX + "iter_k", 2.517, -1e3, 1e3);
    m.iterSigma = props.decimal(PREFIX + "iter_sigma", 14.236, 1e-9, 1e12);
    m.iterTheta = props.decimal(PREFIX + "iter_theta", 0, 0, 1e12);
    m.scanMax = props.integer(PREFIX + "mix_max_scan_len", 10000, 1, Integer.MAX_VALUE);
    m.get = props.decimal(PREFIX + "mix_get_ratio", 0.85, 0, 1e9);
    m.put = props.decimal(PREFIX + "mix_put_ratio", 0.14, 0, 1e9);
    m.seek = props.decimal(PREFIX + "mix_seek_ratio", 0.01, 0, 1e9);
    if (m.get + m.put + m.seek <= 0) {
      throw props.refuse(PREFIX + "mix_get_ratio", "ratios of get, put and seek that are not all 0");
    }
    m.sine = props.bool(PREFIX + "sine_mix_rate", false);
    double[] sineDefaults = {350, 0.0105, 0, 50000};
    for (int i = 0; i < 4; i++) {
      m.sineAbcd[i] = props.decimal(PREFIX + "sine_" + abcd[i], sineDefaults[i], -1e12, 1e12);
    }
    m.seed = props.integer(PREFIX + "seed", 20200225L, Long.MIN_VALUE, Long.MAX_VALUE);
    return m;
  }

  private void buildRanges() {
    int n = m.keyranges;
    double[] w = new double[n];
    double total = 0;
    for (int x = 1; x <= n; x++) {
      double[] d = m.keyrangeDist;
      w[x - 1] = Math.max(0, d[0] * Math.exp(d[1] * x) + d[2] * Math.exp(d[3] * x));
      total += w[x - 1];
    }
    if (!(total > 0) || Double.isInfinite(total)) {
      throw new IllegalArgumentException("properties " + PREFIX + "keyrange_dist_a..d give no key range a positive"
          + " share (a*exp(b*x) + c*exp(d*x) for x = 1.." + n + ")");
    }
    rankShare = new double[n];
    rankCdf = new double[n];
    double acc = 0;
    for (int i = 0; i < n; i++) {
      rankShare[i] = w[i] / total;
      acc += rankShare[i];
      rankCdf[i] = acc;
    }
    rankCdf[n - 1] = 1.0;
    rankPosition = new int[n];
    for (int i = 0; i < n; i++) {
      rankPosition[i] = i;
    }
    SplittableRandom shuffle = new SplittableRandom(m.seed);
    for (int i = n - 1; i > 0; i--) {
      int j = shuffle.nextInt(i + 1);
      int t = rankPosition[i];
      rankPosition[i] = rankPosition[j];
      rankPosition[j] = t;
    }
  }

  @Override
  public Object initThread(Properties p, int mythreadid, int threadcount) {
    ThreadState s = new ThreadState(SplitMix64.mix(m.seed + threadSeeds.incrementAndGet() * SplitMix64.GAMMA),
        m.keyranges);
    synchronized (states) {
      states.add(s);
    }
    return s;
  }

  /** Replaces the pacing's clock (tests). */
  void useClock(PaceClock c) {
    clock = c;
  }

  @Override
  public boolean doInsert(DB db, Object threadstate) {
    phase = "load";
    ThreadState s = (ThreadState) threadstate;
    long keynum = nextInsert.getAndIncrement();
    int size = valueSize(s.random.nextDouble());
    s.values.add(size);
    db.insert(table, keys.key(keynum), value(size));
    return true;
  }

  @Override
  public boolean doTransaction(DB db, Object threadstate) {
    phase = "run";
    ThreadState s = (ThreadState) threadstate;
    if (m.sine) {
      clock.sleepUntil(nextSlot());
    }
    SplittableRandom r = s.random;
    int rank = rangeRank(r.nextDouble());
    int position = rankPosition[rank];
    s.rangeHits[position]++;
    String key = keys.key(keyInRange(position, r.nextDouble()));
    double op = r.nextDouble() * (m.get + m.put + m.seek);
    if (op < m.get) {
      s.ops[0]++;
      db.read(table, key, null, new HashMap<>());
    } else if (op < m.get + m.put) {
      s.ops[1]++;
      int size = valueSize(r.nextDouble());
      s.values.add(size);
      db.update(table, key, value(size));
    } else {
      s.ops[2]++;
      int length = scanLength(r.nextDouble());
      s.scans.add(length);
      db.scan(table, key, length, null, new Vector<>());
    }
    return true;
  }

  /** The hotness rank (0 = hottest) of the key range a request with uniform draw {@code u} goes to. */
  int rangeRank(double u) {
    int i = Arrays.binarySearch(rankCdf, u);
    int rank = i >= 0 ? i + 1 : -i - 1;
    return Math.min(rank, rankCdf.length - 1);
  }

  /** The key rank within a range (1 = hottest) for uniform draw {@code u}: P(rank &lt;= r) = a*r^b. */
  long keyRank(double u) {
    double r = Math.ceil(Math.pow(u / m.keyDistA, 1 / m.keyDistB));
    return r >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(1, (long) r);
  }

  /** The key number for the range at {@code position} and uniform draw {@code u}. */
  long keyInRange(int position, double u) {
    long start = m.records * position / m.keyranges;
    long size = m.records * (position + 1) / m.keyranges - start;
    if (m.keyDistA == 0 || m.keyDistB == 0) {
      return start + Math.min(size - 1, (long) (u * size));
    }
    long rank = keyRank(u);
    return start + Long.remainderUnsigned(SplitMix64.mix(m.seed ^ (rank * SplitMix64.GAMMA + position)), size);
  }

  /** The generalized Pareto quantile at probability p, rounded up. */
  static double paretoQuantile(double p, double k, double sigma, double theta) {
    double tail = 1 - p;
    double x = k == 0 ? theta - sigma * Math.log(tail) : theta + sigma * (Math.pow(tail, -k) - 1) / k;
    return Math.ceil(x);
  }

  int valueSize(double p) {
    double x = paretoQuantile(p, m.valueK, m.valueSigma, m.valueTheta);
    return (int) Math.max(m.valueMin, Math.min(m.valueMax, Double.isNaN(x) ? m.valueMax : x));
  }

  int scanLength(double p) {
    double x = paretoQuantile(p, m.iterK, m.iterSigma, m.iterTheta);
    return (int) Math.max(1, Math.min(m.scanMax, Double.isNaN(x) ? m.scanMax : x));
  }

  /** When the next request may start: the sine rate, for all threads together. */
  long nextSlot() {
    synchronized (pace) {
      long now = clock.nanoTime();
      if (paceStart == Long.MIN_VALUE) {
        paceStart = now;
        paceNext = now;
      }
      long due = paceNext;
      double t = (due - paceStart) / 1e9;
      double[] s = m.sineAbcd;
      double rate = Math.max(1, s[0] * Math.sin(s[1] * t + s[2]) + s[3]);
      paceNext = due + (long) (1e9 / rate);
      return due;
    }
  }

  private HashMap<String, ByteIterator> value(int size) {
    HashMap<String, ByteIterator> v = new HashMap<>(2);
    v.put(field, new RandomByteIterator(size));
    return v;
  }

  @Override
  public void cleanup() throws WorkloadException {
    System.err.println(describe());
  }

  /** The generated distributions beside the model's, one stable line (see README, "The workload class"). */
  String describe() {
    long[] ops = new long[3];
    long[] hits = new long[m.keyranges];
    SizeHistogram values = new SizeHistogram(EXACT);
    SizeHistogram scans = new SizeHistogram(EXACT);
    synchronized (states) {
      for (ThreadState s : states) {
        for (int i = 0; i < 3; i++) {
          ops[i] += s.ops[i];
        }
        for (int i = 0; i < hits.length; i++) {
          hits[i] += s.rangeHits[i];
        }
        values.addAll(s.values);
        scans.addAll(s.scans);
      }
    }
    long total = ops[0] + ops[1] + ops[2];
    double sum = m.get + m.put + m.seek;
    StringBuilder ranges = new StringBuilder();
    StringBuilder modelRanges = new StringBuilder();
    for (int rank = 0; rank < m.keyranges; rank++) {
      String sep = rank == 0 ? "" : ",";
      ranges.append(sep).append(String.format(Locale.ROOT, "%.4f",
          total == 0 ? 0.0 : hits[rankPosition[rank]] / (double) total));
      modelRanges.append(sep).append(String.format(Locale.ROOT, "%.4f", rankShare[rank]));
    }
    return String.format(Locale.ROOT, "[MIXGRAPH] phase=%s, ops=%d, mix=get:%.4f,put:%.4f,seek:%.4f,"
        + " model_mix=get:%.4f,put:%.4f,seek:%.4f, valuesize=%s, model_valuesize=%s, scanlength=%s,"
        + " model_scanlength=%s, keyrange_share=%s, model_keyrange_share=%s", phase, total,
        share(ops[0], total), share(ops[1], total), share(ops[2], total), m.get / sum, m.put / sum, m.seek / sum,
        quantiles(values), modelQuantiles(true), quantiles(scans), modelQuantiles(false), ranges, modelRanges);
  }

  private static double share(long n, long total) {
    return total == 0 ? 0 : n / (double) total;
  }

  private static String quantiles(SizeHistogram h) {
    if (h.count() == 0) {
      return "none";
    }
    StringBuilder sb = new StringBuilder();
    for (double q : QUANTILES) {
      sb.append(String.format(Locale.ROOT, "p%s:%d,", label(q), h.quantile(q)));
    }
    return sb.append("n:").append(h.count()).toString();
  }

  private String modelQuantiles(boolean value) {
    StringBuilder sb = new StringBuilder();
    for (double q : QUANTILES) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(String.format(Locale.ROOT, "p%s:%d", label(q), value ? valueSize(q) : scanLength(q)));
    }
    return sb.toString();
  }

  private static String label(double q) {
    return Integer.toString((int) Math.round(q * 100));
  }
}
