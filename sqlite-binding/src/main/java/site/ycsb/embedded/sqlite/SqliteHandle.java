package site.ycsb.embedded.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.sqlite.BusyHandler;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

import site.ycsb.embedded.EngineFiles;

/**
 * One SQLite database file opened by this JVM: the process lock, the first connection (which
 * creates or checks the table and stays open until the last client leaves), the connections the
 * client threads join with, and the busy/locked waiting shared by all of them.
 *
 * <p>Waiting when another connection holds a lock, with the same bounded backoff (1, 2, 4 ... 64,
 * then 100 ms, until {@code busytimeout} ms in total):
 * <ul>
 *   <li>SQLITE_BUSY (another connection or process holds the file lock): a busy handler on every
 *       connection, which SQLite calls before it gives up.</li>
 *   <li>SQLITE_LOCKED (shared cache: another connection of this process holds a table lock; SQLite
 *       has no busy handler for it): the statement is run again.</li>
 * </ul>
 * Both are counted and printed when the database closes.
 */
final class SqliteHandle {

  /** The first 16 bytes of every SQLite database file. */
  private static final byte[] MAGIC = EngineFiles.SQLITE_HEADER;
  private static final int SQLITE_BUSY = 5;
  private static final int SQLITE_LOCKED = 6;
  private static final int SQLITE_CANTOPEN = 14;
  private static final int SQLITE_NOTADB = 26;
  private static final long MAX_DELAY_MS = 100;

  private final SqliteOptions options;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final Set<Session> sessions = ConcurrentHashMap.newKeySet();
  private final LongAdder busyWaits = new LongAdder();
  private final LongAdder lockedRetries = new LongAdder();
  private final LongAdder gaveUp = new LongAdder();
  private final BusyHandler busyHandler = new BusyHandler() {
    @Override
    protected int callback(int previous) {
      return waitBeforeRetry(previous, busyWaits) ? 1 : 0;
    }
  };
  private Session primary;
  /** The table as it is in the file: the asked-for layout, or an older kv layout found there. */
  private volatile Schema schema;

  private SqliteHandle(SqliteOptions options, FileChannel lockChannel, FileLock lock) {
    this.options = options;
    this.lockChannel = lockChannel;
    this.lock = lock;
    this.schema = options.schema();
  }

