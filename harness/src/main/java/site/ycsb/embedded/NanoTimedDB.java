package site.ycsb.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The DB named by {@code nanotimed.db} (a binding, or a benchmark's do-nothing DB), with every operation
 * timed in nanoseconds, and its open ({@code init()}) and close ({@code cleanup()}) timed apart: the
 * clock db_bench keeps, which starts after the open and stops before the close.
 *
 * <p>YCSB 0.17's {@code DBWrapper} records each operation as whole microseconds ({@code (int) ((end -
 * start) / 1000)}), so its {@code AverageLatency(us)} reads low by each operation's fraction of a
 * microsecond (0.28-0.42 us per 100-byte operation measured), and its throughput counts the open, the
 * close (a flush) and the client's work between operations. This class times the same call that
 * {@code DBWrapper} times, from inside it: two {@code System.nanoTime()} calls and two adds per operation
 * on this instance's own counters (YCSB makes one instance per client thread), merged under a lock
 * only as each instance closes. Every call and its arguments go to the wrapped DB as they are.
 *
 * <p>When the last instance of the JVM closes, the step's figures go to the file named by
 * {@code nanotimed.file} as one JSON object ({@code instances}, {@code open_ns}, {@code close_ns},
 * {@code window_ns}, and per operation its {@code count} and summed {@code ns}); without that property
 * they are printed as {@code [NANOTIMED-INSERT], Operations, n} and {@code [NANOTIMED-INSERT],
 * TotalTime(ns), t} lines beside YCSB's own. {@link CheckedClient} puts this class around the binding
 * when {@code -p nanotimed.file=...} is given on the command line.
 */
public final class NanoTimedDB extends DB {

  /** The property naming the DB class that this one wraps. */
  public static final String WRAPPED = "nanotimed.db";
  /** The property naming the file the figures go to (JSON); none: lines on stdout. */
  public static final String FILE = "nanotimed.file";
  /** The line prefix of this class's figures on stdout. */
  public static final String PREFIX = "[NANOTIMED-";

  static final String[] OPS = {"READ", "SCAN", "UPDATE", "INSERT", "DELETE"};
  private static final int READ = 0;
  private static final int SCAN = 1;
  private static final int UPDATE = 2;
  private static final int INSERT = 3;
  private static final int DELETE = 4;

  private static final Object LOCK = new Object();
  /**
   * Per file the figures go to ("" for stdout), the instances opened and not yet closed and the figures of those
   * closed so far in this step; guarded by LOCK. Apart per file: a warm-up's scratch instances (files of their own)
   * may open and close while the measured step's are open, and must not count in its figures.
   */
  private static final Map<String, int[]> OPEN = new HashMap<>();
  private static final Map<String, StepTimes> STEPS = new HashMap<>();

  private DB db;
  // This instance's (one client thread's) own counters: no sharing, no lock, no allocation per operation.
  // Made in init(), on the client thread, so that they sit in its own allocation buffer, not on a cache line
  // beside another thread's (YCSB constructs every thread's DB on the main thread).
  private long[] nanos;
  private long[] counts;
  private long initStart;
  private long initEnd;

  /** One step's figures: the instances' counters added up, the open and close as wall-clock spans. */
  static final class StepTimes {
    final long[] nanos = new long[OPS.length];
    final long[] counts = new long[OPS.length];
    int instances;
    long firstInitStart = Long.MAX_VALUE;
    long lastInitEnd = Long.MIN_VALUE;
    long firstCleanupStart = Long.MAX_VALUE;
    long lastCleanupEnd = Long.MIN_VALUE;
    /** Summed over the instances: from after the open to before the close. */
    long window;

    void add(long[] n, long[] c, long initStart, long initEnd, long cleanupStart, long cleanupEnd) {
      for (int i = 0; i < OPS.length; i++) {
        nanos[i] += n[i];
        counts[i] += c[i];
      }
      instances++;
      firstInitStart = Math.min(firstInitStart, initStart);
      lastInitEnd = Math.max(lastInitEnd, initEnd);
      firstCleanupStart = Math.min(firstCleanupStart, cleanupStart);
      lastCleanupEnd = Math.max(lastCleanupEnd, cleanupEnd);
      window += cleanupStart - initEnd;
    }

    /** From the first instance's init() to the last one's return: the step's open. */
    long openNanos() {
      return lastInitEnd - firstInitStart;
    }

    /** From the first instance's cleanup() to the last one's return: the step's close. */
    long closeNanos() {
      return lastCleanupEnd - firstCleanupStart;
    }

