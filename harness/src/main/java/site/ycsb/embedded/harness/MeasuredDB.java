package site.ycsb.embedded.harness;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicLong;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.Workload;
import site.ycsb.measurements.Measurements;

/**
 * What YCSB 0.17's {@code DBWrapper} does around each call of the binding, into a {@link Measurements} of the
 * step's own instead of YCSB's singleton: the intended start, two clock reads, the latency and the intended latency
 * under the operation's name ({@code READ}, or {@code READ-FAILED}, or {@code READ-<status>} with
 * {@code reportlatencyforeacherror} / {@code latencytrackederrors}), and the status count. Its {@code init} prints
 * DBWrapper's line and its {@code cleanup} measures {@code CLEANUP}, as DBWrapper does. It also counts the
 * operations that returned ERROR, for the step's exit status.
 */
final class MeasuredDB extends DB {

  private final DB db;
  private final Measurements measurements;
  private final AtomicLong errors;
  /** The warm-up's: its DB is already open, init and cleanup leave it so, and an ERROR stops this workload. */
  private final Workload warmup;
  private boolean reportLatencyForEachError;
  private Set<String> latencyTrackedErrors = new HashSet<>();

  MeasuredDB(DB db, Measurements measurements, AtomicLong errors) {
    this(db, measurements, errors, null);
  }

  private MeasuredDB(DB db, Measurements measurements, AtomicLong errors, Workload warmup) {
    this.db = db;
    this.measurements = measurements;
    this.errors = errors;
    this.warmup = warmup;
  }

  /**
   * The same class around a warm-up's scratch DB ({@code Warmup.Wrapper}): the workload's calls are compiled for the
   * class the measured step hands it, so the JIT throws nothing away when the clock starts.
   */
  static MeasuredDB forWarmup(DB db, Measurements measurements, AtomicLong errors, Workload workload) {
    return new MeasuredDB(db, measurements, errors, workload);
  }

  @Override
  public void setProperties(Properties p) {
    db.setProperties(p);
  }

  @Override
  public Properties getProperties() {
    return db.getProperties();
  }

  @Override
  public void init() throws DBException {
    if (warmup != null) {
      return;
    }
    db.init();
    reportLatencyForEachError = Boolean.parseBoolean(getProperties().getProperty("reportlatencyforeacherror",
        "false"));
    if (!reportLatencyForEachError) {
      String tracked = getProperties().getProperty("latencytrackederrors", null);
      if (tracked != null) {
        latencyTrackedErrors = new HashSet<>(Arrays.asList(tracked.split(",")));
      }
    }
    System.err.println("DBWrapper: report latency for each error is " + reportLatencyForEachError
        + " and specific error codes to track for latency are: " + latencyTrackedErrors);
  }

  @Override
  public void cleanup() throws DBException {
    if (warmup != null) {
      return;
    }
    long ist = measurements.getIntendedtartTimeNs();
    long st = System.nanoTime();
    db.cleanup();
    long en = System.nanoTime();
    measure("CLEANUP", Status.OK, ist, st, en);
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    long ist = measurements.getIntendedtartTimeNs();
    long st = System.nanoTime();
    Status res = db.read(table, key, fields, result);
    long en = System.nanoTime();
    return measured("READ", res, ist, st, en);
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    long ist = measurements.getIntendedtartTimeNs();
    long st = System.nanoTime();
    Status res = db.scan(table, startkey, recordcount, fields, result);
    long en = System.nanoTime();
    return measured("SCAN", res, ist, st, en);
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    long ist = measurements.getIntendedtartTimeNs();
    long st = System.nanoTime();
    Status res = db.update(table, key, values);
    long en = System.nanoTime();
    return measured("UPDATE", res, ist, st, en);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    long ist = measurements.getIntendedtartTimeNs();
    long st = System.nanoTime();
    Status res = db.insert(table, key, values);
    long en = System.nanoTime();
    return measured("INSERT", res, ist, st, en);
  }

  @Override
  public Status delete(String table, String key) {
    long ist = measurements.getIntendedtartTimeNs();
    long st = System.nanoTime();
    Status res = db.delete(table, key);
    long en = System.nanoTime();
    return measured("DELETE", res, ist, st, en);
  }

  private Status measured(String op, Status res, long ist, long st, long en) {
    measure(op, res, ist, st, en);
    measurements.reportStatus(op, res);
    if (res == Status.ERROR) {
      errors.incrementAndGet();
      if (warmup != null) {
        warmup.requestStop();
      }
    }
    return res;
  }

  private void measure(String op, Status result, long intended, long start, long end) {
    String name = op;
    if (result == null || !result.isOk()) {
      if (reportLatencyForEachError || (result != null && latencyTrackedErrors.contains(result.getName()))) {
        name = op + "-" + (result == null ? "null" : result.getName());
      } else {
        name = op + "-FAILED";
      }
    }
    measurements.measure(name, (int) ((end - start) / 1000));
    measurements.measureIntended(name, (int) ((end - intended) / 1000));
  }
}
