package site.ycsb.embedded.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.embedded.Keys;

/**
 * (d)-(d0) in ONE client JVM, on one engine handle, operation by operation: each point read and each update YCSB's
 * client asks for goes, by a coin toss, either through the binding's own {@code read} or {@code update} (layer (d))
 * or through the thinnest one there is on the same handle, {@link LibraryDB}'s (layer (d0)): for a read the key's
 * UTF-8 bytes, the library's get, the value into the result map; for an update the key's bytes, the library's get
 * when the binding's updates read before they write (all but blind updates), the value's array, the library's put.
 * So both paths make the same engine calls, and the Java code between and after them meets the same caches. Both
 * paths are timed around the operation and around the engine calls inside it ({@link EngineTimed}); the whole minus
 * the engine calls is each path's own work, and the binding's own work minus the thin path's is what the binding
 * adds. Because the two paths alternate at random within one JVM, they share its
 * JIT, its heap, the engine's caches and whatever the previous operation left in the CPU's caches: what differs
 * between them is their code alone. Two client JVMs, one per layer, differed by ±0.9 us per read from one pair to the
 * next; two JVMs with the engine call timed inside each, by ±30 ns (docs/performance.md, issue 21 item 6).
 *
 * <p>Properties: {@value #BINDING}, the engine-timed binding's class ({@link Engines.Engine#timedClass}); every other
 * property goes to the binding. Records must be of one field stored bare ({@code fieldcount=1}), since the thin
 * path stores and returns the value's bytes as they are. At the close of the last instance it prints, beside YCSB's
 * own lines, per operation ({@code READ}, {@code UPDATE}) and path ({@code BINDING}, {@code LIBRARY}), for example
 * {@code [PAIRED-READ-BINDING]}: {@code Operations}, {@code WholeTime(ns)}, {@code EngineTime(ns)} and
 * {@code EngineCalls} (sums over every operation; each timed engine call adds about one clock read to the own work),
 * then the own work per operation as the median ({@code OwnMedian(ns)}) and as the mean over the
 * operations whose own work stayed under {@value #PAUSE_NS} ns ({@code OwnMeanUnpaused(ns)},
 * {@code PausedOperations}). An operation whose own work took longer met a pause of the JVM (a collection of the
 * young generation takes milliseconds here, and lands in whichever operation allocated last), not the path's code;
 * counted in the sums, such pauses moved one path's mean by up to 60 ns per read in a round of 100,000 reads. Scans,
 * inserts and deletes are NOT_IMPLEMENTED.
 *
 * <p>This is the harness's pairing per operation; its pairing per round, of any number of paths, is
 * {@link Alternation}.
 *
 * <p>{@value #EXTRA}{@code =true} is the measurement's control: the binding's read path then also copies the value it
 * read once more (a {@code toArray()} of it, timed with the path), a known extra cost that what the binding adds must
 * show.
 */
public final class PairedOps extends ThinDB {

  /** The engine-timed binding whose handle both paths use. */
  public static final String BINDING = "paired.binding";
  /** true: the binding's read path copies each value it read once more, the control of the measurement. */
  public static final String EXTRA = "paired.extracopy";
  /** The line prefix of the figures on stdout. */
  public static final String PREFIX = "[PAIRED-";
  /** The operations, in the order of the first index of the counters. */
  static final String[] OPS = {"READ", "UPDATE"};
  /** The paths, in the order of the second index of the counters. */
  static final String[] PATHS = {"BINDING", "LIBRARY"};
  /** Own work per operation at or above this many ns is a pause's, not the path's: kept out of the unpaused mean. */
  static final int PAUSE_NS = 4096;
  private static final int READ = 0;
  private static final int UPDATE = 1;
  private static final int BINDING_PATH = 0;
  /** Sums per operation and path: operations, whole ns, engine ns, engine calls. */
  private static final int SUMS = 4;

