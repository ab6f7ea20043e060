package site.ycsb.embedded.bench;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.Vector;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.embedded.Keys;

/**
 * (d)-(d0) in ONE client JVM, on one engine handle, read by read: each point read YCSB's client asks for goes, by a
 * coin toss, either through the binding's own {@code read} (layer (d)) or through the thinnest read there is on the
 * same handle, {@link LibraryDB}'s (layer (d0): the key's UTF-8 bytes, the library's get, the value into the result
 * map). Both are timed around the read and around the engine call inside it ({@link EngineTimed}); the whole minus
 * the engine call is each path's own work, and the binding's own work minus the thin read's is what the binding
 * adds. Because the two paths alternate at random within one JVM, they share its JIT, its heap, the engine's caches
 * and whatever the previous read left in the CPU's caches: what differs between them is their code alone. Two
 * client JVMs, one per layer, differed by ±0.9 us per read from one pair to the next; two JVMs with the engine call
 * timed inside each, by ±30 ns (docs/performance.md, issue 21 item 6).
 *
 * <p>Properties: {@value #BINDING}, the engine-timed binding's class ({@link EngineCalls#timedClassOf}); every other
 * property goes to the binding. At the close of the last instance it prints, beside YCSB's own lines,
 * {@code [PAIRED-BINDING]} and {@code [PAIRED-LIBRARY]} with {@code Operations}, {@code WholeTime(ns)} and
 * {@code EngineTime(ns)} (sums over every read), then the own work per read as the median
 * ({@code OwnMedian(ns)}) and as the mean over the reads whose own work stayed under {@value #PAUSE_NS} ns
 * ({@code OwnMeanUnpaused(ns)}, {@code PausedOperations}). A read whose own work took longer met a pause of the
 * JVM (a collection of the young generation takes milliseconds here, and lands in whichever read allocated last),
 * not the path's code; counted in the sums, such pauses moved one path's mean by up to 60 ns per read in a round of
 * 100,000 reads. Only reads: any other operation is NOT_IMPLEMENTED.
 *
 * <p>{@value #EXTRA}{@code =true} is the measurement's control: the binding's path then also copies the value it
 * read once more (one {@code Arrays.copyOf} of it, timed with the path), a known extra cost that what the binding
 * adds must show.
 */
public final class PairedReads extends DB {

  /** The engine-timed binding whose handle both paths read. */
  public static final String BINDING = "paired.binding";
  /** true: the binding's path copies each value it read once more, the control of the measurement. */
  public static final String EXTRA = "paired.extracopy";
  /** The line prefix of the figures on stdout. */
  public static final String PREFIX = "[PAIRED-";
  static final String[] PATHS = {"BINDING", "LIBRARY"};
  /** Own work per read at or above this many ns is a pause's, not the path's: kept out of the unpaused mean. */
  static final int PAUSE_NS = 4096;
  private static final int BINDING_PATH = 0;
  private static final int LIBRARY_PATH = 1;

  private static final Object LOCK = new Object();
  /** Instances made and not yet closed, and the step's sums; guarded by LOCK. */
  private static int open;
  private static final long[][] STEP = new long[PATHS.length][3];
  private static final long[][] STEP_OWN = new long[PATHS.length][PAUSE_NS];

  private DB binding;
  private EngineCalls calls;
  private EngineTimed engine;
  private String field;
  /** Per path: reads, whole nanoseconds, engine nanoseconds. Made in init(), on the client thread. */
  private long[][] sums;
  /** Per path: reads by their own work in ns, below {@link #PAUSE_NS}. */
  private long[][] own;
  private long coin;
  private boolean extraCopy;
  /** Keeps the control's copies from being optimised away. */
  private long sink;

