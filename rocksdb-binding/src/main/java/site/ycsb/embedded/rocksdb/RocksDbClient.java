package site.ycsb.embedded.rocksdb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.OptionsUtil;
import org.rocksdb.Priority;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.RocksObject;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.EngineProperties.BadPropertyException;
import site.ycsb.embedded.KeyValueDB;

/**
 * YCSB binding for RocksDB through rocksdbjni. Property table: rocksdb-binding/README.md.
 *
 * <p>Every record lives in RocksDB's default column family: YCSB's table name is not a column
 * family, so an options file needs only the {@code [CFOptions "default"]} section that every
 * OPTIONS file RocksDB writes has, and column families found on disk are opened, never created.
 */
public class RocksDbClient extends KeyValueDB<RocksDbClient.Handle> {

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
  /** Collect statistics and print stalls, flush/compaction bytes and level shape at close. */
  public static final String STATS = "rocksdb.stats";
  public static final boolean STATS_DEFAULT = true;

  /** The properties an options file replaces (reported as ignored when both are given). */
  static final List<String> FILE_REPLACES = List.of(EngineProperties.COMPRESSION, EngineProperties.CACHE_SIZE,
      EngineProperties.WRITE_BUFFER_SIZE, MAX_WRITE_BUFFER_NUMBER, L0_COMPACTION_TRIGGER, L0_SLOWDOWN_TRIGGER,
      L0_STOP_TRIGGER, TARGET_FILE_SIZE, MAX_BYTES_FOR_LEVEL_BASE, DYNAMIC_LEVEL_BYTES, MAX_BACKGROUND_JOBS, MAX_BACKGROUND_FLUSHES,
      MAX_BACKGROUND_COMPACTIONS, MAX_OPEN_FILES, BLOOM_BITS, BLOCK_SIZE);

  private static final String DEFAULT_CF = new String(RocksDB.DEFAULT_COLUMN_FAMILY, StandardCharsets.UTF_8);

  private boolean blindUpdates;
  /** Memtable bytes configure() read (size x number): what may still be flushed after the last write. */
  private long memtableBytes = WRITE_BUFFER_SIZE_DEFAULT * MAX_WRITE_BUFFER_NUMBER_DEFAULT;

  @Override
  protected String engineName() {
    return "rocksdb";
  }

  @Override
  protected boolean blindUpdates() {
    return blindUpdates;
  }

  @Override
  protected EngineOpener<Handle> configure(EngineProperties props, Path dir) throws IOException {
    // Only plain values here: configure runs in every client thread, native objects are made by
    // the one opener that runs.
    Settings s = new Settings(props, getProperties());
    blindUpdates = s.blindUpdates;
    memtableBytes = s.writeBufferSize * s.maxWriteBufferNumber;
    loadNativeLibrary(); // here, so that the open time printed is the database's alone
    return new Opener(s, dir);
  }

  private static void loadNativeLibrary() throws IOException {
    try {
      RocksDB.loadLibrary();
    } catch (UnsatisfiedLinkError e) {
      throw new IOException("cannot load the RocksDB native library from rocksdbjni (it unpacks into"
          + " java.io.tmpdir, which must allow executables; set YCSB_TMPDIR): " + e.getMessage(), e);
    }
  }

  /**
   * RocksDB fails a write on a full disk with an error (no crash), but then stops accepting writes
   * until reopened; the margin keeps room for the memtables it may flush after the last accepted
   * write, and 8 MB for its logs and manifest, so that the refusal is ours and clear.
   */
  @Override
  protected long diskSpaceMargin() {
    return memtableBytes + (8L << 20);
  }

  @Override
  protected byte[] get(Handle h, byte[] key) throws RocksDBException {
    return h.db.get(h.readOptions, key);
  }

  @Override
  protected void put(Handle h, byte[] key, byte[] value) throws RocksDBException {
    h.db.put(h.writeOptions, key, value);
  }

  /** RocksDB cannot tell whether the key existed without a read; a delete of a missing key is OK. */
  @Override
  protected boolean remove(Handle h, byte[] key) throws RocksDBException {
    h.db.delete(h.writeOptions, key);
    return true;
  }

