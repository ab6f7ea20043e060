package site.ycsb.embedded.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import org.iq80.leveldb.Options;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;

import site.ycsb.DB;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.kyoto.KyotoClient;
import site.ycsb.embedded.kyoto.KyotoOptions;
import site.ycsb.embedded.leveldb.LevelDbClient;
import site.ycsb.embedded.lmdb.LmdbClient;
import site.ycsb.embedded.rocksdb.RocksDbClient;
import site.ycsb.embedded.sqlite.SqliteClient;

/** The direct side of each engine, with the options its binding uses by default. */
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

  /** leveldbjni: 8 MB block cache, 4 MB write buffer, Snappy: LevelDB's and the binding's defaults. */
  static final BindingOverhead.Engine LEVELDB = new BindingOverhead.Engine() {
    @Override
    public String name() {
      return "leveldb";
    }

    @Override
    public BindingOverhead.Direct openDirect(Path dir) throws Exception {
      return LevelDbJniDirect.open(dir,
          new Options().createIfMissing(true).cacheSize(LevelDbClient.CACHE_SIZE_DEFAULT));
    }

    @Override
    public DB newClient() {
      return new LevelDbClient();
    }
  };

  /** rocksdbjni: 8 MB LRU block cache, 64 MB memtable, Snappy; no statistics on either side. */
  static final BindingOverhead.Engine ROCKSDB = new BindingOverhead.Engine() {
    @Override
    public String name() {
      return "rocksdb";
    }

    @Override
    public BindingOverhead.Direct openDirect(Path dir) throws Exception {
      RocksDB.loadLibrary();
      LRUCache cache = new LRUCache(8L << 20);
      org.rocksdb.Options options = new org.rocksdb.Options().setCreateIfMissing(true)
          .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
      return RocksDirect.open(dir, options, cache);
    }

    @Override
    public DB newClient() {
      return new RocksDbClient();
    }

    @Override
    public void configure(java.util.Properties p) {
      p.setProperty("rocksdb.stats", "false"); // the direct side collects none either
    }
  };

  /** sqlite-jdbc: WAL, synchronous=OFF, the binding's key-value table (rowid + key index), one transaction per put. */
  static final BindingOverhead.Engine SQLITE = new BindingOverhead.Engine() {
    @Override
    public String name() {
      return "sqlite";
    }

    @Override
    public BindingOverhead.Direct openDirect(Path dir) throws Exception {
      return SqliteDirect.open(dir.resolve("direct.db"),
          List.of("page_size=4096", "journal_mode=WAL", "synchronous=OFF", "cache_size=-2000"));
    }

    @Override
    public DB newClient() {
      return new SqliteClient();
    }
  };

  /**
   * The Kyoto JNI layer itself: a TreeDB with the binding's default tuning, opened without
   * auto-transaction on both sides (the binding's default adds one per write: a mode, not a cost).
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
    public BindingOverhead.Direct openDirect(Path dir) throws Exception {
      return KyotoDirect.open(dir.resolve("direct.kct"));
    }

    @Override
    public DB newClient() {
      return new KyotoClient();
    }
  };

  /** lmdbjava through the binding's handle, with the binding's default options on both sides. */
  static final BindingOverhead.Engine LMDB = new BindingOverhead.Engine() {
    @Override
    public String name() {
      return "lmdb";
    }

    @Override
    public BindingOverhead.Direct openDirect(Path dir) throws Exception {
      return LmdbDirect.open(dir.resolve("direct"), new EngineProperties(new Properties(), name()));
    }

    @Override
    public DB newClient() {
      return new LmdbClient();
    }
  };
}
