package site.ycsb.embedded.rocksdb;

import static site.ycsb.embedded.rocksdb.RocksDbClient.BLIND_UPDATES;
import static site.ycsb.embedded.rocksdb.RocksDbClient.BLOCK_SIZE;
import static site.ycsb.embedded.rocksdb.RocksDbClient.BLOCK_SIZE_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.BLOOM_BITS;
import static site.ycsb.embedded.rocksdb.RocksDbClient.BLOOM_BITS_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.CACHE_SIZE_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.COMPRESSION_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.DISABLE_WAL;
import static site.ycsb.embedded.rocksdb.RocksDbClient.DYNAMIC_LEVEL_BYTES;
import static site.ycsb.embedded.rocksdb.RocksDbClient.DYNAMIC_LEVEL_BYTES_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.FILE_REPLACES;
import static site.ycsb.embedded.rocksdb.RocksDbClient.L0_COMPACTION_TRIGGER;
import static site.ycsb.embedded.rocksdb.RocksDbClient.L0_COMPACTION_TRIGGER_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.L0_SLOWDOWN_TRIGGER;
import static site.ycsb.embedded.rocksdb.RocksDbClient.L0_SLOWDOWN_TRIGGER_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.L0_STOP_TRIGGER;
import static site.ycsb.embedded.rocksdb.RocksDbClient.L0_STOP_TRIGGER_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.MAX_BACKGROUND_COMPACTIONS;
import static site.ycsb.embedded.rocksdb.RocksDbClient.MAX_BACKGROUND_COMPACTIONS_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.MAX_BACKGROUND_FLUSHES;
import static site.ycsb.embedded.rocksdb.RocksDbClient.MAX_BACKGROUND_FLUSHES_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.MAX_BACKGROUND_JOBS;
import static site.ycsb.embedded.rocksdb.RocksDbClient.MAX_BACKGROUND_JOBS_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.MAX_BYTES_FOR_LEVEL_BASE;
import static site.ycsb.embedded.rocksdb.RocksDbClient.MAX_BYTES_FOR_LEVEL_BASE_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.MAX_OPEN_FILES;
import static site.ycsb.embedded.rocksdb.RocksDbClient.MAX_OPEN_FILES_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.MAX_WRITE_BUFFER_NUMBER;
import static site.ycsb.embedded.rocksdb.RocksDbClient.MAX_WRITE_BUFFER_NUMBER_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.OPTIONS_FILE;
import static site.ycsb.embedded.rocksdb.RocksDbClient.STATS;
import static site.ycsb.embedded.rocksdb.RocksDbClient.STATS_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.TARGET_FILE_SIZE;
import static site.ycsb.embedded.rocksdb.RocksDbClient.TARGET_FILE_SIZE_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.WRITE_BUFFER_SIZE_DEFAULT;
import static site.ycsb.embedded.rocksdb.RocksDbClient.WRITE_BUFFER_SIZE_MIN;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.rocksdb.CompressionType;

import site.ycsb.embedded.EngineProperties;

/**
 * Every RocksDB property value, read and checked once per client thread; no native objects. The names
 * and defaults are RocksDbClient's constants.
 */
final class Settings {
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

  Settings(EngineProperties props, Properties raw) {
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