  /**
   * Opens the database and returns its first connection's session: refuses a file that is not
   * an SQLite database (without touching it), takes the process lock, applies and checks every
   * pragma, creates the table or checks that the existing one has this run's layout.
   */
  static Session open(SqliteOptions s) throws IOException {
    refuseIfNotSqlite(s.file());
    FileChannel channel = null;
    FileLock lock = null;
    if (s.processLock()) {
      channel = FileChannel.open(s.lockFile(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      } catch (IOException e) {
        channel.close();
        throw e;
      }
      if (lock == null) {
        channel.close();
        throw new IOException("SQLite database " + s.file().toAbsolutePath() + " is locked by another process"
            + " (another YCSB run holds " + s.lockFile().getFileName() + "); wait for it to finish, or set"
            + " sqlite.processlock=false to let several processes share the database as SQLite allows");
      }
    }
    SqliteHandle store = new SqliteHandle(s, channel, lock);
    try {
      store.primary = store.connect(true);
      return store.primary;
    } catch (SQLException | RuntimeException e) {
      store.releaseLock();
      throw explain(s, e);
    } catch (IOException e) {
      store.releaseLock();
      throw e;
    }
  }

  SqliteOptions options() {
    return options;
  }

  /** The table every client uses, as the first connection created or found it. */
  Schema schema() {
    return schema;
  }

  /** The session a client thread works with: its own connection, or the one shared connection under EXCLUSIVE. */
  Session join() throws SQLException, IOException {
    return options.exclusive() ? primary : connect(false);
  }

  /** A client leaves: its writes are committed and its own connection (not the shared one) closed. */
  void leave(Session mine) throws SQLException {
    mine.lock();
    try {
      mine.commitPending();
    } finally {
      mine.unlock();
      if (mine != primary) {
        mine.close();
      }
    }
  }

  /** Closes the database: the last writes, every connection, the process lock; prints the waits. */
  void close() throws SQLException, IOException {
    try {
      try {
        leave(primary);
      } finally {
        primary.close();
        for (Session left : sessions) {
          System.err.println("[sqlite] a client connection was still open at close; closing it");
          left.close();
        }
      }
    } finally {
      releaseLock();
      System.err.printf(Locale.ROOT, "[sqlite] lock waits: %d busy-handler waits (SQLITE_BUSY), %d statement"
          + " retries (SQLITE_LOCKED), %d gave up after %d ms; %s is %,d bytes%n", busyWaits.sum(),
          lockedRetries.sum(), gaveUp.sum(), options.busyTimeoutMs(), options.file().getFileName(),
          Files.exists(options.file()) ? Files.size(options.file()) : 0);
    }
  }

  void forget(Session s) {
    sessions.remove(s);
  }

  /** SQLITE_BUSY waits the busy handler made, SQLITE_LOCKED retries, and waits given up (for tests). */
  long[] waits() {
    return new long[] {busyWaits.sum(), lockedRetries.sum(), gaveUp.sum()};
  }

  /** The effective set-up as SQLite reports it on the first connection: one line. */
  String describe() {
    try {
      String sync = primary.pragma("synchronous");
      String[] syncNames = {"OFF", "NORMAL", "FULL", "EXTRA"};
      int syncLevel = Integer.parseInt(sync);
      return String.format(Locale.ROOT, "SQLite %s (sqlite-jdbc %s), %s: journal_mode=%s synchronous=%s"
              + " locking_mode=%s page_size=%s cache_size=%s mmap_size=%s wal_autocheckpoint=%s, %s cache, %s",
          primary.queryString("SELECT sqlite_version()"), primary.connection().getMetaData().getDriverVersion(),
          options.file().toAbsolutePath(), primary.pragma("journal_mode"),
          syncLevel >= 0 && syncLevel < 4 ? syncNames[syncLevel] : sync, primary.pragma("locking_mode"),
          primary.pragma("page_size"), primary.pragma("cache_size"), primary.pragma("mmap_size"),
          primary.pragma("wal_autocheckpoint"), options.sharedCache() ? "shared" : "private",
          options.exclusive() ? "one connection shared by every client thread (EXCLUSIVE locking)"
              : "one connection per client thread");
    } catch (SQLException | RuntimeException e) {
      return "SQLite (describing it failed: " + e + ")";
    }
  }

  /** Opens one connection and sets it up; the first also sets the page size and the table up. */
  private Session connect(boolean first) throws SQLException, IOException {
    SQLiteConfig config = new SQLiteConfig();
    // The open flag, not SQLiteConfig.setSharedCache: that one only acts on "file:" URIs.
    config.setOpenMode(options.sharedCache() ? SQLiteOpenMode.SHAREDCACHE : SQLiteOpenMode.PRIVATECACHE);
    config.setBusyTimeout(options.busyTimeoutMs());
    // Otherwise sqlite-jdbc prepares, runs and finalizes "SELECT last_insert_rowid()" after every
    // INSERT, for a getGeneratedKeys() the binding never calls.
    config.setGetGeneratedKeys(false);
    Connection c = config.createConnection("jdbc:sqlite:" + options.file().toAbsolutePath());
    Session s = new Session(this, c);
    sessions.add(s);
    try {
      BusyHandler.setHandler(c, busyHandler);
      setUp(s, first);
      if (first) {
        createOrCheckTable(s);
      }
      return s;
    } catch (SQLException | IOException | RuntimeException e) {
      try {
        s.close();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** Applies every pragma in the order SQLite needs, reading each back. */
  private void setUp(Session s, boolean first) throws SQLException, IOException {
    // Before the first access: with EXCLUSIVE set first, WAL needs no shared-memory file.
    expect(s, "locking_mode", options.lockingMode(), s.pragma("locking_mode = " + options.lockingMode()));
    if (first) {
      // Takes effect only while the file is still empty; checked after the table exists.
      s.pragma("page_size = " + options.pageSize());
    }
    // WAL is a property of the file; the other journal modes are set per connection.
    expect(s, "journal_mode", options.journalMode(), s.pragma("journal_mode = " + options.journalMode()));
    s.pragma("synchronous = " + options.synchronous());
    String[] levels = {"OFF", "NORMAL", "FULL", "EXTRA"};
    expect(s, "synchronous", options.synchronous(), levels[Integer.parseInt(s.pragma("synchronous"))]);
    s.pragma("cache_size = -" + options.cacheKib());
    expect(s, "cache_size", Long.toString(-options.cacheKib()), s.pragma("cache_size"));
    String mmap = s.pragma("mmap_size = " + options.mmapSize());
    if (first && mmap != null && Long.parseLong(mmap) != options.mmapSize()) {
      System.err.printf("[sqlite] WARNING: sqlite.mmapsize=%d became %s (this SQLite's maximum)%n",
          options.mmapSize(), mmap);
    }
    expect(s, "wal_autocheckpoint", Integer.toString(options.walAutocheckpoint()),
        s.pragma("wal_autocheckpoint = " + options.walAutocheckpoint()));
  }

  private void expect(Session s, String pragma, String wanted, String got) throws IOException {
    if (got == null || !got.equalsIgnoreCase(wanted)) {
      String hint = pragma.equals("journal_mode") && "wal".equalsIgnoreCase(got)
          ? " (leaving WAL needs the database to itself: is another connection or process using it?)" : "";
      throw new IOException("SQLite did not apply " + pragma + "=" + wanted + " to " + options.file().toAbsolutePath()
          + ": it reports " + pragma + "=" + got + hint);
    }
  }

  private void createOrCheckTable(Session s) throws SQLException, IOException {
    Schema wanted = options.schema();
    String sql = "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?";
    String existing = s.queryString(sql, wanted.table);
    if (existing == null) {
      s.execute(wanted.createIfMissing());
      existing = s.queryString(sql, wanted.table);
    }
    Schema found = wanted;
    if (!options.rowidLayoutSet() && wanted instanceof KvTable kv && !sameTable(wanted, existing)
        && sameTable(kv.otherLayout(), existing)) {
      // A kv table made under an earlier default (a rowid table until the default went back to
      // WITHOUT ROWID, or WITHOUT ROWID before that): the same statements work on both, so a
      // database loaded before stays readable.
      found = kv.otherLayout();
      System.err.printf("[sqlite] NOTE: %s holds the kv table %s; using it as it is (sqlite.withoutrowid=%b"
          + " was not set; new tables are %s)%n", options.file().toAbsolutePath(),
          found.withoutRowid ? "WITHOUT ROWID" : "as a rowid table", found.withoutRowid,
          wanted.withoutRowid ? "WITHOUT ROWID" : "rowid tables with a key index");
    }
    if (!sameTable(found, existing)) {
      throw new IOException("table " + wanted.table + " in " + options.file().toAbsolutePath()
          + " was created as\n    " + existing + "\n  and this run asks for\n    " + wanted.create
          + "\n  load and run must agree on sqlite.schema, sqlite.keytype, sqlite.withoutrowid,"
          + " sqlite.counterfield, fieldcount and fieldnameprefix (or start afresh with destroy=true)");
    }
    schema = found;
    String pageSize = s.pragma("page_size");
    if (options.pageSizeSet() && !pageSize.equals(Integer.toString(options.pageSize()))) {
      System.err.printf("[sqlite] WARNING: sqlite.pagesize=%d does not apply: %s was created with %s-byte pages"
          + " (the page size is fixed when the file is created; destroy=true starts afresh)%n",
          options.pageSize(), options.file().toAbsolutePath(), pageSize);
    }
    System.err.println("[sqlite] table: " + existing);
  }

  private static boolean sameTable(Schema schema, String existingCreate) {
    return Schema.normalized(schema.create).equals(Schema.normalized(existingCreate));
  }

  /**
   * The waiting policy for SQLITE_BUSY and SQLITE_LOCKED alike: 1, 2, 4 ... 64, then 100 ms
   * between attempts, while the total stays within the busy timeout. Counts each wait in
   * {@code waits}, and each time it gives up.
   */
  private boolean waitBeforeRetry(int previousAttempts, LongAdder waits) {
    long delay = previousAttempts < 7 ? 1L << previousAttempts : MAX_DELAY_MS;
    long waited = previousAttempts <= 7 ? (1L << previousAttempts) - 1 : 127 + MAX_DELAY_MS * (previousAttempts - 7);
    if (waited + delay > options.busyTimeoutMs()) {
      gaveUp.increment();
      return false;
    }
    waits.increment();
    try {
      Thread.sleep(delay);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Waits before a statement that met SQLITE_LOCKED runs again; rethrows anything else, or when time is up. */
  void backOff(SQLException e, int attempt) throws SQLException {
    if ((e.getErrorCode() & 0xFF) != SQLITE_LOCKED || !waitBeforeRetry(attempt, lockedRetries)) {
      throw e;
    }
  }

  private void releaseLock() throws IOException {
    if (lockChannel != null && lockChannel.isOpen()) {
      try {
        lock.release();
      } finally {
        lockChannel.close();
      }
    }
  }

  /** Refuses, before SQLite sees it, a non-empty file that does not start like an SQLite database. */
  static void refuseIfNotSqlite(Path file) throws IOException {
    if (!Files.isRegularFile(file) || Files.size(file) == 0) {
      return; // missing or empty: SQLite makes a new database of it
    }
    byte[] head = new byte[MAGIC.length];
    int n;
    try (InputStream in = Files.newInputStream(file)) {
      n = in.readNBytes(head, 0, head.length);
    }
    if (n < head.length || !Arrays.equals(head, MAGIC)) {
      throw new IOException(file.toAbsolutePath() + " is not an SQLite database (it does not start with"
          + " \"SQLite format 3\"); refusing to open it, and the file is left as it was. Point path or"
          + " sqlite.file elsewhere, or use destroy=true to replace it");
    }
  }

  /** SQLite's open errors with what they mean here. */
  private static IOException explain(SqliteOptions s, Exception e) {
    String where = s.file().toAbsolutePath().toString();
    int code = e instanceof SQLException ? ((SQLException) e).getErrorCode() & 0xFF : -1;
    String m = e.getMessage();
    switch (code) {
      case SQLITE_NOTADB:
        return new IOException(where + " is not an SQLite database (SQLite: " + m + "); the file is left as it was", e);
      case SQLITE_BUSY:
        return new IOException("SQLite database " + where + " is locked by another connection (SQLite: " + m
            + "); another process may hold it in locking_mode=EXCLUSIVE", e);
      case SQLITE_CANTOPEN:
        return new IOException("cannot open SQLite database " + where + " (SQLite: " + m + ")", e);
      default:
        return new IOException("cannot open SQLite database " + where + ": " + m, e);
    }
  }
}
