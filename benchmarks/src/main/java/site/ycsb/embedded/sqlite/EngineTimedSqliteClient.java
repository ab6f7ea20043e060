package site.ycsb.embedded.sqlite;

import java.sql.SQLException;

import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.embedded.WriteGroup;
import site.ycsb.embedded.bench.EngineCalls;
import site.ycsb.embedded.bench.EngineTimed;

/**
 * The SQLite binding with its engine calls timed, for the benchmarks ({@link EngineCalls}): in the binding's
 * package, since {@link Session} is the package's own; part of the benchmarks module, not of the binding.
 */
public final class EngineTimedSqliteClient extends SqliteClient implements EngineTimed {
  private final EngineCalls calls = new EngineCalls();

  @Override
  public EngineCalls engineCalls() {
    return calls;
  }

  @Override
  protected byte[] get(Session s, byte[] key) throws SQLException {
    long t = System.nanoTime();
    byte[] v = super.get(s, key);
    calls.add(EngineCalls.GET, t);
    return v;
  }

  /** An update's lookup of a one-field record: the engine's get, timed as one. */
  @Override
  protected boolean contains(Session s, byte[] key) throws SQLException {
    long t = System.nanoTime();
    boolean found = super.contains(s, key);
    calls.add(EngineCalls.GET, t);
    return found;
  }

  @Override
  protected void put(Session s, byte[] key, byte[] value) throws SQLException {
    long t = System.nanoTime();
    super.put(s, key, value);
    calls.add(EngineCalls.PUT, t);
  }

  /**
   * A read-merge-write update runs in a transaction of its own ({@code BEGIN IMMEDIATE}, the get and the put,
   * {@code COMMIT}), opened and committed by the write group outside the get and the put: its time outside the
   * update's own calls is timed as the engine's {@link EngineCalls#TXN}, with the few lines of the group around the
   * two statements. The other writes run in SQLite's autocommit, inside the put, and pass through untimed here.
   */
  @Override
  protected WriteGroup writeGroup(Session mine, int batchSize) {
    WriteGroup group = super.writeGroup(mine, batchSize);
    if (batchSize > 1) {
      return group; // a batch's commit falls on one write of many: not a per-operation cost
    }
    return new WriteGroup() {
      private long inside;

      @Override
      public Status write(Kind kind, byte[] key, byte[] value, Write write) throws Exception {
        if (kind != Kind.UPDATE) {
          return group.write(kind, key, value, write);
        }
        long t0 = System.nanoTime();
        inside = 0;
        try {
          return group.write(kind, key, value, () -> {
            long t = System.nanoTime();
            try {
              return write.run();
            } finally {
              inside += System.nanoTime() - t;
            }
          });
        } finally {
          calls.addNanos(EngineCalls.TXN, System.nanoTime() - t0 - inside);
        }
      }

      @Override
      public void flush() throws Exception {
        group.flush();
      }
    };
  }

  @Override
  public void cleanup() throws DBException {
    calls.closeAfter(super::cleanup);
  }
}
