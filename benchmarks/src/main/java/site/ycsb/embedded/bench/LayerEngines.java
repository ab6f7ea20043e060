package site.ycsb.embedded.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.fusesource.leveldbjni.JniDBFactory;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.Options;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.kyoto.KyotoOptions;
import site.ycsb.embedded.kyoto.KyotoJni;
import site.ycsb.embedded.leveldb.LevelDbClient;
import site.ycsb.embedded.leveldb.SystemLevelDbDirect;
import site.ycsb.embedded.lmdb.LmdbHandle;
import site.ycsb.embedded.rocksdb.RocksDbOptions;
import site.ycsb.embedded.sqlite.SqliteOptions;

/**
 * Layer (b): each engine's Java library opened with the tuning a workload file gives its binding
 * (the same properties, read with the binding's names and defaults), so that (b) and (c) differ
 * only by the binding. The leveldb.library=system variant's (b) is the binding's own JNI class
 * over the system library ({@link SystemLevelDbDirect}).
 */
final class LayerEngines {

  private LayerEngines() {
  }

  /** Opens {@code engine}'s library directly in {@code dir} with the workload's tuning. */
  static LayerDirect open(String engine, Path dir, EngineProperties p) throws Exception {
    switch (engine) {
      case "leveldb": return SystemLevelDbDirect.chosen(p) ? SystemLevelDbDirect.open(dir, p) : leveldb(dir, p);
      case "rocksdb": return rocksdb(dir, p);
      case "sqlite": return sqlite(dir, p);
      case "kyoto": return kyoto(dir, p);
      case "lmdb": return LmdbDirect.open(dir, p);
      default:
        throw new IllegalArgumentException("unknown engine " + engine
            + "; known: leveldb, rocksdb, sqlite, kyoto, lmdb");
    }
  }

  /** The engine and version inside the Java library that layer (b) calls with these properties. */
  static String libraryVersion(String engine, EngineProperties p) throws Exception {
    switch (engine) {
      case "leveldb":
        return SystemLevelDbDirect.chosen(p) ? SystemLevelDbDirect.libraryVersion()
            : "LevelDB 1.13 (leveldbjni-all " + JniDBFactory.VERSION + ")";
      case "rocksdb": return "RocksDB " + RocksDB.rocksdbVersion() + " (rocksdbjni)";
      case "sqlite":
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
            Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT sqlite_version()")) {
          rs.next();
          return "SQLite " + rs.getString(1) + " (sqlite-jdbc)";
        }
      case "kyoto": return "Kyoto Cabinet " + KyotoJni.libraryVersion() + " (system library, project JNI)";
      case "lmdb": return LmdbHandle.libraryVersion();
      default: throw new IllegalArgumentException("unknown engine " + engine);
    }
  }

  private static LayerDirect leveldb(Path dir, EngineProperties p) throws Exception {
    Options options = new Options().createIfMissing(true)
        .cacheSize(p.size(EngineProperties.CACHE_SIZE, LevelDbClient.CACHE_SIZE_DEFAULT))
        .writeBufferSize((int) p.size(EngineProperties.WRITE_BUFFER_SIZE, LevelDbClient.WRITE_BUFFER_SIZE_DEFAULT))
        .compressionType("none".equals(p.string(EngineProperties.COMPRESSION, LevelDbClient.COMPRESSION_DEFAULT))
            ? CompressionType.NONE : CompressionType.SNAPPY)
        .blockSize(p.integer(LevelDbClient.BLOCK_SIZE, LevelDbClient.BLOCK_SIZE_DEFAULT, 1, Integer.MAX_VALUE))
        .maxOpenFiles(p.integer(LevelDbClient.MAX_OPEN_FILES, LevelDbClient.MAX_OPEN_FILES_DEFAULT, 1,
            Integer.MAX_VALUE));
    return LevelDbJniDirect.open(dir, options);
  }

  private static LayerDirect rocksdb(Path dir, EngineProperties p) throws Exception {
    RocksDB.loadLibrary();
    LRUCache cache = new LRUCache(p.size(EngineProperties.CACHE_SIZE, RocksDbOptions.CACHE_SIZE_DEFAULT));
    String compression = p.string(EngineProperties.COMPRESSION, RocksDbOptions.COMPRESSION_DEFAULT);
    org.rocksdb.Options options = new org.rocksdb.Options().setCreateIfMissing(true)
        .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache)
            .setBlockSize(RocksDbOptions.BLOCK_SIZE_DEFAULT))
        .setWriteBufferSize(p.size(EngineProperties.WRITE_BUFFER_SIZE, RocksDbOptions.WRITE_BUFFER_SIZE_DEFAULT))
        .setMaxWriteBufferNumber(RocksDbOptions.MAX_WRITE_BUFFER_NUMBER_DEFAULT)
        .setLevel0FileNumCompactionTrigger(RocksDbOptions.L0_COMPACTION_TRIGGER_DEFAULT)
        .setLevel0SlowdownWritesTrigger(RocksDbOptions.L0_SLOWDOWN_TRIGGER_DEFAULT)
        .setLevel0StopWritesTrigger(RocksDbOptions.L0_STOP_TRIGGER_DEFAULT)
        .setTargetFileSizeBase(RocksDbOptions.TARGET_FILE_SIZE_DEFAULT)
        .setMaxBytesForLevelBase(RocksDbOptions.MAX_BYTES_FOR_LEVEL_BASE_DEFAULT)
        .setLevelCompactionDynamicLevelBytes(RocksDbOptions.DYNAMIC_LEVEL_BYTES_DEFAULT)
        .setMaxBackgroundJobs(RocksDbOptions.MAX_BACKGROUND_JOBS_DEFAULT)
        .setMaxOpenFiles(RocksDbOptions.MAX_OPEN_FILES_DEFAULT)
        .setCompressionType("none".equals(compression) ? org.rocksdb.CompressionType.NO_COMPRESSION
            : org.rocksdb.CompressionType.SNAPPY_COMPRESSION);
    return RocksDirect.open(dir, options, cache);
  }

  /** sqlite-jdbc with the binding's kv table and statements and the workload's pragmas. */
  private static LayerDirect sqlite(Path dir, EngineProperties p) throws Exception {
    List<String> pragmas = new ArrayList<>();
    pragmas.add("page_size=" + p.integer(SqliteOptions.PAGE_SIZE, SqliteOptions.PAGE_SIZE_DEFAULT, 512, 65536));
    pragmas.add("cache_size=-" + p.size(EngineProperties.CACHE_SIZE, SqliteOptions.CACHE_SIZE_DEFAULT) / 1024);
    pragmas.add("locking_mode=" + p.string(SqliteOptions.LOCKING_MODE, SqliteOptions.LOCKING_MODE_DEFAULT));
    pragmas.add("journal_mode=" + p.string(SqliteOptions.JOURNAL_MODE, SqliteOptions.JOURNAL_MODE_DEFAULT));
    pragmas.add("synchronous=" + p.string(SqliteOptions.SYNCHRONOUS, "OFF"));
    return SqliteDirect.open(dir.resolve(SqliteOptions.FILE_DEFAULT), pragmas);
  }

  /** The tuning string the binding builds from the same properties (KyotoOptions), without its open mode. */
  private static LayerDirect kyoto(Path dir, EngineProperties p) throws Exception {
    KyotoOptions options = KyotoOptions.read(p, dir);
    return KyotoLayerDirect.open(options.file(), options.tuningSuffix());
  }

}
