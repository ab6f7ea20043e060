package site.ycsb.embedded.bench;

/**
 * The engine calls a binding makes, timed from inside the binding: what separates the binding's own cost per
 * operation from its engine's in ONE client JVM and on the same operations, where (d)-(d0), the difference of two
 * client JVMs, moves by more than the binding costs (±0.9 us per read from one pair of JVMs to the next, against a
 * binding cost of some tens of nanoseconds: docs/performance.md, issue 21 item 6).
 *
 * <p>Each engine's binding has a subclass here that overrides only its engine calls ({@code get}, {@code put}),
 * reading {@code System.nanoTime()} before and after calling the binding's own method: the binding's code runs
 * unchanged around them. Inside YCSB's client, {@code NanoTimedDB} times the whole operation; the whole minus the
 * engine call is the binding's own work per operation (its key encoding, record codec, result map, status, write
 * path) plus the inner clock's own reads, which {@link #clockNanos()} measures in the same JVM so that the figure can
 * be given without them.
 *
 * <p>Counters are per instance (YCSB makes one per client thread), merged under a lock as each instance closes;
 * the last to close prints {@code [ENGINECALL-GET], Operations, n}, {@code [ENGINECALL-GET], TotalTime(ns), t}
 * (and PUT), and {@code [ENGINECALL-CLOCK], ns per nanoTime, c} beside YCSB's own lines.
 */
public final class EngineCalls {

  /** The line prefix of the figures on stdout. */
  public static final String PREFIX = "[ENGINECALL-";
  /** The engine's point read. */
  public static final int GET = 0;
  /** The engine's single put (an insert, an update's write). */
  public static final int PUT = 1;
  /**
   * The engine's transaction around a write, where a binding opens one outside its get and put (SQLite's
   * read-merge-write update: {@code BEGIN IMMEDIATE} before, {@code COMMIT} after).
   */
  public static final int TXN = 2;
  static final String[] KINDS = {"GET", "PUT", "TXN"};

  private static final Object LOCK = new Object();
  /** Instances made and not yet closed; guarded by LOCK. */
  private static int open;
  private static final long[] STEP_NANOS = new long[KINDS.length];
  private static final long[] STEP_COUNTS = new long[KINDS.length];

  private final long[] nanos = new long[KINDS.length];
  private final long[] counts = new long[KINDS.length];

  /** One client thread's counters; made with its binding instance. */
  public EngineCalls() {
    synchronized (LOCK) {
      open++;
    }
  }

  /** Adds one engine call of {@code kind} that started at {@code start} (a {@code System.nanoTime()}). */
  public void add(int kind, long start) {
    nanos[kind] += System.nanoTime() - start;
    counts[kind]++;
  }

  /** The nanoseconds of this instance's engine calls of {@code kind} so far: read before and after one operation. */
  public long nanos(int kind) {
    return nanos[kind];
  }

  /** The nanoseconds of all this instance's engine calls so far, of every kind. */
  public long nanosAll() {
    return nanos[GET] + nanos[PUT] + nanos[TXN];
  }

  /** How many engine calls of every kind this instance has timed so far. */
  public long countAll() {
    return counts[GET] + counts[PUT] + counts[TXN];
  }

  /** Adds {@code nanos} of engine calls of {@code kind}, timed by the caller. */
  public void addNanos(int kind, long nanos) {
    this.nanos[kind] += nanos;
    counts[kind]++;
  }

  /** How many engine calls of {@code kind} this instance has timed so far. */
  public long count(int kind) {
    return counts[kind];
  }

  /** At the binding's close: adds this thread's calls; the last instance of the step prints them. */
  /** What closes the binding around these counters. */
  public interface Cleanup {
    /** Closes it. */
    void run() throws site.ycsb.DBException;
  }

  /** Runs the binding's cleanup, then closes these counters even when it failed: every timed binding's cleanup. */
  public void closeAfter(Cleanup cleanup) throws site.ycsb.DBException {
    try {
      cleanup.run();
    } finally {
      close();
    }
  }

  public void close() {
    boolean last;
    synchronized (LOCK) {
      for (int i = 0; i < KINDS.length; i++) {
        STEP_NANOS[i] += nanos[i];
        STEP_COUNTS[i] += counts[i];
        nanos[i] = 0;
        counts[i] = 0;
      }
      last = --open == 0;
      if (last) {
        for (int i = 0; i < KINDS.length; i++) {
          if (STEP_COUNTS[i] > 0) {
            System.out.println(PREFIX + KINDS[i] + "], Operations, " + STEP_COUNTS[i]);
            System.out.println(PREFIX + KINDS[i] + "], TotalTime(ns), " + STEP_NANOS[i]);
          }
          STEP_NANOS[i] = 0;
          STEP_COUNTS[i] = 0;
        }
      }
    }
    if (last) {
      System.out.printf(java.util.Locale.ROOT, "%sCLOCK], ns per nanoTime, %.2f%n", PREFIX, clockNanos());
    }
  }

  /**
   * What one {@code System.nanoTime()} costs in this JVM, the median of 5 passes of a million back-to-back reads:
   * the inner clock adds about one such read to the span outside the engine call (half of each of its two reads).
   */
  static double clockNanos() {
    double[] passes = new double[5];
    long sink = 0;
    for (int p = 0; p < passes.length; p++) {
      int n = 1_000_000;
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        sink += System.nanoTime();
      }
      passes[p] = (System.nanoTime() - t0) / (double) n;
    }
    if (sink == 42) { // keeps the loop's reads from being optimised away
      System.out.print("");
    }
    return Alternation.median(passes);
  }
}
