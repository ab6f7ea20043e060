package site.ycsb.embedded.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * Layers (d) and (e) of the layered benchmark: the DB named by {@code nanotimed.db} (a binding, or
 * {@link NothingDB}), with every call timed in nanoseconds. YCSB 0.17's {@code DBWrapper} records
 * each operation as whole microseconds ({@code (int) ((end - start) / 1000)}), so its
 * {@code AverageLatency(us)} reads low by each operation's fraction of a microsecond (0.28-0.42 us
 * per 100-byte operation measured): too coarse to compare with a C loop's 2 us puts. This class times the same call
 * that {@code DBWrapper} times, from inside it, and at the last instance's cleanup prints, per
 * operation, {@code [NANOTIMED-INSERT], Operations, n} and {@code [NANOTIMED-INSERT], TotalTime(ns), t}
 * beside YCSB's own figures. Apart from two {@code System.nanoTime()} calls per operation, it adds
 * nothing: every call and its arguments go to the wrapped DB as they are.
 */
public final class NanoTimedDB extends DB {

  /** The property naming the DB class that this one wraps. */
  public static final String WRAPPED = "nanotimed.db";
  /** The line prefix of this class's figures. */
  public static final String PREFIX = "[NANOTIMED-";

  private static final String[] OPS = {"READ", "SCAN", "UPDATE", "INSERT", "DELETE"};
  private static final LongAdder[] NANOS = adders();
  private static final LongAdder[] COUNTS = adders();
  private static final AtomicInteger OPEN = new AtomicInteger();

  private DB db;

  private static LongAdder[] adders() {
    LongAdder[] a = new LongAdder[OPS.length];
    for (int i = 0; i < a.length; i++) {
      a[i] = new LongAdder();
    }
    return a;
  }

  @Override
  public void init() throws DBException {
    String name = getProperties().getProperty(WRAPPED);
    if (name == null) {
      throw new DBException(WRAPPED + " must name the DB class to time");
    }
    try {
      db = (DB) Class.forName(name).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new DBException(WRAPPED + "=" + name + " is not a DB class with a no-argument constructor", e);
    }
    db.setProperties(getProperties());
    try {
      db.init();
    } catch (DBException | RuntimeException e) {
      db = null;
      throw e;
    }
    OPEN.incrementAndGet();
  }

  @Override
  public void cleanup() throws DBException {
    if (db == null) {
      return; // init() failed before the wrapped DB was opened: nothing to close or report
    }
    try {
      db.cleanup();
    } finally {
      if (OPEN.decrementAndGet() == 0) {
        for (int i = 0; i < OPS.length; i++) {
          long n = COUNTS[i].sumThenReset();
          long nanos = NANOS[i].sumThenReset();
          if (n > 0) {
            System.out.println(PREFIX + OPS[i] + "], Operations, " + n);
            System.out.println(PREFIX + OPS[i] + "], TotalTime(ns), " + nanos);
          }
        }
      }
    }
  }

  private static Status timed(int op, long start, Status s) {
    NANOS[op].add(System.nanoTime() - start);
    COUNTS[op].increment();
    return s;
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    long t = System.nanoTime();
    return timed(0, t, db.read(table, key, fields, result));
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    long t = System.nanoTime();
    return timed(1, t, db.scan(table, startkey, recordcount, fields, result));
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    long t = System.nanoTime();
    return timed(2, t, db.update(table, key, values));
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    long t = System.nanoTime();
    return timed(3, t, db.insert(table, key, values));
  }

  @Override
  public Status delete(String table, String key) {
    long t = System.nanoTime();
    return timed(4, t, db.delete(table, key));
  }
}
