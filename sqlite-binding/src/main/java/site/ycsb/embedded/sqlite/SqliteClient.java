package site.ycsb.embedded.sqlite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.EngineProperties.BadPropertyException;
import site.ycsb.embedded.KeyValueDB;
import site.ycsb.embedded.Keys;

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
 * With {@code batchsize=1} each write is its own transaction.
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
  /** columns only: key column type blob, text (upstream JDBC's VARCHAR key) or integer (the rowid). */
  public static final String KEY_TYPE = "sqlite.keytype";
  public static final String KEY_TYPE_DEFAULT = "blob";
  /** columns only: a field stored as an INTEGER that starts at 0 and that an update increments. */
  public static final String COUNTER_FIELD = "sqlite.counterfield";

  /** The neutral writebuffersize has no SQLite counterpart: ignored, and refused when addressed to SQLite. */
  static final String WRITE_BUFFER_SIZE = "sqlite." + EngineProperties.WRITE_BUFFER_SIZE;

  private int batchSize;
  private Schema schema;

  @Override
  protected String engineName() {
    return "sqlite";
  }

  @Override
  protected EngineOpener<Session> configure(EngineProperties props, Path dir) {
    Properties raw = getProperties();
    List<String> notes = new ArrayList<>();
    // KeyValueDB has read and validated batchsize; a private reader keeps it to one header line.
    batchSize = new EngineProperties(raw, engineName()).integer(EngineProperties.BATCH_SIZE, 1, 1, 10_000_000);

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
    schema = schema(props, raw);

    Settings settings = new Settings(dir, fileName, schema, pageSize, props.isSet(PAGE_SIZE), cacheBytes >> 10,
        journal, synchronous, locking, sharedCache, busyTimeout, mmapSize, walCheckpoint, processLock, notes);
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
        if (raw.getProperty(columnsOnly) != null) {
          throw bad(columnsOnly, raw.getProperty(columnsOnly), "no value with sqlite.schema=kv: it applies to"
              + " sqlite.schema=columns");
        }
      }
      return Schema.kv(table, props.bool(WITHOUT_ROWID, true));
    }
    String keyType = props.choice(KEY_TYPE, KEY_TYPE_DEFAULT, "blob", "text", "integer");
    boolean integerKey = keyType.equals("integer");
    boolean withoutRowid = props.bool(WITHOUT_ROWID, !integerKey);
    if (integerKey && withoutRowid) {
      throw bad(WITHOUT_ROWID, "true", "false with sqlite.keytype=integer: an INTEGER PRIMARY KEY is the rowid");
    }
    if (integerKey && !raw.getProperty("keyformat", "ycsb").equalsIgnoreCase("decimal")) {
      throw bad(KEY_TYPE, keyType, "blob or text unless keyformat=decimal (an integer key must be a number),"
          + " and keyformat is " + raw.getProperty("keyformat", "ycsb (the default)"));
    }
    String count = raw.getProperty("fieldcount", "10").trim();
    int fieldCount;
    try {
      fieldCount = Integer.parseInt(count);
    } catch (NumberFormatException e) {
      fieldCount = -1;
    }
    if (fieldCount < 1 || fieldCount > Schema.MAX_FIELDS) {
      throw bad("fieldcount", count, "1 to " + Schema.MAX_FIELDS + " with sqlite.schema=columns (a column per field)");
    }
    String prefix = raw.getProperty("fieldnameprefix", "field");
    List<String> fields = new ArrayList<>();
    for (int i = 0; i < fieldCount; i++) {
      fields.add(prefix + i);
    }
    String counter = props.string(COUNTER_FIELD, "").trim();
    if (!counter.isEmpty() && !fields.contains(counter)) {
      throw bad(COUNTER_FIELD, counter, "one of the fields " + fields + " or nothing");
    }
    return Schema.columns(table, Schema.KeyType.valueOf(keyType.toUpperCase(Locale.ROOT)), withoutRowid, fields,
        counter.isEmpty() ? null : counter);
  }

  private static BadPropertyException bad(String name, String value, String expected) {
    return new BadPropertyException("property " + name + " = '" + value + "' is not allowed: expected " + expected);
  }

  @Override
  protected Session join(Session first) throws Exception {
    schema = first.schema(); // the table as the first client created it
    return first.store().join();
  }

  @Override
  protected void leave(Session mine) throws SQLException {
    mine.store().leave(mine);
  }

  // ---- The kv layout's primitives (KeyValueDB turns get and scan into read and scan). ----

  @Override
  protected byte[] get(Session s, byte[] key) throws SQLException {
    s.lock();
    try {
      PreparedStatement ps = s.prepared(s.schema().kvGet);
      ps.setBytes(1, key);
      try (ResultSet rs = s.query(ps)) {
        return rs.next() ? rs.getBytes(1) : null;
      }
    } finally {
      s.unlock();
    }
  }

  @Override
  protected void put(Session s, byte[] key, byte[] value) throws SQLException {
    s.lock();
    try {
      PreparedStatement ps = s.prepared(s.schema().kvPut);
      ps.setBytes(1, key);
      ps.setBytes(2, value);
      s.update(ps);
    } finally {
      s.unlock();
    }
  }

  @Override
  protected boolean remove(Session s, byte[] key) throws SQLException {
    s.lock();
    try {
      PreparedStatement ps = s.prepared(s.schema().kvDelete);
      ps.setBytes(1, key);
      return s.update(ps) > 0;
    } finally {
      s.unlock();
    }
  }

  @Override
  protected void scan(Session s, byte[] start, int count, ValueSink sink) throws SQLException {
    s.lock();
    try {
      PreparedStatement ps = s.prepared(s.schema().kvScan);
      ps.setBytes(1, start);
      ps.setInt(2, count);
      try (ResultSet rs = s.query(ps)) {
        while (rs.next()) {
          sink.accept(rs.getBytes(1));
        }
      }
    } finally {
      s.unlock();
    }
  }

  /**
   * The puts as one transaction of their own, after committing the client's open one. KeyValueDB
   * calls this only from its own insert, which this class replaces with transaction-grouped writes.
   */
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

  // ---- YCSB operations: writes grouped in transactions for both layouts; reads of the columns layout. ----

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    Session s = handle();
    try {
      diskSpaceFor(key.length() + fieldBytes(values));
      if (schema.isKv()) {
        byte[] k = Keys.bytes(key);
        byte[] v = codec().encode(values);
        return s.write(batchSize, false, () -> {
          put(s, k, v);
          return Status.OK;
        });
      }
      long mask = schema.writeMask(values.keySet());
      schema.checkKey(key);
      return s.write(batchSize, false, () -> {
        PreparedStatement ps = s.prepared(schema.insert);
        schema.bindKey(ps, 1, key);
        for (int i = 0; i < schema.fieldCount(); i++) {
          if (schema.isCounter(i)) {
            ps.setLong(i + 2, 0);
          } else if ((mask & (1L << i)) != 0) {
            ps.setBytes(i + 2, values.get(schema.field(i)).toArray());
          } else {
            ps.setNull(i + 2, java.sql.Types.BLOB);
          }
        }
        s.update(ps);
        return Status.OK;
      });
    } catch (Exception e) {
      return failed("insert", key, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    Session s = handle();
    try {
      diskSpaceFor(key.length() + fieldBytes(values));
      if (schema.isKv()) {
        byte[] k = Keys.bytes(key);
        // Read, merge, write: one transaction, so no other connection writes the row in between.
        return s.write(batchSize, true, () -> {
          byte[] stored = get(s, k);
          if (stored == null) {
            return Status.NOT_FOUND;
          }
          put(s, k, codec().merge(stored, values));
          return Status.OK;
        });
      }
      long mask = schema.writeMask(values.keySet());
      if (mask == 0) {
        return read(table, key, Set.of(), new HashMap<>()); // nothing to write: OK when the row exists
      }
      schema.checkKey(key);
      return s.write(batchSize, false, () -> {
        PreparedStatement ps = s.prepared(schema.update(mask));
        int param = 1;
        for (int i = 0; i < schema.fieldCount(); i++) {
          if ((mask & (1L << i)) != 0 && !schema.isCounter(i)) {
            ps.setBytes(param++, values.get(schema.field(i)).toArray());
          }
        }
        schema.bindKey(ps, param, key);
        return s.update(ps) > 0 ? Status.OK : Status.NOT_FOUND;
      });
    } catch (Exception e) {
      return failed("update", key, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    Session s = handle();
    try {
      diskSpaceFor(key.length());
      schema.checkKey(key);
      return s.write(batchSize, false, () -> {
        boolean deleted;
        if (schema.isKv()) {
          deleted = remove(s, Keys.bytes(key));
        } else {
          PreparedStatement ps = s.prepared(schema.delete);
          schema.bindKey(ps, 1, key);
          deleted = s.update(ps) > 0;
        }
        return deleted ? Status.OK : Status.NOT_FOUND;
      });
    } catch (Exception e) {
      return failed("delete", key, e);
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    if (schema.isKv()) {
      return super.read(table, key, fields, result);
    }
    Session s = handle();
    try {
      long mask = schema.readMask(fields);
      schema.checkKey(key);
      s.lock();
      try {
        PreparedStatement ps = s.prepared(schema.select(mask));
        schema.bindKey(ps, 1, key);
        try (ResultSet rs = s.query(ps)) {
          if (!rs.next()) {
            return Status.NOT_FOUND;
          }
          row(rs, mask, result);
          return Status.OK;
        }
      } finally {
        s.unlock();
      }
    } catch (Exception e) {
      return failed("read", key, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                     Vector<HashMap<String, ByteIterator>> result) {
    if (schema.isKv()) {
      return super.scan(table, startkey, recordcount, fields, result);
    }
    Session s = handle();
    try {
      long mask = schema.readMask(fields);
      if (!startkey.isEmpty()) {
        schema.checkKey(startkey);
      }
      s.lock();
      try {
        PreparedStatement ps = s.prepared(schema.scan(mask));
        schema.bindScanStart(ps, 1, startkey);
        ps.setInt(2, recordcount);
        try (ResultSet rs = s.query(ps)) {
          while (rs.next()) {
            HashMap<String, ByteIterator> row = new HashMap<>();
            row(rs, mask, row);
            result.add(row);
          }
        }
        return Status.OK;
      } finally {
        s.unlock();
      }
    } catch (Exception e) {
      return failed("scan", startkey, e);
    }
  }

  /** One row of the columns layout: the mask's fields in column order; a NULL column is an absent field. */
  private void row(ResultSet rs, long mask, Map<String, ByteIterator> out) throws SQLException {
    int col = 1;
    for (int i = 0; i < schema.fieldCount(); i++) {
      if ((mask & (1L << i)) == 0) {
        continue;
      }
      if (schema.isCounter(i)) {
        long v = rs.getLong(col++);
        if (!rs.wasNull()) {
          out.put(schema.field(i), new ByteArrayByteIterator(Long.toString(v).getBytes(StandardCharsets.US_ASCII)));
        }
      } else {
        byte[] v = rs.getBytes(col++);
        if (v != null) {
          out.put(schema.field(i), new ByteArrayByteIterator(v));
        }
      }
    }
  }
}
