package site.ycsb.embedded.sqlite;

import java.sql.SQLException;

import site.ycsb.DBException;
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
  public byte[] engineGet(byte[] key) throws Exception {
    return get(handle(), key);
  }

  @Override
  protected byte[] get(Session s, byte[] key) throws SQLException {
    long t = System.nanoTime();
    byte[] v = super.get(s, key);
    calls.add(EngineCalls.GET, t);
    return v;
  }

  @Override
  protected void put(Session s, byte[] key, byte[] value) throws SQLException {
    long t = System.nanoTime();
    super.put(s, key, value);
    calls.add(EngineCalls.PUT, t);
  }

  @Override
  public void cleanup() throws DBException {
    try {
      super.cleanup();
    } finally {
      calls.close();
    }
  }
}
