package site.ycsb.embedded.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;

import org.rocksdb.RocksDB;

import site.ycsb.DB;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.kyoto.KyotoClient;
import site.ycsb.embedded.kyoto.KyotoJni;
import site.ycsb.embedded.kyoto.KyotoOptions;
import site.ycsb.embedded.leveldb.LevelDbClient;
import site.ycsb.embedded.leveldb.LevelDbHandle;
import site.ycsb.embedded.leveldb.LevelDbOptions;
import site.ycsb.embedded.lmdb.LmdbClient;
import site.ycsb.embedded.lmdb.LmdbHandle;
import site.ycsb.embedded.rocksdb.RocksDbClient;
import site.ycsb.embedded.rocksdb.RocksDbOptions;
import site.ycsb.embedded.sqlite.SqliteClient;
import site.ycsb.embedded.sqlite.SqliteOptions;

/**
 * The one per-engine switch of the benchmarks: for each engine its binding (layers (c) and (d), the
 * side-by-side benchmark's binding side) and its Java library opened directly with the values the
 * binding's own Options read from the same properties (layer (b), the side-by-side benchmark's direct
 * side), so that a setting means the same on both sides.
 */
final class Engines {

  private Engines() {
  }

  static BindingOverhead.Engine named(String name) {
    switch (name) {
      case "leveldb": return LEVELDB;
      case "rocksdb": return ROCKSDB;
      case "sqlite": return SQLITE;
      case "kyoto": return KYOTO;
      case "lmdb": return LMDB;
      default:
        throw new IllegalArgumentException("unknown engine " + name + "; known: leveldb, rocksdb, sqlite, kyoto, lmdb");
    }
  }

  /** leveldbjni, or the system library with leveldb.library=system: the binding's LevelDbHandle. */
  static final BindingOverhead.Engine LEVELDB = new BindingOverhead.Engine() {
    @Override
    public String name() {
      return "leveldb";
    }

    @Override
    public LayerDirect openDirect(Path dir, Properties raw) throws Exception {
      EngineProperties p = new EngineProperties(raw, name());
      return LevelDbDirect.open(dir, p);
    }

    @Override
    public String libraryVersion(Properties raw) throws Exception {
      return LevelDbHandle.libraryVersion(LevelDbOptions.read(new EngineProperties(raw, name())));
    }

    @Override
    public DB newClient() {
      return new LevelDbClient();
    }
  };

  /** rocksdbjni: the binding's RocksDbHandle, opened with RocksDbOptions (no statistics on either side by default). */
  static final BindingOverhead.Engine ROCKSDB = new BindingOverhead.Engine() {
    @Override
    public String name() {
      return "rocksdb";
    }

    @Override
    public LayerDirect openDirect(Path dir, Properties raw) throws Exception {
      EngineProperties p = new EngineProperties(raw, name());
      return RocksDirect.open(dir, new RocksDbOptions(p, raw));
    }

    @Override
    public String libraryVersion(Properties raw) {
      return "RocksDB " + RocksDB.rocksdbVersion() + " (rocksdbjni)";
    }

    @Override
    public DB newClient() {
      return new RocksDbClient();
    }

    @Override
    public void configure(Properties p) {
      p.setProperty("rocksdb.stats", "false"); // neither side collects statistics (both read this)
    }
  };

  /** sqlite-jdbc with the binding's kv table and statements and the pragmas SqliteOptions reads. */
  static final BindingOverhead.Engine SQLITE = new BindingOverhead.Engine() {
    @Override
    public String name() {
      return "sqlite";
    }

    @Override
    public LayerDirect openDirect(Path dir, Properties raw) throws Exception {
      EngineProperties p = new EngineProperties(raw, name());
      return SqliteDirect.open(SqliteOptions.readKv(p, raw, dir));
    }

    @Override
    public String libraryVersion(Properties raw) throws Exception {
      try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
          Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT sqlite_version()")) {
        rs.next();
        return "SQLite " + rs.getString(1) + " (sqlite-jdbc)";
      }
    }

    @Override
    public DB newClient() {
      return new SqliteClient();
    }
  };

  /**
   * The Kyoto JNI layer itself: the binding's KyotoHandle, opened with KyotoOptions (tuning string and
   * open mode); the side-by-side benchmark opens both sides without auto-transaction (the binding's
   * default adds one per write: a mode, not a cost).
   */
  static final BindingOverhead.Engine KYOTO = new BindingOverhead.Engine() {
    @Override
    public String name() {
      return "kyoto";
    }

    @Override
    public void configure(Properties p) {
      p.setProperty(KyotoOptions.AUTOTRAN, "false");
    }

    @Override
    public LayerDirect openDirect(Path dir, Properties raw) throws Exception {
      EngineProperties p = new EngineProperties(raw, name());
      return KyotoDirect.open(KyotoOptions.read(p, dir));
    }

    @Override
    public String libraryVersion(Properties raw) throws Exception {
      return "Kyoto Cabinet " + KyotoJni.libraryVersion() + " (system library, project JNI)";
    }

    @Override
    public DB newClient() {
      return new KyotoClient();
    }
  };

  /** lmdbjava through the binding's LmdbHandle, opened with the options LmdbOptions reads from the same properties. */
  static final BindingOverhead.Engine LMDB = new BindingOverhead.Engine() {
    @Override
    public String name() {
      return "lmdb";
    }

    @Override
    public LayerDirect openDirect(Path dir, Properties raw) throws Exception {
      return LmdbDirect.open(dir, new EngineProperties(raw, name()));
    }

    @Override
    public String libraryVersion(Properties raw) {
      return LmdbHandle.libraryVersion();
    }

    @Override
    public DB newClient() {
      return new LmdbClient();
    }
  };
}