  private static final Object LOCK = new Object();
  /** Instances made and not yet closed, and the step's sums; guarded by LOCK. */
  private static int open;
  private static final long[][][] STEP = new long[OPS.length][PATHS.length][SUMS];
  private static final long[][][] STEP_OWN = new long[OPS.length][PATHS.length][PAUSE_NS];

  private DB binding;
  private EngineCalls calls;
  private EngineTimed engine;
  private String field;
  /** Per operation and path: the sums, and the operations by their own work in ns. Made in init(), on the thread. */
  private long[][][] sums;
  private long[][][] own;
  private long coin;
  private boolean extraCopy;
  /** Whether the thin update reads before it writes, as the binding's does. */
  private boolean readFirst;
  /** Keeps the control's copies from being optimised away. */
  private long sink;

  @Override
  public void init() throws DBException {
    String cls = getProperties().getProperty(BINDING);
    if (cls == null) {
      throw new DBException(BINDING + " must name an engine-timed binding class");
    }
    // The thin path hands the stored bytes over as the one field's value: right only for the bare layout.
    if (!"1".equals(getProperties().getProperty("fieldcount"))
        || "fields".equals(getProperties().getProperty("recordlayout"))) {
      throw new DBException("paired operations need records of one field stored bare: fieldcount=1 and recordlayout"
          + " auto or bare (got fieldcount=" + getProperties().getProperty("fieldcount") + ", recordlayout="
          + getProperties().getProperty("recordlayout", "auto") + ")");
    }
    DB b;
    try {
      b = (DB) Class.forName(cls).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new DBException(BINDING + "=" + cls + " is not a DB class: " + e, e);
    }
    if (!(b instanceof EngineTimed timed)) {
      throw new DBException(BINDING + "=" + cls + " does not time its engine calls (no EngineTimed)");
    }
    b.setProperties(getProperties());
    engine = timed;
    calls = timed.engineCalls();
    field = getProperties().getProperty("fieldnameprefix", "field") + "0";
    sums = new long[OPS.length][PATHS.length][SUMS];
    own = new long[OPS.length][PATHS.length][PAUSE_NS];
    coin = System.nanoTime() | 1;
    extraCopy = Boolean.parseBoolean(getProperties().getProperty(EXTRA, "false"));
    synchronized (LOCK) {
      open++;
    }
    binding = b; // closed by cleanup() even when its init() fails
    b.init();
    readFirst = timed.readsBeforeUpdate();
  }

  @Override
  public void cleanup() throws DBException {
    if (binding == null) {
      return;
    }
    try {
      binding.cleanup();
    } finally {
      binding = null;
      if (sink == 42) {
        System.out.print(""); // the control's copies are used
      }
      synchronized (LOCK) {
        for (int o = 0; o < OPS.length; o++) {
          for (int p = 0; p < PATHS.length; p++) {
            for (int i = 0; i < SUMS; i++) {
              STEP[o][p][i] += sums[o][p][i];
            }
            for (int i = 0; i < PAUSE_NS; i++) {
              STEP_OWN[o][p][i] += own[o][p][i];
            }
          }
        }
        if (--open == 0) {
          printStep();
        }
      }
    }
  }