  @Override
  protected void scan(Handle h, byte[] start, int count, ValueSink sink) throws RocksDBException {
    try (RocksIterator it = h.db.newIterator(h.readOptions)) {
      it.seek(start);
      for (int n = 0; n < count && it.isValid(); n++) {
        sink.accept(it.value());
        it.next();
      }
      it.status();
    }
  }

  @Override
  protected void applyBatch(Handle h, byte[][] keys, byte[][] values, int count) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = 0; i < count; i++) {
        batch.put(keys[i], values[i]);
      }
      h.db.write(h.writeOptions, batch);
    }
  }

  /** Every property value, read and checked once per client thread; no native objects. */
  static final class Settings {
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
        throw bad(raw, EngineProperties.WRITE_BUFFER_SIZE, "a size from 64k to 64g (RocksDB would quietly raise it to 64k)");
      }
      maxWriteBufferNumber = props.integer(MAX_WRITE_BUFFER_NUMBER, MAX_WRITE_BUFFER_NUMBER_DEFAULT, 2, 1000);
      l0Compaction = props.integer(L0_COMPACTION_TRIGGER, L0_COMPACTION_TRIGGER_DEFAULT, 1, 1 << 20);
      l0Slowdown = props.integer(L0_SLOWDOWN_TRIGGER, L0_SLOWDOWN_TRIGGER_DEFAULT, 1, 1 << 20);
      l0Stop = props.integer(L0_STOP_TRIGGER, L0_STOP_TRIGGER_DEFAULT, 1, 1 << 20);
      // RocksDB quietly raises a trigger below the one before it; say so instead.
      if (l0Slowdown < l0Compaction) {
        throw raw.getProperty(L0_SLOWDOWN_TRIGGER) != null || raw.getProperty(L0_COMPACTION_TRIGGER) == null
            ? bad(raw, L0_SLOWDOWN_TRIGGER, "at least " + L0_COMPACTION_TRIGGER + " (" + l0Compaction + ")")
            : bad(raw, L0_COMPACTION_TRIGGER, "at most " + L0_SLOWDOWN_TRIGGER + " (" + l0Slowdown + ")");
      }
      if (l0Stop < l0Slowdown) {
        throw raw.getProperty(L0_STOP_TRIGGER) != null || raw.getProperty(L0_SLOWDOWN_TRIGGER) == null
            ? bad(raw, L0_STOP_TRIGGER, "at least " + L0_SLOWDOWN_TRIGGER + " (" + l0Slowdown + ")")
            : bad(raw, L0_SLOWDOWN_TRIGGER, "at most " + L0_STOP_TRIGGER + " (" + l0Stop + ")");
      }
      targetFileSize = props.size(TARGET_FILE_SIZE, TARGET_FILE_SIZE_DEFAULT, 64L << 30);
      if (targetFileSize < 1) {
        throw bad(raw, TARGET_FILE_SIZE, "a size from 1 byte to 64g");
      }
      maxBytesForLevelBase = props.size(MAX_BYTES_FOR_LEVEL_BASE, MAX_BYTES_FOR_LEVEL_BASE_DEFAULT, 1L << 40);
      if (maxBytesForLevelBase < 1) {
        throw bad(raw, MAX_BYTES_FOR_LEVEL_BASE, "a size from 1 byte to 1024g");
      }
      dynamicLevelBytes = props.bool(DYNAMIC_LEVEL_BYTES, DYNAMIC_LEVEL_BYTES_DEFAULT);
      maxBackgroundJobs = props.integer(MAX_BACKGROUND_JOBS, MAX_BACKGROUND_JOBS_DEFAULT, 1, 256);
      maxBackgroundFlushes = props.integer(MAX_BACKGROUND_FLUSHES, MAX_BACKGROUND_FLUSHES_DEFAULT, -1, 256);
      maxBackgroundCompactions = props.integer(MAX_BACKGROUND_COMPACTIONS, MAX_BACKGROUND_COMPACTIONS_DEFAULT, -1, 256);
      if (maxBackgroundCompactions == 0) {
        throw bad(raw, MAX_BACKGROUND_COMPACTIONS, "-1 (derived from " + MAX_BACKGROUND_JOBS
            + ") or a whole number from 1 to 256 (RocksDB would quietly use 1)");
      }
      maxOpenFiles = props.integer(MAX_OPEN_FILES, MAX_OPEN_FILES_DEFAULT, -1, Integer.MAX_VALUE);
      if (maxOpenFiles >= 0 && maxOpenFiles < 20) {
        throw bad(raw, MAX_OPEN_FILES, "-1 (keep every file open) or at least 20 (RocksDB would quietly raise it)");
      }
      bloomBits = props.decimal(BLOOM_BITS, BLOOM_BITS_DEFAULT, 0, 100);
      blockSize = props.size(BLOCK_SIZE, BLOCK_SIZE_DEFAULT, 1L << 30);
      if (blockSize < 256) {
        throw bad(raw, BLOCK_SIZE, "a size from 256 bytes to 1g");
      }
      sync = props.bool(EngineProperties.SYNC, false);
      disableWal = props.bool(DISABLE_WAL, false);
      if (sync && disableWal) {
        throw bad(raw, DISABLE_WAL, "false when sync=true (RocksDB syncs writes through the write-ahead log)");
      }
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

    /** A refusal in EngineProperties' words, for checks that involve more than one value. */
    private static BadPropertyException bad(Properties raw, String name, String allowed) {
      String key = name.indexOf('.') < 0 ? "rocksdb." + name : name;
      String which = key;
      String value = raw.getProperty(key);
      if (value == null && raw.getProperty(name) != null) {
        value = raw.getProperty(name);
        which = name + " (read as " + key + ")";
      }
      return new BadPropertyException("property " + which + " = '" + (value == null ? "(default)" : value)
          + "' is not allowed: expected " + allowed);
    }
  }

  /** Builds the native objects, opens the database and closes everything again. */
  private static final class Opener implements EngineOpener<Handle> {
    private final Settings s;
    private final Path dir;

    Opener(Settings s, Path dir) {
      this.s = s;
      this.dir = dir;
    }

    @Override
    public Handle open() throws IOException {
      Handle h = new Handle();
      try {
        h.statistics = s.stats ? h.own(new Statistics()) : null;
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
        h.backgroundThreads = sizeThreadPools(h.dbOptions);
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
    private ColumnFamilyOptions fromProperties(Handle h) {
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
    private ColumnFamilyOptions loadOptionsFile(Handle h, Map<String, ColumnFamilyOptions> sections)
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
    public void close(Handle h) throws Exception {
      try {
        long t0 = System.nanoTime();
        // Flush now, so that the next run does not replay the write-ahead log in its timed window.
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true).setAllowWriteStall(true)) {
          h.db.flush(flush, h.families);
        }
        System.err.printf(Locale.ROOT, "[rocksdb] flushed the memtable at close in %.1f ms%n",
            (System.nanoTime() - t0) / 1e6);
        if (h.statistics != null) {
          System.err.print(h.statsReport());
        }
      } finally {
        h.close();
      }
    }

    @Override
    public String describe(Handle h) {
      return "RocksDB " + RocksDB.rocksdbVersion() + " (rocksdbjni, " + System.getProperty("os.arch") + "); "
          + h.source + "; background threads: " + h.backgroundThreads;
    }
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
  static String sizeThreadPools(DBOptions o) throws IOException {
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
    return "flushes and compactions share the LOW pool (" + maxCompactions + (maxCompactions == 1 ? " thread" : " threads")
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

  /** The open database and every native object it needs, closed once in dependency order. */
  public static final class Handle {
    RocksDB db;
    final List<ColumnFamilyHandle> families = new ArrayList<>();
    ReadOptions readOptions;
    WriteOptions writeOptions;
    DBOptions dbOptions;
    Statistics statistics;
    String source = "";
    String backgroundThreads = "";
    /** Options, caches, filters and statistics: closed after the database, in reverse order. */
    private final List<RocksObject> owned = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    <T extends RocksObject> T own(T o) {
      owned.add(o);
      return o;
    }

    /** The database itself (for tests and diagnostics). */
    public RocksDB db() {
      return db;
    }

    /** The statistics RocksDB collects, or null when rocksdb.stats=false. */
    public Statistics statistics() {
      return statistics;
    }

    /** Write stalls, flush and compaction bytes, and files per level, as printed at close. */
    public String statsReport() throws RocksDBException {
      Map<String, String> cf = db.getMapProperty("rocksdb.cfstats");
      long stops = count(cf, "total-stops");
      long delays = count(cf, "total-delays");
      long stallMicros = ticker(TickerType.STALL_MICROS);
      long flushBytes = ticker(TickerType.FLUSH_WRITE_BYTES);
      long compactRead = ticker(TickerType.COMPACT_READ_BYTES);
      long compactWrite = ticker(TickerType.COMPACT_WRITE_BYTES);
      long userBytes = ticker(TickerType.BYTES_WRITTEN);
      String levels = db.getProperty("rocksdb.levelstats");
      List<String> files = new ArrayList<>();
      for (String line : levels.split("\n")) {
        String[] cols = line.trim().split("\\s+");
        if (cols.length >= 2 && cols[0].matches("\\d+") && cols[1].matches("\\d+")) {
          files.add(cols[1]);
        }
      }
      StringBuilder sb = new StringBuilder();
      sb.append(String.format(Locale.ROOT, "[rocksdb] write stalls: %d stops, %d slowdowns, %.3f s stalled"
              + " (memtable limit %d/%d, level-0 files %d/%d, pending compaction bytes %d/%d stops/slowdowns)%n",
          stops, delays, stallMicros / 1e6,
          count(cf, "memtable-limit-stops"), count(cf, "memtable-limit-delays"),
          count(cf, "l0-file-count-limit-stops"), count(cf, "l0-file-count-limit-delays"),
          count(cf, "pending-compaction-bytes-stops"), count(cf, "pending-compaction-bytes-delays")));
      sb.append(String.format(Locale.ROOT, "[rocksdb] background I/O: flush wrote %.1f MB, compaction read %.1f MB"
              + " and wrote %.1f MB; clients wrote %.1f MB (write amplification %.2f)%n",
          flushBytes / 1e6, compactRead / 1e6, compactWrite / 1e6, userBytes / 1e6,
          userBytes > 0 ? (flushBytes + compactWrite) / (double) userBytes : 0.0));
      sb.append("[rocksdb] files per level: ");
      for (int i = 0; i < files.size(); i++) {
        sb.append(i == 0 ? "" : " ").append('L').append(i).append('=').append(files.get(i));
      }
      sb.append(String.format("%n[rocksdb] rocksdb.levelstats:%n%s", levels));
      sb.append(String.format(Locale.ROOT, "[rocksdb] stats: stall_stops=%d stall_slowdowns=%d stall_micros=%d"
              + " flush_bytes=%d compaction_read_bytes=%d compaction_write_bytes=%d bytes_written=%d"
              + " files_per_level=%s%n",
          stops, delays, stallMicros, flushBytes, compactRead, compactWrite, userBytes, String.join(",", files)));
      return sb.toString();
    }

    private long ticker(TickerType t) {
      return statistics == null ? 0 : statistics.getTickerCount(t);
    }

    private static long count(Map<String, String> m, String key) {
      String v = m.get(key);
      return v == null ? 0 : (long) Double.parseDouble(v);
    }

    /**
     * Closes read/write options, column-family handles, the database, then options, caches,
     * filters and statistics. Runs once; later calls do nothing.
     */
    void close() {
      if (!closed.compareAndSet(false, true)) {
        return;
      }
      try {
        closeQuietly(readOptions);
        closeQuietly(writeOptions);
        for (ColumnFamilyHandle f : families) {
          f.close();
        }
        if (db != null) {
          db.close();
        }
      } finally {
        for (int i = owned.size() - 1; i >= 0; i--) {
          owned.get(i).close();
        }
      }
    }

    private static void closeQuietly(RocksObject o) {
      if (o != null) {
        o.close();
      }
    }
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
