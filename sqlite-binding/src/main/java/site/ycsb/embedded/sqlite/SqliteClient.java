package site.ycsb.embedded.sqlite;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;

import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.EngineProperties.BadPropertyException;
import site.ycsb.embedded.KeyValueDB;
import site.ycsb.embedded.WriteGroup;

/**
 * YCSB binding for SQLite through sqlite-jdbc. Property table and schema: sqlite-binding/README.md.
 *
 * <p>Connections: the shared handle is the database's first connection ({@link Store}); each
 * client thread joins with a connection of its own, so that WAL readers run in parallel, or,
 * under {@code locking_mode=EXCLUSIVE} (which lets only one connection use the file), with that
 * first connection itself, shared and used by one client at a time.
 *
 * <p>Writes: {@code batchsize} rows per transaction for every write (insert, update, delete),
 * not only inserts: a write runs at once inside the client's open transaction and answers
 * BATCHED_OK until the write that fills the batch commits it (OK); cleanup commits the rest.
 * With {@code batchsize=1} each write is its own transaction. This is KeyValueDB's write-grouping
 * hook ({@link Transactions}); the kv layout ({@link KvTable}) is read and written through KeyValueDB,
 * the columns layout ({@link ColumnsTable}) has operations of its own.
 */
public class SqliteClient extends KeyValueDB<Session> {

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
  /** kv (key BLOB, value = the record codec's bytes) or columns (one column per field). */
  public static final String SCHEMA = "sqlite.schema";
  public static final String SCHEMA_DEFAULT = "kv";
  /** Table without rowid (keyed by its primary key only); false for the 2011 rowid + index shape. */
  public static final String WITHOUT_ROWID = "sqlite.withoutrowid";
  /** kv: a rowid table plus key index, 2-3x faster per random insert than WITHOUT ROWID (README "Speed"). */
  public static final boolean KV_WITHOUT_ROWID_DEFAULT = false;
  /** columns only: key column type blob, text (upstream JDBC's VARCHAR key) or integer (the rowid). */
  public static final String KEY_TYPE = "sqlite.keytype";
  public static final String KEY_TYPE_DEFAULT = "blob";
  /** columns only: a field stored as an INTEGER that starts at 0 and that an update increments. */
  public static final String COUNTER_FIELD = "sqlite.counterfield";

  /** The neutral writebuffersize has no SQLite counterpart: ignored, and refused when addressed to SQLite. */
  static final String WRITE_BUFFER_SIZE = "sqlite." + EngineProperties.WRITE_BUFFER_SIZE;

  /** The client's table: exactly one of the two layouts. */
  private KvTable kv;
  private ColumnsTable columns;
  private Transactions transactions;

  @Override
  protected String engineName() {
    return "sqlite";
  }

  /** sqlite-jdbc unpacks its library from the jar: before YCSB's clock starts (see KeyValueDB). */
  @Override
  protected void loadEngineLibrary() throws Exception {
    org.sqlite.SQLiteJDBCLoader.initialize();
    // The driver's one-time set-up of its date formats (time zones, locale data: ~80 ms in a fresh
    // JVM, class-load log) happens at the first SQLiteConfig; like the library, before YCSB's clock.
    new org.sqlite.SQLiteConfig().toProperties();
  }

  /** Whether configure() read sqlite.processlock=true (the default). */
  private boolean processLock = true;

  /**
   * Without its process lock (sqlite.processlock=false) SQLite lets several processes share the file, so the
   * directory lock is shared too; with it, a second process is refused by the directory lock first.
   */
  @Override
  protected boolean sharesDirectory() {
    return !processLock;
  }

  @Override
  protected EngineOpener<Session> configure(EngineProperties props, Path dir) {
    Properties raw = getProperties();
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
    this.processLock = processLock;
    props.choice(EngineProperties.COMPRESSION, COMPRESSION_DEFAULT, "none");
    if (raw.getProperty(WRITE_BUFFER_SIZE) != null) {
      throw bad(WRITE_BUFFER_SIZE, raw.getProperty(WRITE_BUFFER_SIZE), "no value: SQLite has no write buffer"
          + " (the WAL's counterpart is sqlite.walautocheckpoint)");
    }
    if (raw.getProperty(EngineProperties.WRITE_BUFFER_SIZE) != null) {
      notes.add("NOTE: writebuffersize = " + raw.getProperty(EngineProperties.WRITE_BUFFER_SIZE)
          + " is ignored: SQLite has no write buffer");
    }
    Schema schema = schema(props, raw);

    Settings settings = new Settings(dir, fileName, schema, pageSize, props.isSet(PAGE_SIZE), cacheBytes >> 10,
        journal, synchronous, locking, sharedCache, busyTimeout, mmapSize, walCheckpoint, processLock,
        props.isSet(WITHOUT_ROWID), notes);
    return new EngineOpener<Session>() {
      @Override
      public Session open() throws IOException {
        for (String note : notes) {
          System.err.println("[sqlite] " + note);
        }
        return Store.open(settings);
      }

      @Override
      public void close(Session first) throws SQLException, IOException {
        first.store().close();
      }

      @Override
      public String describe(Session first) {
        return first.store().describe();
      }
    };
  }

