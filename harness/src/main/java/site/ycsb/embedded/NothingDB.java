package site.ycsb.embedded;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * A DB that does nothing (every call OK, reads and scans hand back nothing), so that YCSB's client, the
 * workload class and the measurements are all that is timed: the benchmarks' layer (e) and client cost,
 * and the tests of the timing layer ({@link NanoTimedDB}) around it. The benchmarks' thin DBs start from it
 * with every operation refused ({@link #nothing()} NOT_IMPLEMENTED) and make the ones they time.
 */
public class NothingDB extends DB {

  /** What every operation this class makes returns: OK here. */
  protected Status nothing() {
    return Status.OK;
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    return nothing();
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return nothing();
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return nothing();
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return nothing();
  }

  @Override
  public Status delete(String table, String key) {
    return nothing();
  }
}
