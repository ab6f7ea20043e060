package site.ycsb.embedded.bench;

import site.ycsb.DBException;
import site.ycsb.embedded.kyoto.KyotoClient;
import site.ycsb.embedded.kyoto.KyotoHandle;
import site.ycsb.embedded.leveldb.LevelDbClient;
import site.ycsb.embedded.leveldb.LevelDbHandle;
import site.ycsb.embedded.lmdb.LmdbClient;
import site.ycsb.embedded.lmdb.LmdbHandle;
import site.ycsb.embedded.rocksdb.RocksDbClient;
import site.ycsb.embedded.rocksdb.RocksDbHandle;

/**
 * The bindings with their engine calls timed ({@link EngineCalls}), the one timing wrapper of the engine calls: each
 * overrides its binding's {@code get}, {@code put} and {@code contains} (an update's lookup) only, around the
 * binding's own, and closes its counters with the binding. Java wants one subclass per binding for that; what they
 * share is in {@link EngineTimed}. SQLite's is {@code site.ycsb.embedded.sqlite.EngineTimedSqliteClient}, in the
 * binding's package, since its session type is the package's own.
 */
final class TimedBindings {

  private TimedBindings() {
  }

  /** LevelDB on either library ({@code leveldb.library}). */
  public static final class LevelDb extends LevelDbClient implements EngineTimed {
    private final EngineCalls calls = new EngineCalls();

    @Override
    public EngineCalls engineCalls() {
      return calls;
    }

    @Override
    protected byte[] get(LevelDbHandle h, byte[] key) throws java.io.IOException {
      long t = System.nanoTime();
      byte[] v = super.get(h, key);
      calls.add(EngineCalls.GET, t);
      return v;
    }

    /** An update's lookup of a one-field record: the engine's get, timed as one. */
    @Override
    protected boolean contains(LevelDbHandle h, byte[] key) throws java.io.IOException {
      long t = System.nanoTime();
      boolean found = super.contains(h, key);
      calls.add(EngineCalls.GET, t);
      return found;
    }

    @Override
    protected void put(LevelDbHandle h, byte[] key, byte[] value) throws java.io.IOException {
      long t = System.nanoTime();
      super.put(h, key, value);
      calls.add(EngineCalls.PUT, t);
    }

    @Override
    public void cleanup() throws DBException {
      calls.closeAfter(super::cleanup);
    }
  }

  /** RocksDB through rocksdbjni. */
  public static final class RocksDb extends RocksDbClient implements EngineTimed {
    private final EngineCalls calls = new EngineCalls();

    @Override
    public EngineCalls engineCalls() {
      return calls;
    }

    @Override
    protected byte[] get(RocksDbHandle h, byte[] key) throws org.rocksdb.RocksDBException {
      long t = System.nanoTime();
      byte[] v = super.get(h, key);
      calls.add(EngineCalls.GET, t);
      return v;
    }

    @Override
    protected void put(RocksDbHandle h, byte[] key, byte[] value) throws org.rocksdb.RocksDBException {
      long t = System.nanoTime();
      super.put(h, key, value);
      calls.add(EngineCalls.PUT, t);
    }

    @Override
    public void cleanup() throws DBException {
      calls.closeAfter(super::cleanup);
    }
  }

  /** Kyoto Cabinet TreeDB through the project's JNI. */
  public static final class Kyoto extends KyotoClient implements EngineTimed {
    private final EngineCalls calls = new EngineCalls();

    @Override
    public EngineCalls engineCalls() {
      return calls;
    }

    @Override
    protected byte[] get(KyotoHandle h, byte[] key) throws site.ycsb.embedded.kyoto.KyotoException {
      long t = System.nanoTime();
      byte[] v = super.get(h, key);
      calls.add(EngineCalls.GET, t);
      return v;
    }

    @Override
    protected void put(KyotoHandle h, byte[] key, byte[] value) throws site.ycsb.embedded.kyoto.KyotoException {
      long t = System.nanoTime();
      super.put(h, key, value);
      calls.add(EngineCalls.PUT, t);
    }

    @Override
    public void cleanup() throws DBException {
      calls.closeAfter(super::cleanup);
    }
  }

  /** LMDB through lmdbjava. */
  public static final class Lmdb extends LmdbClient implements EngineTimed {
    private final EngineCalls calls = new EngineCalls();

    @Override
    public EngineCalls engineCalls() {
      return calls;
    }

    @Override
    protected byte[] get(LmdbHandle h, byte[] key) {
      long t = System.nanoTime();
      byte[] v = super.get(h, key);
      calls.add(EngineCalls.GET, t);
      return v;
    }

    /** An update's lookup of a one-field record: the engine's get, timed as one. */
    @Override
    protected boolean contains(LmdbHandle h, byte[] key) {
      long t = System.nanoTime();
      boolean found = super.contains(h, key);
      calls.add(EngineCalls.GET, t);
      return found;
    }

    @Override
    protected void put(LmdbHandle h, byte[] key, byte[] value) throws java.io.IOException {
      long t = System.nanoTime();
      super.put(h, key, value);
      calls.add(EngineCalls.PUT, t);
    }

    @Override
    public void cleanup() throws DBException {
      calls.closeAfter(super::cleanup);
    }
  }
}
