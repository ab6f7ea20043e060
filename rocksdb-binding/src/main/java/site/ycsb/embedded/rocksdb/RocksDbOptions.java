package site.ycsb.embedded.rocksdb;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.rocksdb.CompressionType;

import site.ycsb.embedded.EngineProperties;

/**
 * The RocksDB binding's properties: names, defaults and ranges (table: rocksdb-binding/README.md), and
 * every value read and checked once per client thread; no native objects ({@link Opener} makes them).
 */
public final class RocksDbOptions {

  // Engine-neutral knobs (rocksdb.<name> overrides <name>); see EngineProperties.
  /** snappy, lz4, zstd or none; RocksDB's own default is Snappy. */
  public static final String COMPRESSION_DEFAULT = "snappy";
  /** Block cache in bytes (0: none). RocksJava's BlockBasedTableConfig default, 8 MB. */
  public static final long CACHE_SIZE_DEFAULT = 8L << 20;
  /** Memtable size in bytes; RocksDB's default 64 MB, and it raises anything below 64 KB. */
  public static final long WRITE_BUFFER_SIZE_DEFAULT = 64L << 20;
  public static final long WRITE_BUFFER_SIZE_MIN = 64L << 10;

  // Column-family (LSM shape) options.
  /** Memtables kept in memory, the one being written included (RocksDB raises 1 to 2). */
  public static final String MAX_WRITE_BUFFER_NUMBER = "rocksdb.maxwritebuffernumber";
  public static final int MAX_WRITE_BUFFER_NUMBER_DEFAULT = 2;
  /** Level-0 files that start a level-0 compaction. */
  public static final String L0_COMPACTION_TRIGGER = "rocksdb.level0filenumcompactiontrigger";
  public static final int L0_COMPACTION_TRIGGER_DEFAULT = 4;
  /** Level-0 files at which writes are slowed down. */
  public static final String L0_SLOWDOWN_TRIGGER = "rocksdb.level0slowdownwritestrigger";
  public static final int L0_SLOWDOWN_TRIGGER_DEFAULT = 20;
  /** Level-0 files at which writes stop until compaction catches up. */
  public static final String L0_STOP_TRIGGER = "rocksdb.level0stopwritestrigger";
  public static final int L0_STOP_TRIGGER_DEFAULT = 36;
  /** Target size of a level-1 table file in bytes (target_file_size_base). */
  public static final String TARGET_FILE_SIZE = "rocksdb.targetfilesize";
  public static final long TARGET_FILE_SIZE_DEFAULT = 64L << 20;
  /** Target size of level 1 in bytes (max_bytes_for_level_base); RocksDB 3.10 had 10 MB. */
  public static final String MAX_BYTES_FOR_LEVEL_BASE = "rocksdb.maxbytesforlevelbase";
  public static final long MAX_BYTES_FOR_LEVEL_BASE_DEFAULT = 256L << 20;
  /**
   * level_compaction_dynamic_level_bytes: true (RocksDB 11's default) sends level-0 data to the
   * last level; false keeps 3.10's static levels, where an overgrown L1 can be seen.
   */
  public static final String DYNAMIC_LEVEL_BYTES = "rocksdb.dynamiclevelbytes";
  public static final boolean DYNAMIC_LEVEL_BYTES_DEFAULT = true;

  // DB options: background work (the thread pools belong to the process: RocksDB's default Env).
  /** Flushes plus compactions at once; RocksDB gives a quarter (at least 1) to flushes. */
  public static final String MAX_BACKGROUND_JOBS = "rocksdb.maxbackgroundjobs";
  public static final int MAX_BACKGROUND_JOBS_DEFAULT = 2;
  /** -1: from maxbackgroundjobs; 0: flushes share the compaction (LOW) pool; n: n flush threads. */
  public static final String MAX_BACKGROUND_FLUSHES = "rocksdb.maxbackgroundflushes";
  public static final int MAX_BACKGROUND_FLUSHES_DEFAULT = -1;
  /** -1: from maxbackgroundjobs; n: n compaction threads (the LOW pool). */
  public static final String MAX_BACKGROUND_COMPACTIONS = "rocksdb.maxbackgroundcompactions";
  public static final int MAX_BACKGROUND_COMPACTIONS_DEFAULT = -1;
  /** Table files kept open; -1 keeps all. */
  public static final String MAX_OPEN_FILES = "rocksdb.maxopenfiles";
  public static final int MAX_OPEN_FILES_DEFAULT = -1;

