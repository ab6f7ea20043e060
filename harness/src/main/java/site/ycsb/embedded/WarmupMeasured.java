package site.ycsb.embedded;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicLong;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.Workload;
import site.ycsb.measurements.Measurements;

/**
 * The calls YCSB's {@code DBWrapper} makes around each operation (the intended start, two clock reads, a
 * latency and an intended latency into the measurements, the status count), into a Measurements of the
 * warm-up's own: so that the measurement classes the measured phase calls are compiled, while its own
 * figures (YCSB's singleton) stay empty. Counts the operations that returned ERROR.
 *
 * <p>The workload calls the DB it is handed; in the measured phase that is YCSB's {@code DBWrapper}, a class
 * the warm-up cannot hand it. Had the warm-up handed one class, the JIT would have compiled the workload's
 * calls for that class alone, and the measured phase's first call would throw that code away (the
 * workload's {@code doTransaction} and {@code doTransactionRead} "made not entrant" as the clock starts,
 * recompiled inside it). The warm-up hands three classes of {@link #view} in turn, so that the compiled
 * workload makes a virtual call that takes any class, DBWrapper too.
 */
class WarmupMeasured extends DB {

  private final DB db;
  private final Measurements m;
  private final AtomicLong errors;
  /** Stopped at the first ERROR: no warm-up goes on against a failing engine (a full disk). */
  private final Workload workload;

  WarmupMeasured(DB db, Measurements m, AtomicLong errors, Workload workload) {
    this.db = db;
    this.m = m;
    this.errors = errors;
    this.workload = workload;
  }

  /** How many classes of view there are ({@link #view}). */
  static final int VIEWS = 3;

  /** View {@code which} (0 to {@value #VIEWS} - 1) of {@code db}, each number of its own class. */
  static DB view(int which, DB db, Measurements m, AtomicLong errors, Workload workload) {
    return switch (which) {
      case 0 -> new WarmupMeasured(db, m, errors, workload);
      case 1 -> new Second(db, m, errors, workload);
      default -> new Third(db, m, errors, workload);
    };
  }

  /** A second class of view (see {@link #view}). */
  private static final class Second extends WarmupMeasured {
    Second(DB db, Measurements m, AtomicLong errors, Workload workload) {
      super(db, m, errors, workload);
    }
  }

  /** A third class of view (see {@link #view}). */
  private static final class Third extends WarmupMeasured {
    Third(DB db, Measurements m, AtomicLong errors, Workload workload) {
      super(db, m, errors, workload);
    }
  }

  /** Nothing: the warm-up opens the DB once for every round of views ({@code WarmupPasses.pass}). */
  @Override
  public void init() {
  }

  /** Nothing: the warm-up closes the DB after its last round. */
  @Override
  public void cleanup() {
  }

  private Status measured(String op, long intended, long start, Status s) {
    long end = System.nanoTime();
    String name = s != null && s.isOk() ? op : op + "-FAILED";
    m.measure(name, (int) ((end - start) / 1000));
    m.measureIntended(name, (int) ((end - intended) / 1000));
    m.reportStatus(op, s);
    if (s == Status.ERROR) {
      errors.incrementAndGet();
      workload.requestStop();
    }
    return s;
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    long ist = m.getIntendedtartTimeNs();
    long st = System.nanoTime();
    return measured("READ", ist, st, db.read(table, key, fields, result));
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    long ist = m.getIntendedtartTimeNs();
    long st = System.nanoTime();
    return measured("SCAN", ist, st, db.scan(table, startkey, recordcount, fields, result));
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    long ist = m.getIntendedtartTimeNs();
    long st = System.nanoTime();
    return measured("UPDATE", ist, st, db.update(table, key, values));
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    long ist = m.getIntendedtartTimeNs();
    long st = System.nanoTime();
    return measured("INSERT", ist, st, db.insert(table, key, values));
  }

  @Override
  public Status delete(String table, String key) {
    long ist = m.getIntendedtartTimeNs();
    long st = System.nanoTime();
    return measured("DELETE", ist, st, db.delete(table, key));
  }
}
