package site.ycsb.embedded.sqlite;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.EngineProperties.BadPropertyException;
import site.ycsb.embedded.Keys;

/**
 * The SQLite binding's properties (names, defaults, ranges; table: sqlite-binding/README.md) and,
 * once {@link #read} checked them, everything that says how the database is opened and how each
 * connection is set up. Values are SQLite's own spellings (WAL, OFF, EXCLUSIVE).
 *
 * @param dir data directory
 * @param fileName database file inside {@code dir}
 * @param schema the YCSB table
 * @param pageSize page size in bytes for a new database
 * @param pageSizeSet whether the page size was asked for (a mismatch with an existing file is then warned about)
 * @param cacheKib page cache per connection (or for the shared cache) in KiB
 * @param journalMode journal_mode
 * @param synchronous synchronous
 * @param lockingMode locking_mode
 * @param sharedCache open every connection in shared-cache mode
 * @param busyTimeoutMs how long a blocked statement waits in total before it gives up
 * @param mmapSize mmap_size in bytes
 * @param walAutocheckpoint wal_autocheckpoint in pages
 * @param processLock hold a lock file so that a second process is refused
 * @param rowidLayoutSet whether sqlite.withoutrowid was given (if not, an existing kv table of the other
 *     layout is used as it is)
 * @param notes lines for the start-up header (ignored or unknown properties)
 */
