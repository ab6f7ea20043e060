package site.ycsb.embedded.rocksdb;

import static site.ycsb.embedded.rocksdb.RocksDbOptions.OPTIONS_FILE;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.HistogramType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.OptionsUtil;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.WriteOptions;

import site.ycsb.embedded.KeyValueDB.EngineOpener;

/** Builds the native objects, opens the database and closes everything again. */
final class Opener implements EngineOpener<RocksDbHandle> {
  /** RocksDB's default column family, where every record lives. */
  static final String DEFAULT_CF = new String(RocksDB.DEFAULT_COLUMN_FAMILY, StandardCharsets.UTF_8);

  private final RocksDbOptions s;
  private final Path dir;

  Opener(RocksDbOptions s, Path dir) {
    this.s = s;
    this.dir = dir;
  }

  @Override
  public RocksDbHandle open() throws IOException {
    RocksDbHandle h = new RocksDbHandle();
    try {
      // Tickers only: the ticker line at close reads no histogram, and a histogram RocksDB keeps times
      // its operation (a clock read per get and put); ignoring them all skips that.
      h.statistics = s.stats ? h.own(new Statistics(EnumSet.allOf(HistogramType.class))) : null;
      ColumnFamilyOptions dataOptions;
      Map<String, ColumnFamilyOptions> sections = new LinkedHashMap<>();
      if (s.optionsFile != null) {
        dataOptions = loadOptionsFile(h, sections);
      } else {
        dataOptions = fromProperties(h);
      }
      h.dbOptions.setCreateIfMissing(true);
      if (h.statistics != null) {
        h.dbOptions.setStatistics(h.statistics);
      }
      // RocksDB refuses to open unless every column family on disk is opened: open them all,
      // each with its own options-file section when it has one.
      List<ColumnFamilyDescriptor> families = new ArrayList<>();
      for (String name : existingFamilies()) {
        ColumnFamilyOptions o = name.equals(DEFAULT_CF) ? dataOptions : sections.getOrDefault(name, dataOptions);
        families.add(new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), o));
      }
      h.db = RocksDB.open(h.dbOptions, dir.toString(), families, h.families);
      h.backgroundThreads = ThreadPools.size(h.dbOptions);
      h.readOptions = new ReadOptions();
      h.writeOptions = new WriteOptions().setSync(s.sync).setDisableWAL(s.disableWal);
      if (!s.replacedByFile.isEmpty()) {
        System.err.printf("[rocksdb] WARNING: %s=%s replaces the DB, column-family and table options;"
            + " ignored: %s%n", OPTIONS_FILE, s.optionsFile, String.join(", ", s.replacedByFile));
      }
      return h;
    } catch (RocksDBException | RuntimeException e) {
      h.close();
      throw explain(dir, e);
    } catch (IOException e) {
      h.close();
      throw e;
    }
  }

  /** DB, column-family and table options from the properties. */
  @SuppressWarnings("deprecation") // max_background_flushes/compactions: what the published runs set
  private ColumnFamilyOptions fromProperties(RocksDbHandle h) {
    // Owned objects close in reverse order: options, then the cache, then the filter.
    BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockSize(s.blockSize);
    if (s.bloomBits > 0) {
      table.setFilterPolicy(h.own(new BloomFilter(s.bloomBits)));
    }
    if (s.cacheSize == 0) {
      table.setNoBlockCache(true);
    } else {
      table.setBlockCache(h.own(new LRUCache(s.cacheSize)));
    }
    ColumnFamilyOptions cf = h.own(new ColumnFamilyOptions());
    cf.setCompressionType(s.compression);
    cf.setWriteBufferSize(s.writeBufferSize);
    cf.setMaxWriteBufferNumber(s.maxWriteBufferNumber);
    cf.setLevel0FileNumCompactionTrigger(s.l0Compaction);
    cf.setLevel0SlowdownWritesTrigger(s.l0Slowdown);
    cf.setLevel0StopWritesTrigger(s.l0Stop);
    cf.setTargetFileSizeBase(s.targetFileSize);
    cf.setMaxBytesForLevelBase(s.maxBytesForLevelBase);
    cf.setLevelCompactionDynamicLevelBytes(s.dynamicLevelBytes);
    cf.setTableFormatConfig(table);
    h.dbOptions = h.own(new DBOptions());
    h.dbOptions.setMaxBackgroundJobs(s.maxBackgroundJobs);
    h.dbOptions.setMaxBackgroundFlushes(s.maxBackgroundFlushes);
    h.dbOptions.setMaxBackgroundCompactions(s.maxBackgroundCompactions);
    h.dbOptions.setMaxOpenFiles(s.maxOpenFiles);
    h.source = "options from properties";
    return cf;
  }

  /**
   * DB and column-family options from {@code rocksdb.optionsfile}. The default column family
   * (where the records live) takes the section named after YCSB's table when the file has one
   * (upstream's layout), otherwise the file's "default" section.
   */
  private ColumnFamilyOptions loadOptionsFile(RocksDbHandle h, Map<String, ColumnFamilyOptions> sections)
      throws IOException {
    h.dbOptions = h.own(new DBOptions());
    List<ColumnFamilyDescriptor> loaded = new ArrayList<>();
    try (ConfigOptions config = new ConfigOptions().setEnv(Env.getDefault())) {
      OptionsUtil.loadOptionsFromFile(config, s.optionsFile, h.dbOptions, loaded);
    } catch (RocksDBException e) {
      throw new IOException("cannot use " + OPTIONS_FILE + " " + s.optionsFile + ": " + e.getMessage()
          + " (this binding keeps YCSB's records in the default column family)", e);
    } finally {
      for (ColumnFamilyDescriptor d : loaded) {
        sections.put(new String(d.getName(), StandardCharsets.UTF_8), h.own(d.getOptions()));
      }
    }
    ColumnFamilyOptions forTable = sections.get(s.table);
    h.source = "options from " + s.optionsFile + " (the tuning properties below do not apply),"
        + " default column family from its \""
        + (forTable != null ? s.table : DEFAULT_CF) + "\" section";
    return forTable != null ? forTable : sections.get(DEFAULT_CF);
  }

  /** The column families of the database on disk; only "default" for a new one. */
  private List<String> existingFamilies() throws RocksDBException {
    List<String> names = new ArrayList<>();
    names.add(DEFAULT_CF);
    if (Files.exists(dir.resolve("CURRENT"))) {
      try (Options o = new Options()) {
        for (byte[] name : RocksDB.listColumnFamilies(o, dir.toString())) {
          String n = new String(name, StandardCharsets.UTF_8);
          if (!names.contains(n)) {
            names.add(n);
          }
        }
      }
    }
    return names;
  }

  @Override
  public void close(RocksDbHandle h) throws Exception {
    try {
      long t0 = System.nanoTime();
      // Flush now, so that the next run does not replay the write-ahead log in its timed window.
      try (FlushOptions flush = new FlushOptions().setWaitForFlush(true).setAllowWriteStall(true)) {
        h.db.flush(flush, h.families);
      }
      System.err.printf(Locale.ROOT, "[rocksdb] flushed the memtable at close in %.1f ms%n",
          (System.nanoTime() - t0) / 1e6);
      System.err.print(StatsReport.of(h));
      if (h.statistics != null) {
        System.err.print(StatsReport.tickers(h.statistics));
      }
    } finally {
      h.close();
    }
  }

  @Override
  public String describe(RocksDbHandle h) {
    return "RocksDB " + RocksDB.rocksdbVersion() + " (rocksdbjni, " + System.getProperty("os.arch") + "); "
        + h.source + "; background threads: " + h.backgroundThreads;
  }

  /** Turns RocksDB's open errors into messages that say what is wrong. */
  static IOException explain(Path dir, Exception e) {
    if (e instanceof IOException) {
      return (IOException) e;
    }
    String m = String.valueOf(e.getMessage());
    String lower = m.toLowerCase(Locale.ROOT);
    if (m.contains("/LOCK") || lower.contains("lock file") || lower.contains("lock hold")) {
      return new IOException("RocksDB directory " + dir.toAbsolutePath() + " is locked by another process"
          + " (another YCSB run or program has it open): " + m, e);
    }
    if (lower.contains("compression type") || lower.contains("not linked")) {
      return new IOException("this rocksdbjni build cannot use the compression asked for: " + m, e);
    }
    if (lower.contains("corrupt")) {
      return new IOException(dir.toAbsolutePath() + " does not hold a readable RocksDB database: " + m, e);
    }
    return new IOException("cannot open RocksDB in " + dir.toAbsolutePath() + ": " + m, e);
  }
}
