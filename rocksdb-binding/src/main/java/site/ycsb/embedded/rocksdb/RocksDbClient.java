package site.ycsb.embedded.rocksdb;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.KeyValueDB;

/**
 * YCSB binding for RocksDB through rocksdbjni. Property table: rocksdb-binding/README.md.
 *
 * <p>Every record lives in RocksDB's default column family: YCSB's table name is not a column
 * family, so an options file needs only the {@code [CFOptions "default"]} section that every
 * OPTIONS file RocksDB writes has, and column families found on disk are opened, never created.
 */
public class RocksDbClient extends KeyValueDB<Handle> {

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

  private boolean blindUpdates;
  /** Memtable bytes configure() read (size x number): what may still be flushed after the last write. */
  private long memtableBytes = WRITE_BUFFER_SIZE_DEFAULT * MAX_WRITE_BUFFER_NUMBER_DEFAULT;

  @Override
  protected String engineName() {
    return "rocksdb";
  }

  /** RocksDB renames LOG to LOG.old.<time> and starts a new LOG before it finds that it cannot open. */
  @Override
  protected Set<String> filesAFailedOpenRewrites() {
    return Set.of("LOG");
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

  /** rocksdbjni unpacks its library from the jar: before YCSB's clock starts (see KeyValueDB). */
  @Override
  protected void loadEngineLibrary() throws IOException {
    loadNativeLibrary();
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
}