  // Table (block-based) options.
  /** Bloom filter bits per key; 0: no filter (RocksDB's default). */
  public static final String BLOOM_BITS = "rocksdb.bloombits";
  public static final double BLOOM_BITS_DEFAULT = 0;
  /** Uncompressed size of a table block in bytes. */
  public static final String BLOCK_SIZE = "rocksdb.blocksize";
  public static final long BLOCK_SIZE_DEFAULT = 4096;

  // Write path and binding behaviour.
  /** Writes skip the write-ahead log (the close flush still persists them). */
  public static final String DISABLE_WAL = "rocksdb.disablewal";
  /** A RocksDB OPTIONS file that replaces the DB, column-family and table options above. */
  public static final String OPTIONS_FILE = "rocksdb.optionsfile";
  /** update overwrites the record without reading it first (db_bench's "overwrite"). */
  public static final String BLIND_UPDATES = "rocksdb.blindupdates";
  /**
   * Attach RocksDB's statistics tickers and print them at close; off by default because the tickers
   * cost each get and put, and the close report takes its figures from DB properties without them.
   */
  public static final String STATS = "rocksdb.stats";
  public static final boolean STATS_DEFAULT = false;

  /** The properties an options file replaces (reported as ignored when both are given). */
  static final List<String> FILE_REPLACES = List.of(EngineProperties.COMPRESSION, EngineProperties.CACHE_SIZE,
      EngineProperties.WRITE_BUFFER_SIZE, MAX_WRITE_BUFFER_NUMBER, L0_COMPACTION_TRIGGER, L0_SLOWDOWN_TRIGGER,
      L0_STOP_TRIGGER, TARGET_FILE_SIZE, MAX_BYTES_FOR_LEVEL_BASE, DYNAMIC_LEVEL_BYTES, MAX_BACKGROUND_JOBS,
      MAX_BACKGROUND_FLUSHES,
      MAX_BACKGROUND_COMPACTIONS, MAX_OPEN_FILES, BLOOM_BITS, BLOCK_SIZE);

  // The values read.
  final CompressionType compression;
  final long cacheSize;
  final long writeBufferSize;
  final int maxWriteBufferNumber;
  final int l0Compaction;
  final int l0Slowdown;
  final int l0Stop;
  final long targetFileSize;
  final long maxBytesForLevelBase;
  final boolean dynamicLevelBytes;
  final int maxBackgroundJobs;
  final int maxBackgroundFlushes;
  final int maxBackgroundCompactions;
  final int maxOpenFiles;
  final double bloomBits;
  final long blockSize;
  final boolean sync;
  final boolean disableWal;
  final String optionsFile;
  final boolean blindUpdates;
  final boolean stats;
  /** YCSB's table name: an options-file section of this name tunes the default column family. */
  final String table;
  /** Explicitly set properties that an options file replaces. */
  final List<String> replacedByFile = new ArrayList<>();

