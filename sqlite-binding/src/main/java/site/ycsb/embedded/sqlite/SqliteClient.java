package site.ycsb.embedded.sqlite;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;

import site.ycsb.embedded.EngineFacts;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.KeyValueDB;
import site.ycsb.embedded.WriteGroup;

/**
 * YCSB binding for SQLite through sqlite-jdbc, the kv layout (engine {@code sqlite}): one table of
 * key and record-codec bytes, read and written through KeyValueDB's primitives. The properties are
 * {@link SqliteOptions}, the open database a {@link SqliteHandle}; the columns layout is
 * {@link SqliteColumnsClient}. Property table and schema: sqlite-binding/README.md.
 *
 * <p>Connections: the shared handle is the database's first connection ({@link SqliteHandle}); each
 * client thread joins with a connection of its own, so that WAL readers run in parallel, or,
 * under {@code locking_mode=EXCLUSIVE} (which lets only one connection use the file), with that
 * first connection itself, shared and used by one client at a time.
 *
 * <p>Writes: {@code batchsize} rows per transaction for every write (insert, update, delete),
 * not only inserts: a write runs at once inside the client's open transaction and answers
 * BATCHED_OK until the write that fills the batch commits it (OK); cleanup commits the rest.
 * With {@code batchsize=1} each write is its own transaction. This is KeyValueDB's write-grouping
 * hook ({@link Transactions}).
 */
public class SqliteClient extends KeyValueDB<Session> {

  /** The kv table, as the first client created or found it. */
  private KvTable kv;

  /**
   * Upstream YCSB 0.17's JDBC binding's property names, whose meaning differs from anything this binding does:
   * refused at start rather than ignored, each with what upstream meant and what to set instead.
   */
  private static final Map<String, String> UPSTREAM_REFUSED = Map.of(
      "db.url", "upstream's JDBC binding names the database with a JDBC URL; this binding takes a"
          + " directory: set path=DIR (and sqlite.file=NAME)",
      "db.batchsize", "upstream's JDBC binding batches inserts only; here batchsize groups every write"
          + " into one transaction: set batchsize=N",
      "jdbc.autocommit", "this binding commits every batchsize writes: set batchsize=N",
      "jdbc.batchupdateapi", "this binding always writes a batch in one transaction: set batchsize=N",
      "jdbc.fetchsize", "this binding reads a scan through one SQLite cursor: there is no fetch size");

  /** The engine, its property names in SqliteOptions (what the launcher takes as known: KeyValueDB.propertyNames). */
  private static final EngineFacts FACTS = EngineFacts.of("sqlite", SqliteOptions.class)
      .withUpstreamRefused(UPSTREAM_REFUSED);

  @Override
  protected EngineFacts facts() {
    return FACTS;
  }

  /** sqlite-jdbc unpacks its library from the jar: before YCSB's clock starts (see KeyValueDB). */
  @Override
  protected void loadEngineLibrary() throws Exception {
    org.sqlite.SQLiteJDBCLoader.initialize();
    // The driver's one-time set-up of its date formats (time zones, locale data: ~80 ms in a fresh
    // JVM, class-load log) happens at the first SQLiteConfig; like the library, before YCSB's clock.
    new org.sqlite.SQLiteConfig().toProperties();
  }

  /** The database file configure() read: a directory can hold several, each with its own layout record. */
  private String fileName;

  @Override
  protected String databaseFile() {
    return fileName;
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

  /** The table configure() read, by name. */
  private String tableName;

  /** An empty file, no table of this name, or a table whose root page holds no row: the open would find none. */
  @Override
  protected String noRecordInFiles(Path dir) throws IOException {
    return SqliteFileRecords.whyNone(dir.resolve(fileName), tableName);
  }

  @Override
  protected EngineOpener<Session> configure(EngineProperties props, Path dir) {
    SqliteOptions options = SqliteOptions.read(props, getProperties(), dir, keys(), columnsLayout());
    fileName = options.fileName();
    tableName = options.schema().table;
    processLock = options.processLock();
    return new EngineOpener<Session>() {
      @Override
      public Session open() throws IOException {
        return SqliteHandle.open(options);
      }

      @Override
      public void close(Session first) throws SQLException, IOException {
        first.store().close();
      }

      @Override
      public String describe(Session first) {
        StringBuilder sb = new StringBuilder(first.store().describe()); // the engine's line first, then the notes
        for (String note : options.notes()) {
          sb.append(System.lineSeparator()).append("[sqlite] ").append(note);
        }
        return sb.toString();
      }
    };
  }

  @Override
  protected Session join(Session first) throws Exception {
    useTable(first.schema()); // the table as the first client created it
    return first.store().join();
  }

  /** Whether this client's table is the columns layout ({@link SqliteColumnsClient}); the kv layout here. */
  boolean columnsLayout() {
    return false;
  }

  /** Takes the table the first connection created or found (its layout is this client's). */
  void useTable(Schema created) {
    kv = (KvTable) created;
  }

  /** The table's own test: the columns layout has no kv scan. */
  @Override
  protected boolean holdsNoRecord(Session mine) throws SQLException {
    return mine.schema().isEmpty(mine);
  }

  @Override
  protected void leave(Session mine) throws SQLException {
    mine.store().leave(mine);
  }

  /** Every write runs in the client's transaction, committed every batchsize writes. */
  @Override
  protected WriteGroup writeGroup(Session mine, int batchSize) {
    return new Transactions(mine, batchSize);
  }

  // ---- The kv table's primitives: KeyValueDB turns them into YCSB's operations. ----

  @Override
  protected byte[] get(Session s, byte[] key) throws SQLException {
    return kv.get(s, key);
  }

  @Override
  protected boolean contains(Session s, byte[] key) throws SQLException {
    return kv.contains(s, key);
  }

  @Override
  protected void put(Session s, byte[] key, byte[] value) throws SQLException {
    kv.put(s, key, value);
  }

  @Override
  protected boolean remove(Session s, byte[] key) throws SQLException {
    return kv.remove(s, key);
  }

  @Override
  protected void scan(Session s, byte[] start, int count, ValueSink sink) throws SQLException {
    kv.scan(s, start, count, sink);
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
}
