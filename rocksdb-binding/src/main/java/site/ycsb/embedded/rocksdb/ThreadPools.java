package site.ycsb.embedded.rocksdb;

import java.io.IOException;

import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.Priority;

/** RocksDB's background thread pools, which belong to the process (the default Env), not to one database. */
final class ThreadPools {

  private ThreadPools() {
  }

  /**
   * Sizes the process's background thread pools the way RocksDB derives its job limits, and
   * empties the flush (HIGH) pool when max_background_flushes is 0. RocksDB itself grows the
   * HIGH pool to at least one thread at every open and runs flushes in the compaction (LOW)
   * pool only while the HIGH pool has no thread, so 0 alone would not make flushes share.
   *
   * @return a description of the pools, for the start-up header
   */
  @SuppressWarnings("deprecation")
  static String size(DBOptions o) throws IOException {
    int flushes = o.maxBackgroundFlushes();
    int compactions = o.maxBackgroundCompactions();
    int maxFlushes;
    int maxCompactions;
    if (flushes == -1 && compactions == -1) {
      maxFlushes = Math.max(1, o.maxBackgroundJobs() / 4);
      maxCompactions = Math.max(1, o.maxBackgroundJobs() - maxFlushes);
    } else {
      maxFlushes = Math.max(1, flushes);
      maxCompactions = Math.max(1, compactions);
    }
    Env env = Env.getDefault();
    env.setBackgroundThreads(maxCompactions, Priority.LOW);
    if (flushes != 0) {
      env.setBackgroundThreads(maxFlushes, Priority.HIGH);
      return "flushes in the HIGH pool (" + maxFlushes + "), compactions in the LOW pool (" + maxCompactions + ")";
    }
    env.setBackgroundThreads(0, Priority.HIGH);
    // A flush queued in the HIGH pool since the open would never run there now: let it drain.
    for (int tries = 0; env.getThreadPoolQueueLen(Priority.HIGH) > 0; tries++) {
      if (tries == 1000) {
        throw new IOException("flushes queued in RocksDB's HIGH pool did not drain; cannot move them to the LOW pool");
      }
      env.setBackgroundThreads(1, Priority.HIGH);
      sleep(5);
      env.setBackgroundThreads(0, Priority.HIGH);
    }
    return "flushes and compactions share the LOW pool (" + maxCompactions
        + (maxCompactions == 1 ? " thread" : " threads")
        + "), HIGH pool empty";
  }

  private static void sleep(long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while sizing RocksDB's thread pools", e);
    }
  }
}