  /** Reads and checks every RocksDB property; {@code raw} gives YCSB's own (table) and what was set explicitly. */
  public RocksDbOptions(EngineProperties props, Properties raw) {
    String codec = props.choice(EngineProperties.COMPRESSION, COMPRESSION_DEFAULT, "snappy", "lz4", "zstd", "none");
    compression = codec.equals("snappy") ? CompressionType.SNAPPY_COMPRESSION
        : codec.equals("lz4") ? CompressionType.LZ4_COMPRESSION
        : codec.equals("zstd") ? CompressionType.ZSTD_COMPRESSION : CompressionType.NO_COMPRESSION;
    cacheSize = props.size(EngineProperties.CACHE_SIZE, CACHE_SIZE_DEFAULT);
    writeBufferSize = props.size(EngineProperties.WRITE_BUFFER_SIZE, WRITE_BUFFER_SIZE_DEFAULT, 64L << 30);
    if (writeBufferSize < WRITE_BUFFER_SIZE_MIN) {
      throw props.refuse(EngineProperties.WRITE_BUFFER_SIZE,
          "a size from 64k to 64g (RocksDB would quietly raise it to 64k)");
    }
    maxWriteBufferNumber = props.integer(MAX_WRITE_BUFFER_NUMBER, MAX_WRITE_BUFFER_NUMBER_DEFAULT, 2, 1000);
    l0Compaction = props.integer(L0_COMPACTION_TRIGGER, L0_COMPACTION_TRIGGER_DEFAULT, 1, 1 << 20);
    l0Slowdown = props.integer(L0_SLOWDOWN_TRIGGER, L0_SLOWDOWN_TRIGGER_DEFAULT, 1, 1 << 20);
    l0Stop = props.integer(L0_STOP_TRIGGER, L0_STOP_TRIGGER_DEFAULT, 1, 1 << 20);
    // RocksDB quietly raises a trigger below the one before it; say so instead.
    // The later trigger is blamed unless only the earlier one was set.
    if (raw.getProperty(L0_SLOWDOWN_TRIGGER) != null || raw.getProperty(L0_COMPACTION_TRIGGER) == null) {
      props.require(l0Slowdown >= l0Compaction, L0_SLOWDOWN_TRIGGER, "at least", L0_COMPACTION_TRIGGER, null);
    } else {
      props.require(l0Slowdown >= l0Compaction, L0_COMPACTION_TRIGGER, "at most", L0_SLOWDOWN_TRIGGER, null);
    }
    if (raw.getProperty(L0_STOP_TRIGGER) != null || raw.getProperty(L0_SLOWDOWN_TRIGGER) == null) {
      props.require(l0Stop >= l0Slowdown, L0_STOP_TRIGGER, "at least", L0_SLOWDOWN_TRIGGER, null);
    } else {
      props.require(l0Stop >= l0Slowdown, L0_SLOWDOWN_TRIGGER, "at most", L0_STOP_TRIGGER, null);
    }
    targetFileSize = props.size(TARGET_FILE_SIZE, TARGET_FILE_SIZE_DEFAULT, 64L << 30);
    if (targetFileSize < 1) {
      throw props.refuse(TARGET_FILE_SIZE, "a size from 1 byte to 64g");
    }
    maxBytesForLevelBase = props.size(MAX_BYTES_FOR_LEVEL_BASE, MAX_BYTES_FOR_LEVEL_BASE_DEFAULT, 1L << 40);
    if (maxBytesForLevelBase < 1) {
      throw props.refuse(MAX_BYTES_FOR_LEVEL_BASE, "a size from 1 byte to 1024g");
    }
    dynamicLevelBytes = props.bool(DYNAMIC_LEVEL_BYTES, DYNAMIC_LEVEL_BYTES_DEFAULT);
    maxBackgroundJobs = props.integer(MAX_BACKGROUND_JOBS, MAX_BACKGROUND_JOBS_DEFAULT, 1, 256);
    maxBackgroundFlushes = props.integer(MAX_BACKGROUND_FLUSHES, MAX_BACKGROUND_FLUSHES_DEFAULT, -1, 256);
    maxBackgroundCompactions = props.integer(MAX_BACKGROUND_COMPACTIONS, MAX_BACKGROUND_COMPACTIONS_DEFAULT, -1, 256);
    if (maxBackgroundCompactions == 0) {
      throw props.refuse(MAX_BACKGROUND_COMPACTIONS, "-1 (derived from " + MAX_BACKGROUND_JOBS
          + ") or a whole number from 1 to 256 (RocksDB would quietly use 1)");
    }
    maxOpenFiles = props.integer(MAX_OPEN_FILES, MAX_OPEN_FILES_DEFAULT, -1, Integer.MAX_VALUE);
    if (maxOpenFiles >= 0 && maxOpenFiles < 20) {
      throw props.refuse(MAX_OPEN_FILES, "-1 (keep every file open) or at least 20 (RocksDB would quietly raise it)");
    }
    bloomBits = props.decimal(BLOOM_BITS, BLOOM_BITS_DEFAULT, 0, 100);
    blockSize = props.size(BLOCK_SIZE, BLOCK_SIZE_DEFAULT, 1L << 30);
    if (blockSize < 256) {
      throw props.refuse(BLOCK_SIZE, "a size from 256 bytes to 1g");
    }
    sync = props.bool(EngineProperties.SYNC, false);
    disableWal = props.bool(DISABLE_WAL, false);
    props.require(!(sync && disableWal), DISABLE_WAL, "false with", EngineProperties.SYNC,
        "RocksDB syncs writes through the write-ahead log");
    String file = props.string(OPTIONS_FILE, "").trim();
    optionsFile = file.isEmpty() ? null : file;
    blindUpdates = props.bool(BLIND_UPDATES, false);
    stats = props.bool(STATS, STATS_DEFAULT);
    table = raw.getProperty("table", "usertable");
    if (optionsFile != null) {
      for (String name : FILE_REPLACES) {
        if (props.isSet(name)) {
          replacedByFile.add(name);
        }
      }
    }
  }
}