  @Override
  public void init() throws DBException {
    String cls = getProperties().getProperty(BINDING);
    if (cls == null) {
      throw new DBException(BINDING + " must name an engine-timed binding class");
    }
    // The thin read hands the stored bytes over as the one field's value: right only for the bare layout.
    if (!"1".equals(getProperties().getProperty("fieldcount"))
        || "fields".equals(getProperties().getProperty("recordlayout"))) {
      throw new DBException("paired reads need records of one field stored bare: fieldcount=1 and recordlayout"
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
    sums = new long[PATHS.length][3];
    own = new long[PATHS.length][PAUSE_NS];
    coin = System.nanoTime() | 1;
    extraCopy = Boolean.parseBoolean(getProperties().getProperty(EXTRA, "false"));
    synchronized (LOCK) {
      open++;
    }
    binding = b; // closed by cleanup() even when its init() fails
    b.init();
  }

  @Override
  public void cleanup() throws DBException {
    if (binding == null) {
      return;
    }
    try {
      binding.cleanup();
    } finally {
      if (sink == 42) {
        System.out.print(""); // the control's copies are used
      }
      binding = null;
      boolean last;
      synchronized (LOCK) {
        for (int p = 0; p < PATHS.length; p++) {
          for (int i = 0; i < 3; i++) {
            STEP[p][i] += sums[p][i];
          }
          for (int i = 0; i < PAUSE_NS; i++) {
            STEP_OWN[p][i] += own[p][i];
          }
        }
        last = --open == 0;
        if (last) {
          for (int p = 0; p < PATHS.length; p++) {
            String at = PREFIX + PATHS[p] + "], ";
            OwnWork w = OwnWork.of(STEP_OWN[p]);
            System.out.printf(Locale.ROOT, "%sOperations, %d%n%sWholeTime(ns), %d%n%sEngineTime(ns), %d%n"
                + "%sOwnMedian(ns), %d%n%sOwnMeanUnpaused(ns), %.2f%n%sPausedOperations, %d%n", at, STEP[p][0], at,
                STEP[p][1], at, STEP[p][2], at, w.median(), at, w.mean(), at, STEP[p][0] - w.reads());
            java.util.Arrays.fill(STEP[p], 0);
            java.util.Arrays.fill(STEP_OWN[p], 0);
          }
        }
      }
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    // xorshift64: a toss the JIT cannot predict, so that neither path always follows the other
    coin ^= coin << 13;
    coin ^= coin >>> 7;
    coin ^= coin << 17;
    int path = (int) (coin & 1);
    long engineBefore = calls.nanos(EngineCalls.GET);
    long t0 = System.nanoTime();
    Status s = path == BINDING_PATH ? binding.read(table, key, fields, result) : thinRead(key, result);
    if (extraCopy && path == BINDING_PATH && s == Status.OK) {
      sink += result.get(field).toArray().length;
    }
    long whole = System.nanoTime() - t0;
    long engineNanos = calls.nanos(EngineCalls.GET) - engineBefore;
    long[] sum = sums[path];
    sum[0]++;
    sum[1] += whole;
    sum[2] += engineNanos;
    long ownNanos = whole - engineNanos;
    if (ownNanos < PAUSE_NS) {
      own[path][(int) ownNanos]++;
    }
    return s;
  }

  /** The own work of the reads below {@link #PAUSE_NS}: how many, their median and their mean, in ns. */
  record OwnWork(long reads, long median, double mean) {
    /** From {@code counts[ns]}, the reads whose own work took ns nanoseconds. */
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

  /** {@link LibraryDB}'s read, on the binding's handle. */
  private Status thinRead(String key, Map<String, ByteIterator> result) {
    try {
      return LibraryDB.found(engine.engineGet(Keys.UTF8.bytes(key)), field, result);
    } catch (Exception e) {
      return Status.ERROR;
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return Status.NOT_IMPLEMENTED;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return Status.NOT_IMPLEMENTED;
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return Status.NOT_IMPLEMENTED;
  }

  @Override
  public Status delete(String table, String key) {
    return Status.NOT_IMPLEMENTED;
  }
}