  /** The table layout from sqlite.schema and, for columns, YCSB's fieldcount and fieldnameprefix. */
  private Schema schema(EngineProperties props, Properties raw) {
    String table = raw.getProperty("table", "usertable");
    String layout = props.choice(SCHEMA, SCHEMA_DEFAULT, "kv", "columns");
    if (layout.equals("kv")) {
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
    return Schema.columns(table, Schema.KeyType.valueOf(keyType.toUpperCase(Locale.ROOT)), withoutRowid, keys(),
        fields, counter.isEmpty() ? null : counter);
  }

  private static BadPropertyException bad(String name, String value, String expected) {
    return new BadPropertyException(EngineProperties.refusal(name, value, expected));
  }

  @Override
  protected Session join(Session first) throws Exception {
    Schema created = first.schema(); // the table as the first client created it
    kv = created instanceof KvTable t ? t : null;
    columns = created instanceof ColumnsTable t ? t : null;
    return first.store().join();
  }

  @Override
  protected void leave(Session mine) throws SQLException {
    mine.store().leave(mine);
  }

  /** Every write runs in the client's transaction, committed every batchsize writes. */
  @Override
  protected WriteGroup writeGroup(Session mine, int batchSize) {
    transactions = new Transactions(mine, batchSize);
    return transactions;
  }

  // ---- The kv layout's primitives: KeyValueDB turns them into YCSB's operations. ----

  @Override
  protected byte[] get(Session s, byte[] key) throws SQLException {
    return kv().get(s, key);
  }

  @Override
  protected void put(Session s, byte[] key, byte[] value) throws SQLException {
    kv().put(s, key, value);
  }

  @Override
  protected boolean remove(Session s, byte[] key) throws SQLException {
    return kv().remove(s, key);
  }

  @Override
  protected void scan(Session s, byte[] start, int count, ValueSink sink) throws SQLException {
    kv().scan(s, start, count, sink);
  }

  /** The puts as one transaction of their own, after committing the client's open one. */
  @Override
  protected void applyBatch(Session s, byte[][] keys, byte[][] values, int count) throws SQLException {
    s.lock();
    try {
      s.commitPending();
      s.begin();
      try {
        for (int i = 0; i < count; i++) {
          put(s, keys[i], values[i]);
        }
        s.commit();
      } catch (SQLException | RuntimeException e) {
        s.abortWrite(e);
        throw e;
      }
    } finally {
      s.unlock();
    }
  }

  private KvTable kv() {
    if (kv == null) {
      throw new IllegalStateException("the " + columns + " table has no key-value primitives (sqlite.schema=columns)");
    }
    return kv;
  }

  // ---- YCSB's operations: KeyValueDB's for the kv layout, the columns layout's own for it. ----

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    if (columns == null) {
      return super.read(table, key, fields, result);
    }
    try {
      return columns.read(handle(), key, fields, result);
    } catch (Exception e) {
      return failed("read", key, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                     Vector<HashMap<String, ByteIterator>> result) {
    if (columns == null) {
      return super.scan(table, startkey, recordcount, fields, result);
    }
    try {
      return columns.scan(handle(), startkey, recordcount, fields, result);
    } catch (Exception e) {
      return failed("scan", startkey, e);
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    if (columns == null) {
      return super.insert(table, key, values);
    }
    try {
      diskSpaceFor(key.length() + fieldBytes(values));
      return columns.insert(handle(), transactions, key, values);
    } catch (Exception e) {
      return failed("insert", key, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    if (columns == null) {
      return super.update(table, key, values);
    }
    try {
      diskSpaceFor(key.length() + fieldBytes(values));
      return columns.update(handle(), transactions, key, values);
    } catch (Exception e) {
      return failed("update", key, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    if (columns == null) {
      return super.delete(table, key);
    }
    try {
      diskSpaceFor(key.length());
      return columns.delete(handle(), transactions, key);
    } catch (Exception e) {
      return failed("delete", key, e);
    }
  }
}