    String toJson() {
      StringBuilder ops = new StringBuilder();
      for (int i = 0; i < OPS.length; i++) {
        if (counts[i] > 0) {
          ops.append(ops.length() == 0 ? "" : ", ").append('"').append(OPS[i]).append("\": {\"count\": ")
              .append(counts[i]).append(", \"ns\": ").append(nanos[i]).append('}');
        }
      }
      return "{\"instances\": " + instances + ", \"open_ns\": " + openNanos() + ", \"close_ns\": " + closeNanos()
          + ", \"window_ns\": " + window + ", \"operations\": {" + ops + "}}\n";
    }
  }

  @Override
  public void init() throws DBException {
    long start = System.nanoTime();
    ClientExitStatus.databaseStarting(); // YCSB got past the workload, whichever DB this one wraps (a peer's)
    String name = getProperties().getProperty(WRAPPED);
    if (name == null) {
      throw new DBException(WRAPPED + " must name the DB class to time");
    }
    String file = getProperties().getProperty(FILE);
    if (file != null) {
      Path parent = Path.of(file).toAbsolutePath().getParent();
      if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
        throw ClientExitStatus.refused(new DBException(FILE + "=" + file
            + ": its directory must exist and be writable, to hold the step's operation times"));
      }
    }
    DB wrapped;
    try {
      wrapped = (DB) Class.forName(name).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new DBException(WRAPPED + "=" + name + " is not a DB class with a no-argument constructor", e);
    }
    wrapped.setProperties(getProperties());
    wrapped.init(); // a refusal propagates: this instance stays closed, with nothing to report
    nanos = new long[OPS.length];
    counts = new long[OPS.length];
    initStart = start;
    initEnd = System.nanoTime();
    db = wrapped;
    synchronized (LOCK) {
      OPEN.computeIfAbsent(fileKey(), k -> new int[1])[0]++;
    }
  }

  @Override
  public void cleanup() throws DBException {
    DB wrapped = db;
    if (wrapped == null) {
      return; // init() failed before the wrapped DB was opened, or this instance closed already
    }
    db = null;
    long start = System.nanoTime();
    try {
      wrapped.cleanup();
    } finally {
      long end = System.nanoTime();
      StepTimes done = null;
      String key = fileKey();
      synchronized (LOCK) {
        STEPS.computeIfAbsent(key, k -> new StepTimes()).add(nanos, counts, initStart, initEnd, start, end);
        if (--OPEN.get(key)[0] == 0) {
          OPEN.remove(key);
          done = STEPS.remove(key);
        }
      }
      if (done != null) {
        report(done, getProperties().getProperty(FILE));
      }
    }
  }

  private String fileKey() {
    String file = getProperties().getProperty(FILE);
    return file == null ? "" : file;
  }

  private static void report(StepTimes done, String file) {
    if (file == null) {
      for (int i = 0; i < OPS.length; i++) {
        if (done.counts[i] > 0) {
          System.out.println(PREFIX + OPS[i] + "], Operations, " + done.counts[i]);
          System.out.println(PREFIX + OPS[i] + "], TotalTime(ns), " + done.nanos[i]);
        }
      }
      return;
    }
    Path target = Path.of(file);
    Path partial = target.resolveSibling(target.getFileName() + ".partial");
    try {
      Files.writeString(partial, done.toJson(), StandardCharsets.UTF_8);
      Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      // The step's own results stand; only the in-operation figure is lost, which the report shows as such.
      System.err.println("[ycsb-embedded] " + FILE + "=" + file + ": not written: " + e);
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    long t = System.nanoTime();
    Status s = db.read(table, key, fields, result);
    nanos[READ] += System.nanoTime() - t;
    counts[READ]++;
    return s;
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    long t = System.nanoTime();
    Status s = db.scan(table, startkey, recordcount, fields, result);
    nanos[SCAN] += System.nanoTime() - t;
    counts[SCAN]++;
    return s;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    long t = System.nanoTime();
    Status s = db.update(table, key, values);
    nanos[UPDATE] += System.nanoTime() - t;
    counts[UPDATE]++;
    return s;
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    long t = System.nanoTime();
    Status s = db.insert(table, key, values);
    nanos[INSERT] += System.nanoTime() - t;
    counts[INSERT]++;
    return s;
  }

  @Override
  public Status delete(String table, String key) {
    long t = System.nanoTime();
    Status s = db.delete(table, key);
    nanos[DELETE] += System.nanoTime() - t;
    counts[DELETE]++;
    return s;
  }
}