  /** The step's figures, per operation that ran; then the step's counters start again. Under LOCK. */
  private static void printStep() {
    for (int o = 0; o < OPS.length; o++) {
      for (int p = 0; p < PATHS.length; p++) {
        long[] step = STEP[o][p];
        if (step[0] > 0) {
          String at = PREFIX + OPS[o] + "-" + PATHS[p] + "], ";
          OwnWork w = OwnWork.of(STEP_OWN[o][p]);
          System.out.printf(Locale.ROOT, "%sOperations, %d%n%sWholeTime(ns), %d%n%sEngineTime(ns), %d%n"
              + "%sEngineCalls, %d%n%sOwnMedian(ns), %d%n%sOwnMeanUnpaused(ns), %.2f%n%sPausedOperations, %d%n", at,
              step[0], at, step[1], at, step[2], at, step[3], at, w.median(), at, w.mean(), at, step[0] - w.reads());
        }
        Arrays.fill(step, 0);
        Arrays.fill(STEP_OWN[o][p], 0);
      }
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    int path = toss();
    long callsBefore = engineCalls();
    long engineBefore = engineNanos();
    long t0 = System.nanoTime();
    Status s;
    if (path == BINDING_PATH) {
      s = binding.read(table, key, fields, result);
      if (extraCopy && s == Status.OK) {
        ByteIterator value = result.get(field);
        sink += value.toArray().length;
        value.reset(); // the copy consumed the value: YCSB still gets it whole
      }
    } else {
      s = thinRead(key, result);
    }
    count(READ, path, System.nanoTime() - t0, engineNanos() - engineBefore, engineCalls() - callsBefore);
    return s;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    int path = toss();
    long callsBefore = engineCalls();
    long engineBefore = engineNanos();
    long t0 = System.nanoTime();
    Status s = path == BINDING_PATH ? binding.update(table, key, values) : thinUpdate(key, values);
    count(UPDATE, path, System.nanoTime() - t0, engineNanos() - engineBefore, engineCalls() - callsBefore);
    return s;
  }

  /** xorshift64: a toss the JIT cannot predict, so that neither path always follows the other. */
  private int toss() {
    coin ^= coin << 13;
    coin ^= coin >>> 7;
    coin ^= coin << 17;
    return (int) (coin & 1);
  }

  /** The engine calls' time so far, of every kind: an update of the binding may read before it writes. */
  private long engineNanos() {
    return calls.nanosAll();
  }

  /** The engine calls so far, of every kind. */
  private long engineCalls() {
    return calls.countAll();
  }

  private void count(int op, int path, long whole, long engineNanos, long engineCalls) {
    long[] sum = sums[op][path];
    sum[0]++;
    sum[1] += whole;
    sum[2] += engineNanos;
    sum[3] += engineCalls;
    long ownNanos = whole - engineNanos;
    if (ownNanos < PAUSE_NS) {
      own[op][path][(int) ownNanos]++;
    }
  }

  /** {@link LibraryDB}'s read, on the binding's handle. */
  private Status thinRead(String key, Map<String, ByteIterator> result) {
    try {
      return found(engine.engineGet(Keys.UTF8.bytes(key)), field, result);
    } catch (Exception e) {
      return Status.ERROR;
    }
  }

  /**
   * The thinnest update on the binding's handle: the library's get when the binding reads before it updates, then
   * {@link LibraryDB}'s single put, the one field's value as the stored bytes.
   */
  private Status thinUpdate(String key, Map<String, ByteIterator> values) {
    try {
      byte[] k = Keys.UTF8.bytes(key);
      if (readFirst && engine.engineGet(k) == null) {
        return Status.NOT_FOUND;
      }
      engine.enginePut(k, values.values().iterator().next().toArray());
      return Status.OK;
    } catch (Exception e) {
      return Status.ERROR;
    }
  }

  /** The own work of the operations below {@link #PAUSE_NS}: how many, their median and their mean, in ns. */
  record OwnWork(long reads, long median, double mean) {
    /** From {@code counts[ns]}, the operations whose own work took ns nanoseconds. */
    static OwnWork of(long[] counts) {
      long reads = 0;
      long nanos = 0;
      for (int ns = 0; ns < counts.length; ns++) {
        reads += counts[ns];
        nanos += ns * counts[ns];
      }
      long seen = 0;
      long median = -1;
      for (int ns = 0; ns < counts.length && reads > 0; ns++) {
        seen += counts[ns];
        if (2 * seen >= reads) {
          median = ns;
          break;
        }
      }
      return new OwnWork(reads, median, reads == 0 ? Double.NaN : nanos / (double) reads);
    }
  }
}