public record SqliteOptions(Path dir, String fileName, Schema schema, int pageSize, boolean pageSizeSet,
                            long cacheKib, String journalMode, String synchronous, String lockingMode,
                            boolean sharedCache, int busyTimeoutMs, long mmapSize, int walAutocheckpoint,
                            boolean processLock, boolean rowidLayoutSet, List<String> notes) {

  // Engine-neutral knobs (sqlite.<name> overrides <name>); see EngineProperties.
  /** cachesize: page cache per connection (shared cache: in all), SQLite's own default of 2000 KiB. */
  public static final long CACHE_SIZE_DEFAULT = 2000L << 10;
  /** compression: SQLite stores pages as they are, so none is the only value. */
  public static final String COMPRESSION_DEFAULT = "none";
  /** sync=true means synchronous=FULL, sync=false (default) synchronous=OFF, unless sqlite.synchronous is set. */
  public static final boolean SYNC_DEFAULT = false;

  // The database file and its connections.
  /** Database file inside the data directory (path). */
  public static final String FILE = "sqlite.file";
  public static final String FILE_DEFAULT = "ycsb.db";
  /** Page size in bytes, applied when the file is created: a power of two from 512 to 65536. */
  public static final String PAGE_SIZE = "sqlite.pagesize";
  public static final int PAGE_SIZE_DEFAULT = 4096;
  /** journal_mode: WAL, DELETE, TRUNCATE, PERSIST, MEMORY or OFF. */
  public static final String JOURNAL_MODE = "sqlite.journalmode";
  public static final String JOURNAL_MODE_DEFAULT = "WAL";
  /** synchronous: OFF, NORMAL, FULL or EXTRA; default from sync. */
  public static final String SYNCHRONOUS = "sqlite.synchronous";
  /** locking_mode: NORMAL (a connection per client thread) or EXCLUSIVE (one shared connection). */
  public static final String LOCKING_MODE = "sqlite.lockingmode";
  public static final String LOCKING_MODE_DEFAULT = "NORMAL";
  /** Open every connection in shared-cache mode (one page cache, table-level locks). */
  public static final String SHARED_CACHE = "sqlite.sharedcache";
  /** How long, in ms, a statement blocked by another connection keeps retrying before it fails. */
  public static final String BUSY_TIMEOUT = "sqlite.busytimeout";
  public static final int BUSY_TIMEOUT_DEFAULT = 10_000;
  /** mmap_size in bytes (0: reads go through the page cache only). */
  public static final String MMAP_SIZE = "sqlite.mmapsize";
  public static final long MMAP_SIZE_DEFAULT = 0;
  /** wal_autocheckpoint in pages (0: never checkpoint automatically). */
  public static final String WAL_AUTOCHECKPOINT = "sqlite.walautocheckpoint";
  public static final int WAL_AUTOCHECKPOINT_DEFAULT = 1000;
  /** Hold <file>.lock so that a second process is refused; false lets processes share the file. */
  public static final String PROCESS_LOCK = "sqlite.processlock";

  // The table.
  /**
   * kv (key BLOB, value = the record codec's bytes: SqliteClient, engine sqlite) or columns (one column
   * per field: SqliteColumnsClient, engine sqlite-columns). Each client has its own layout; this
   * property, when set, must name it.
   */
  public static final String SCHEMA = "sqlite.schema";
  public static final String SCHEMA_DEFAULT = "kv";
  /** The bin/ycsb engine of each layout, for messages. */
  static final String KV_ENGINE = "sqlite";
  static final String COLUMNS_ENGINE = "sqlite-columns";
  /** Table without rowid (one B-tree keyed by its primary key); false: a rowid table plus a key index. */
  public static final String WITHOUT_ROWID = "sqlite.withoutrowid";
  /**
   * kv: WITHOUT ROWID, db_bench_sqlite3's default table (one B-tree): faster ordered passes and scans
   * than a rowid table, which walks its key index and looks each row up (README "Speed").
   */
  public static final boolean KV_WITHOUT_ROWID_DEFAULT = true;
  /** columns only: key column type blob, text (upstream JDBC's VARCHAR key) or integer (the rowid). */
  public static final String KEY_TYPE = "sqlite.keytype";
  public static final String KEY_TYPE_DEFAULT = "blob";
  /** columns only: a field stored as an INTEGER that starts at 0 and that an update increments. */
  public static final String COUNTER_FIELD = "sqlite.counterfield";

  /** The neutral writebuffersize has no SQLite counterpart: ignored, and refused when addressed to SQLite. */
  static final String WRITE_BUFFER_SIZE = "sqlite." + EngineProperties.WRITE_BUFFER_SIZE;

  /**
   * Reads and checks every SQLite property for a database in {@code dir}; {@code raw} gives YCSB's own
   * (table, fieldcount, fieldnameprefix, keyformat), {@code keys} the run's key encoding and
   * {@code columns} the client's layout (the columns layout, or kv).
   */
  static SqliteOptions read(EngineProperties props, Properties raw, Path dir, Keys keys, boolean columns) {
    List<String> notes = new ArrayList<>();
    String fileName = props.string(FILE, FILE_DEFAULT).trim();
    if (fileName.isEmpty() || fileName.contains("/") || fileName.contains("\\") || fileName.startsWith(":")) {
      throw bad(FILE, fileName, "a file name inside the data directory (path), such as ycsb.db");
    }
    int pageSize = props.integer(PAGE_SIZE, PAGE_SIZE_DEFAULT, 512, 65536);
    if (Integer.bitCount(pageSize) != 1) {
      throw bad(PAGE_SIZE, Integer.toString(pageSize), "a power of two from 512 to 65536");
    }
    long cacheBytes = props.size(EngineProperties.CACHE_SIZE, CACHE_SIZE_DEFAULT, (long) Integer.MAX_VALUE << 10);
    String journal = props.choice(JOURNAL_MODE, JOURNAL_MODE_DEFAULT, "WAL", "DELETE", "TRUNCATE", "PERSIST",
        "MEMORY", "OFF");
    boolean sync = props.bool(EngineProperties.SYNC, SYNC_DEFAULT);
    String synchronous = props.choice(SYNCHRONOUS, sync ? "FULL" : "OFF", "OFF", "NORMAL", "FULL", "EXTRA");
    String locking = props.choice(LOCKING_MODE, LOCKING_MODE_DEFAULT, "NORMAL", "EXCLUSIVE");
    boolean sharedCache = props.bool(SHARED_CACHE, false);
    int busyTimeout = props.integer(BUSY_TIMEOUT, BUSY_TIMEOUT_DEFAULT, 0, 3_600_000);
    long mmapSize = props.size(MMAP_SIZE, MMAP_SIZE_DEFAULT);
    int walCheckpoint = props.integer(WAL_AUTOCHECKPOINT, WAL_AUTOCHECKPOINT_DEFAULT, 0, Integer.MAX_VALUE);
    boolean processLock = props.bool(PROCESS_LOCK, true);
    props.choice(EngineProperties.COMPRESSION, COMPRESSION_DEFAULT, "none");
    if (raw.getProperty(WRITE_BUFFER_SIZE) != null) {
      throw bad(WRITE_BUFFER_SIZE, raw.getProperty(WRITE_BUFFER_SIZE), "no value: SQLite has no write buffer"
          + " (the WAL's counterpart is sqlite.walautocheckpoint)");
    }
    if (raw.getProperty(EngineProperties.WRITE_BUFFER_SIZE) != null) {
      notes.add("NOTE: writebuffersize = " + raw.getProperty(EngineProperties.WRITE_BUFFER_SIZE)
          + " is ignored: SQLite has no write buffer");
    }
    Schema schema = schema(props, raw, keys, columns);

    return new SqliteOptions(dir, fileName, schema, pageSize, props.isSet(PAGE_SIZE), cacheBytes >> 10,
        journal, synchronous, locking, sharedCache, busyTimeout, mmapSize, walCheckpoint, processLock,
        props.isSet(WITHOUT_ROWID), notes);
  }

  /**
   * Reads and checks the properties as {@link SqliteClient} (the kv layout) does: for the benchmarks'
   * direct layer, which opens sqlite-jdbc with the same values.
   */
  public static SqliteOptions readKv(EngineProperties props, Properties raw, Path dir) {
    return read(props, raw, dir, Keys.fromProperties(props, raw), false);
  }

  /** The client's table layout and, for columns, YCSB's fieldcount and fieldnameprefix. */
  private static Schema schema(EngineProperties props, Properties raw, Keys keys, boolean columns) {
    String table = raw.getProperty("table", "usertable");
    String own = columns ? "columns" : "kv";
    String layout = props.choice(SCHEMA, own, "kv", "columns");
    if (!layout.equals(own)) {
      throw bad(SCHEMA, layout, own + " with the engine " + (columns ? COLUMNS_ENGINE : KV_ENGINE) + "; the " + layout
          + " layout is the engine " + (columns ? KV_ENGINE : COLUMNS_ENGINE));
    }
    if (!columns) {
      for (String columnsOnly : new String[] {KEY_TYPE, COUNTER_FIELD}) {
        props.require(raw.getProperty(columnsOnly) == null, columnsOnly, "no value with", SCHEMA,
            "it applies to sqlite.schema=columns");
      }
      return Schema.kv(table, props.bool(WITHOUT_ROWID, KV_WITHOUT_ROWID_DEFAULT));
    }
    String keyType = props.choice(KEY_TYPE, KEY_TYPE_DEFAULT, "blob", "text", "integer");
    boolean integerKey = keyType.equals("integer");
    boolean withoutRowid = props.bool(WITHOUT_ROWID, !integerKey);
    props.require(!(integerKey && withoutRowid), WITHOUT_ROWID, "false with", KEY_TYPE,
        "an INTEGER PRIMARY KEY is the rowid");
    props.require(!integerKey || raw.getProperty("keyformat", "ycsb").equalsIgnoreCase("decimal"), KEY_TYPE,
        "blob or text with", "keyformat", "an integer key must be a number (keyformat=decimal)");
    String count = raw.getProperty("fieldcount", "10").trim();
    int fieldCount;
    try {
      fieldCount = Integer.parseInt(count);
    } catch (NumberFormatException e) {
      fieldCount = -1;
    }
    props.require(fieldCount >= 1 && fieldCount <= ColumnsTable.MAX_FIELDS, "fieldcount",
        "1 to " + ColumnsTable.MAX_FIELDS + " with", SCHEMA, "a column per field");
    String prefix = raw.getProperty("fieldnameprefix", "field");
    List<String> fields = new ArrayList<>();
    for (int i = 0; i < fieldCount; i++) {
      fields.add(prefix + i);
    }
    String counter = props.string(COUNTER_FIELD, "").trim();
    if (!counter.isEmpty() && !fields.contains(counter)) {
      throw bad(COUNTER_FIELD, counter, "one of the fields " + fields + " or nothing");
    }
    return Schema.columns(table, Schema.KeyType.valueOf(keyType.toUpperCase(Locale.ROOT)), withoutRowid, keys,
        fields, counter.isEmpty() ? null : counter);
  }

  private static BadPropertyException bad(String name, String value, String expected) {
    return new BadPropertyException(EngineProperties.refusal(name, value, expected));
  }

  /** The table's CREATE TABLE IF NOT EXISTS, as the binding makes it (the benchmarks' direct layer runs it too). */
  public String createTableIfMissing() {
    return schema.createIfMissing();
  }

  /** The database file. */
  public Path file() {
    return dir.resolve(fileName);
  }

  Path lockFile() {
    return dir.resolve(fileName + ".lock");
  }

  /** EXCLUSIVE locking: one connection holds the file, so every client thread shares it. */
  boolean exclusive() {
    return lockingMode.equals("EXCLUSIVE");
  }
}
