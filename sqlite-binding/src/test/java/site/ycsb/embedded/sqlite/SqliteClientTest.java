package site.ycsb.embedded.sqlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.embedded.ClientProcess;
import site.ycsb.embedded.KeyValueDbContract;
import site.ycsb.embedded.RecordCodec;
import site.ycsb.embedded.SharedHandles;

class SqliteClientTest extends KeyValueDbContract {

  SqliteClientTest() {
    super("sqlite", SqliteClient::new, SqliteOptions.class, SqliteOptions.FILE_DEFAULT);
  }

  @Test
  void twoDatabasesInOneDirectoryKeepTheirOwnLayouts() throws Exception {
    databasesInOneDirectoryKeepTheirOwnLayouts(SqliteOptions.FILE, "other.db");
  }

  @Override
  protected int opsPerThread() {
    return 3_000;
  }

  /** Python's sqlite3 (its own SQLite) in a read transaction on the database file. */
  @Override
  protected Process holdFromOutside(Path dir) throws Exception {
    return holdWithPython("import sqlite3, sys\ncon = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        + "con.execute('BEGIN')\ncon.execute('SELECT count(*) FROM usertable').fetchone()",
        dir.resolve(SqliteOptions.FILE_DEFAULT).toString());
  }

  /**
   * A 0-byte ycsb.db (the open made a 12 KB database of it), a database with another table only (the open would
   * create usertable) and one whose records were all deleted.
   */
  @Override
  protected List<Path> otherEmptyDatabases(Path under) throws Exception {
    Path zero = Files.createDirectories(under.resolve("zero"));
    Files.write(zero.resolve("ycsb.db"), new byte[0]);
    Path other = Files.createDirectories(under.resolve("other-table"));
    try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + other.resolve("ycsb.db"));
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE notes (line TEXT)");
      st.execute("INSERT INTO notes VALUES ('a user''s row')");
    }
    return List.of(zero, other, loadedAndEmptied(under.resolve("emptied"), 300));
  }

  @Override
  protected List<String[]> badProperties() {
    return List.of(
        new String[] {"sqlite.journalmode", "fast"},
        new String[] {"sqlite.synchronous", "sometimes"},
        new String[] {"sqlite.lockingmode", "shared"},
        new String[] {"sqlite.pagesize", "1000"},
        new String[] {"sqlite.pagesize", "256"},
        new String[] {"sqlite.busytimeout", "-1"},
        new String[] {"sqlite.mmapsize", "lots"},
        new String[] {"sqlite.sharedcache", "maybe"},
        new String[] {"sqlite.walautocheckpoint", "-3"},
        new String[] {"sqlite.processlock", "perhaps"},
        new String[] {"sqlite.schema", "json"},
        new String[] {"sqlite.withoutrowid", "sometimes"},
        new String[] {"sqlite.keytype", "integer"},
        new String[] {"sqlite.counterfield", "field0"},
        new String[] {"sqlite.file", "sub/ycsb.db"},
        new String[] {"sqlite.file", ":memory:"},
        new String[] {"compression", "snappy"},
        new String[] {"sqlite.compression", "zlib"},
        new String[] {"sqlite.writebuffersize", "4m"});
  }

  /** Opens the columns layout's client (engine sqlite-columns). */
  private DB columns(Properties p) throws DBException {
    return open(new SqliteColumnsClient(), p);
  }

  /**
   * The columns layout has no kv scan: its run phase tells an empty table by a query of its own. A run reading
   * records on a loaded table opens (it was refused, the empty test failing on the kv table it lacks).
   */
  @Test
  void theColumnsLayoutRefusesARunOnAnEmptyTableAndRunsOnALoadedOne() throws Exception {
    close(columns(props("fieldcount", "2")));
    DBException e = assertThrows(DBException.class, () -> columns(props("fieldcount", "2", "dotransactions", "true")));
    assertTrue(e.getMessage().contains("holds none") && e.getMessage().contains("allowemptyrun=true"),
        e.getMessage());
    DB loader = columns(props("fieldcount", "2"));
    assertEquals(Status.OK, loader.insert("usertable", "user1", record("field0", "a", "field1", "b")));
    close(loader);
    DB runner = columns(props("fieldcount", "2", "dotransactions", "true"));
    assertEquals(Map.of("field0", "a", "field1", "b"), read(runner, "user1", null));
  }

  private Properties props(String... nameValue) {
    Properties p = properties(tmp.resolve("db"));
    for (int i = 0; i < nameValue.length; i += 2) {
      p.setProperty(nameValue[i], nameValue[i + 1]);
    }
    return p;
  }

  private static Session session(DB db) {
    return ((SqliteClient) db).handle();
  }

  private Connection rawConnection(int busyTimeoutMs) throws SQLException {
    SQLiteConfig c = new SQLiteConfig();
    c.setBusyTimeout(busyTimeoutMs);
    return c.createConnection("jdbc:sqlite:" + tmp.resolve("db").resolve("ycsb.db"));
  }

  private static String scalar(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  // ---- pragmas ----

  @Test
  void everyPragmaIsAppliedToEveryConnection() throws Exception {
    Properties p = props("sqlite.pagesize", "1024", "cachesize", "3m", "sqlite.synchronous", "NORMAL",
        "sqlite.mmapsize", "64m", "sqlite.walautocheckpoint", "500", "sqlite.busytimeout", "1234",
        "writebuffersize", "2m");
    DB a = open(p);
    DB b = open(p);
    assertNotSame(session(a), session(b), "a connection per client");
    assertNotSame(session(a).connection(), session(b).connection());
    for (DB db : List.of(a, b)) {
      Session s = session(db);
      assertEquals("wal", s.pragma("journal_mode"));
      assertEquals("1", s.pragma("synchronous"));
      assertEquals("normal", s.pragma("locking_mode"));
      assertEquals("1024", s.pragma("page_size"));
      assertEquals("-3072", s.pragma("cache_size"), "3 MB as -KiB");
      assertEquals(Long.toString(64L << 20), s.pragma("mmap_size"));
      assertEquals("500", s.pragma("wal_autocheckpoint"));
      assertEquals("0", s.pragma("busy_timeout"), "our busy handler replaces SQLite's timeout");
    }
    assertEquals(1234, session(a).store().options().busyTimeoutMs());
  }

  @Test
  void everyJournalModeAndSynchronousLevelIsApplied() throws Exception {
    String[] journals = {"DELETE", "TRUNCATE", "PERSIST", "MEMORY", "OFF", "WAL"};
    String[] syncs = {"OFF", "NORMAL", "FULL", "EXTRA"};
    for (int i = 0; i < journals.length; i++) {
      Properties p = properties(tmp.resolve("j" + i));
      p.setProperty("sqlite.journalmode", journals[i]);
      p.setProperty("sqlite.synchronous", syncs[i % syncs.length]);
      DB a = open(p);
      DB b = open(p);
      for (DB db : List.of(a, b)) {
        assertEquals(journals[i].toLowerCase(), session(db).pragma("journal_mode"), journals[i]);
        assertEquals(Integer.toString(i % syncs.length), session(db).pragma("synchronous"), syncs[i % syncs.length]);
      }
      assertEquals(Status.OK, a.insert("usertable", "k", record("f", "v" + i)));
      assertEquals(Map.of("f", "v" + i), read(b, "k", null));
      close(a);
      close(b);
    }
  }

  @Test
  void syncChoosesSynchronousUnlessSqliteSynchronousIsSet() throws Exception {
    DB plain = open(props());
    assertEquals("0", session(plain).pragma("synchronous"), "sync=false: OFF, writes reach the OS only");
    close(plain);
    DB sync = open(props("sync", "true"));
    assertEquals("2", session(sync).pragma("synchronous"), "sync=true: FULL");
    close(sync);
    DB both = open(props("sync", "true", "sqlite.synchronous", "NORMAL"));
    assertEquals("1", session(both).pragma("synchronous"), "sqlite.synchronous wins");
  }

  @Test
  void pageSizeIsFixedWhenTheFileIsCreated() throws Exception {
    DB db = open(props("sqlite.pagesize", "2048"));
    db.insert("usertable", "k", record("f", "v"));
    close(db);
    DB again = open(props("sqlite.pagesize", "8192"));
    assertEquals("2048", session(again).pragma("page_size"), "an existing file keeps its page size");
    assertEquals(Map.of("f", "v"), read(again, "k", null));
  }

  // ---- connections, locking, waiting ----

  @Test
  void sharedCacheReallySharesOnePageCache() throws Exception {
    for (boolean shared : new boolean[] {false, true}) {
      Path dir = tmp.resolve("shared-" + shared);
      Properties p = properties(dir);
      p.setProperty("sqlite.sharedcache", Boolean.toString(shared));
      p.setProperty("batchsize", "10");
      DB writer = open(p);
      DB reader = open(p);
      assertEquals(Status.BATCHED_OK, writer.insert("usertable", "u", record("f", "uncommitted")));
      // Only a connection in the same shared cache can read what another has not committed.
      session(reader).pragma("read_uncommitted = 1");
      Status s = reader.read("usertable", "u", null, new HashMap<>());
      assertEquals(shared ? Status.OK : Status.NOT_FOUND, s, "sharedcache=" + shared);
      close(writer);
      close(reader);
    }
  }

  @Test
  void sharedCacheReadersWaitForATableLockAndAreCounted() throws Exception {
    Properties p = props("sqlite.sharedcache", "true", "batchsize", "10", "sqlite.busytimeout", "5000");
    DB writer = open(p);
    DB reader = open(p);
    writer.insert("usertable", "a", record("f", "1")); // the writer's open transaction locks the table
    ExecutorService pool = Executors.newSingleThreadExecutor();
    Future<Status> read = pool.submit(() -> reader.read("usertable", "a", null, new HashMap<>()));
    Thread.sleep(300);
    assertFalse(read.isDone(), "the reader waits for the table lock");
    close(writer); // commits
    assertEquals(Status.OK, read.get(5, TimeUnit.SECONDS));
    pool.shutdown();
    long[] waits = session(reader).store().waits();
    assertTrue(waits[1] > 0, "SQLITE_LOCKED retries counted: " + java.util.Arrays.toString(waits));
    assertEquals(0, waits[2], "none gave up");
  }

  @Test
  void busyWritersWaitWithBoundedBackoffAndAreCounted() throws Exception {
    DB db = open(props("sqlite.busytimeout", "3000"));
    try (Connection other = rawConnection(0)) {
      try (Statement st = other.createStatement()) {
        st.execute("BEGIN IMMEDIATE");
      }
      ExecutorService pool = Executors.newSingleThreadExecutor();
      Future<?> release = pool.submit(() -> {
        Thread.sleep(300);
        try (Statement st = other.createStatement()) {
          st.execute("COMMIT");
        }
        return null;
      });
      long t0 = System.nanoTime();
      assertEquals(Status.OK, db.insert("usertable", "k", record("f", "v")), "waits, then writes");
      assertTrue(System.nanoTime() - t0 > 200_000_000L, "it really waited");
      release.get();
      pool.shutdown();
    }
    long[] waits = session(db).store().waits();
    assertTrue(waits[0] > 0, "busy-handler waits counted: " + java.util.Arrays.toString(waits));
    close(db);

    DB impatient = open(props("sqlite.busytimeout", "50"));
    try (Connection other = rawConnection(0); Statement st = other.createStatement()) {
      st.execute("BEGIN IMMEDIATE");
      long t0 = System.nanoTime();
      assertEquals(Status.ERROR, impatient.insert("usertable", "k2", record("f", "v")), "gives up");
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertTrue(ms < 2_000, "bounded by the busy timeout, took " + ms + " ms");
      assertTrue(session(impatient).store().waits()[2] > 0, "the give-up is counted");
      st.execute("ROLLBACK");
    }
  }

  @Test
  void exclusiveLockingSharesOneConnectionBetweenThreads() throws Exception {
    Path dir = tmp.resolve("db");
    Properties p = properties(dir);
    p.setProperty("sqlite.lockingmode", "EXCLUSIVE");
    p.setProperty("batchsize", "7");
    DB first = open(p);
    assertEquals("exclusive", session(first).pragma("locking_mode"));
    first.insert("usertable", "seed", record("f", "s"));
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicInteger errors = new AtomicInteger();
    List<Future<Map<String, String>>> results = new ArrayList<>();
    List<Session> sessions = new Vector<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      results.add(pool.submit(() -> {
        DB db = newClient();
        db.setProperties(p);
        db.init();
        sessions.add(session(db));
        Map<String, String> mine = new HashMap<>();
        Random r = new Random(id);
        try {
          for (int i = 0; i < 1500; i++) {
            String key = "x" + id + "-" + r.nextInt(100);
            int op = r.nextInt(4);
            Status s;
            if (op == 0 || !mine.containsKey(key)) {
              s = db.insert("usertable", key, record("f", "i" + i));
              mine.put(key, "i" + i);
            } else if (op == 1) {
              s = db.update("usertable", key, record("f", "u" + i));
              mine.put(key, "u" + i);
            } else if (op == 2) {
              s = db.delete("usertable", key);
              mine.remove(key);
            } else {
              Map<String, ByteIterator> got = new HashMap<>();
              s = db.read("usertable", key, null, got);
              if (s.isOk() && !got.get("f").toString().equals(mine.get(key))) {
                errors.incrementAndGet();
              }
            }
            if (!s.isOk()) {
              errors.incrementAndGet();
            }
          }
        } finally {
          db.cleanup();
        }
        return mine;
      }));
    }
    // Meanwhile nobody else can use the file: EXCLUSIVE keeps its lock.
    Thread.sleep(100);
    try (Connection outsider = rawConnection(0)) {
      SQLException e = assertThrows(SQLException.class, () -> scalar(outsider, "SELECT count(*) FROM usertable"));
      assertTrue(e.getMessage().contains("locked"), e.getMessage());
    }
    Map<String, String> expected = new HashMap<>();
    for (Future<Map<String, String>> f : results) {
      expected.putAll(f.get());
    }
    pool.shutdown();
    assertEquals(0, errors.get(), "no failed operation, no wrong content");
    for (Session s : sessions) {
      assertSame(session(first), s, "every client thread uses the one connection");
    }
    close(first);
    DB check = open(properties(dir));
    for (Map.Entry<String, String> e : expected.entrySet()) {
      assertEquals(Map.of("f", e.getValue()), read(check, e.getKey(), null));
    }
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    check.scan("usertable", "", Integer.MAX_VALUE, null, rows);
    assertEquals(expected.size() + 1, rows.size());
  }

  @Test
  void eightReadersAndOneWriterRunTogetherWithoutErrors() throws Exception {
    Path dir = tmp.resolve("db");
    DB loader = open(properties(dir));
    int keys = 500;
    for (int i = 0; i < keys; i++) {
      loader.insert("usertable", "k" + i, record("f", "v0-" + i));
    }
    close(loader);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger failures = new AtomicInteger();
    AtomicLong reads = new AtomicLong();
    AtomicLong writes = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(9);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 9; t++) {
      boolean writer = t == 0;
      int id = t;
      done.add(pool.submit(() -> {
        DB db = newClient();
        db.setProperties(properties(dir));
        db.init();
        Random r = new Random(id);
        try {
          for (int n = 0; !stop.get(); n++) {
            int k = r.nextInt(keys);
            if (writer) {
              if (db.update("usertable", "k" + k, record("f", "v" + n + "-" + k)) != Status.OK) {
                failures.incrementAndGet();
              }
              writes.incrementAndGet();
            } else {
              Map<String, ByteIterator> got = new HashMap<>();
              Status s = db.read("usertable", "k" + k, null, got);
              if (s != Status.OK || !got.get("f").toString().endsWith("-" + k)) {
                failures.incrementAndGet();
              }
              reads.incrementAndGet();
            }
          }
        } finally {
          db.cleanup();
        }
        return null;
      }));
    }
    Thread.sleep(2_500);
    stop.set(true);
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    assertEquals(0, failures.get(), "reads " + reads + ", writes " + writes);
    assertTrue(reads.get() > 1000 && writes.get() > 100, "both made progress: reads " + reads + ", writes " + writes);
  }

  @Test
  void connectionsAndStatementsAreClosedByCleanup() throws Exception {
    DB a = open();
    DB b = open();
    a.insert("usertable", "k", record("f", "v"));
    read(b, "k", null);
    Session first = session(a).store().join(); // a third connection, closed like a client's
    session(a).store().leave(first);
    assertTrue(first.isClosed() && first.connection().isClosed());
    Session sa = session(a);
    Session sb = session(b);
    close(a);
    assertTrue(sa.isClosed() && sa.connection().isClosed(), "a's connection closed by its cleanup");
    assertFalse(sb.isClosed(), "b's still open");
    close(b);
    assertTrue(sb.isClosed() && sb.connection().isClosed());
    sb.close(); // a second close does nothing
    assertEquals(0, SharedHandles.openCount());
  }

  // ---- files that are not ours ----

  @Test
  void aFileThatIsNotAnSqliteDatabaseIsRefusedAndLeftUntouched() throws Exception {
    Path dir = tmp.resolve("db");
    Files.createDirectories(dir);
    Path file = dir.resolve("ycsb.db");
    byte[] junk = new byte[4096];
    new Random(11).nextBytes(junk);
    Files.write(file, junk);
    DBException e = assertThrows(DBException.class, () -> open(properties(dir)));
    assertTrue(e.getMessage().contains("not an SQLite database") && e.getMessage().contains(file.toString()),
        e.getMessage());
    assertArrayEquals(junk, Files.readAllBytes(file), "the file is left as it was");
    assertFalse(Files.exists(dir.resolve("ycsb.db-wal")), "no WAL was started beside it");
    assertEquals(0, SharedHandles.openCount());

    // The right first 16 bytes and junk after them: SQLite itself refuses it.
    byte[] lookalike = junk.clone();
    System.arraycopy("SQLite format 3\0".getBytes(StandardCharsets.US_ASCII), 0, lookalike, 0, 16);
    Files.write(file, lookalike);
    e = assertThrows(DBException.class, () -> open(properties(dir)));
    assertTrue(e.getMessage().contains("not an SQLite database"), e.getMessage());
    assertArrayEquals(lookalike, Files.readAllBytes(file), "the file is left as it was");
  }

  @Test
  void aTableOfAnotherLayoutIsRefused() throws Exception {
    DB kv = open();
    kv.insert("usertable", "k", record("field0", "v"));
    close(kv);
    DBException e = assertThrows(DBException.class, () -> columns(props("sqlite.schema", "columns")));
    assertTrue(e.getMessage().contains("was created as") && e.getMessage().contains("destroy=true"), e.getMessage());
    DB again = open();
    assertEquals(Map.of("field0", "v"), read(again, "k", null), "the data is still there");
  }

  @Test
  void aSecondProcessMayShareTheDatabaseWhenProcessLockIsOff() throws Exception {
    Path dir = tmp.resolve("db");
    Properties p = properties(dir);
    p.setProperty("sqlite.processlock", "false");
    DB db = open(p);
    db.insert("usertable", "k", record("f", "v"));
    Path file = tmp.resolve("shared.properties");
    try (Writer w = new FileWriter(file.toFile(), StandardCharsets.UTF_8)) {
      p.store(w, null);
    }
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        ClientProcess.class.getName(), SqliteClient.class.getName(), file.toString());
    Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, proc.waitFor(), "SQLite in WAL mode lets a second process in:\n" + out);
    assertTrue(out.contains("OPENED"), out);
  }

  // ---- write grouping ----

  @Test
  void batchSizeGroupsUpdatesAndDeletesInTransactionsToo() throws Exception {
    DB loader = open();
    for (int i = 0; i < 5; i++) {
      loader.insert("usertable", "k" + i, record("f", "old" + i));
    }
    DB writer = open(props("batchsize", "3"));
    DB observer = loader;
    assertEquals(Status.BATCHED_OK, writer.update("usertable", "k0", record("f", "new0")));
    assertEquals(Status.NOT_FOUND, writer.update("usertable", "nope", record("f", "x")), "known at once");
    assertEquals(Status.BATCHED_OK, writer.delete("usertable", "k1"));
    assertEquals(Map.of("f", "new0"), read(writer, "k0", null), "the writer reads its own writes");
    assertEquals(Map.of("f", "old0"), read(observer, "k0", null), "others do not, yet");
    assertEquals(Status.OK, observer.read("usertable", "k1", null, new HashMap<>()));
    assertEquals(Status.OK, writer.update("usertable", "k2", record("f", "new2")), "the third write commits");
    assertEquals(Map.of("f", "new0"), read(observer, "k0", null));
    assertEquals(Status.NOT_FOUND, observer.read("usertable", "k1", null, new HashMap<>()));
    assertEquals(0, session(writer).pendingWrites());
    assertEquals(Status.BATCHED_OK, writer.delete("usertable", "k3"));
    assertEquals(Status.BATCHED_OK, writer.insert("usertable", "k9", record("f", "nine")));
    assertEquals(Status.OK, observer.read("usertable", "k3", null, new HashMap<>()));
    close(writer);
    assertEquals(Status.NOT_FOUND, observer.read("usertable", "k3", null, new HashMap<>()), "cleanup commits");
    assertEquals(Map.of("f", "nine"), read(observer, "k9", null));
  }

  @Test
  void applyBatchWritesItsPutsInOneTransaction() throws Exception {
    SqliteClient db = (SqliteClient) open(props("batchsize", "100"));
    assertEquals(Status.BATCHED_OK, db.insert("usertable", "before", record("f", "0")));
    byte[][] keys = {"b1".getBytes(), "b2".getBytes()};
    byte[][] values = {RecordCodec.fields().encode(record("f", "1")), RecordCodec.fields().encode(record("f", "2"))};
    db.applyBatch(db.handle(), keys, values, 2);
    assertEquals(0, db.handle().pendingWrites(), "the open transaction was committed first");
    DB other = open();
    assertEquals(Map.of("f", "0"), read(other, "before", null));
    assertEquals(Map.of("f", "2"), read(other, "b2", null));
  }

  // ---- the columns layout ----

  @Test
  void columnsLayoutStoresOneColumnPerField() throws Exception {
    DB db = columns(props("sqlite.schema", "columns", "fieldcount", "3"));
    assertEquals("CREATE TABLE \"usertable\" (\"YCSB_KEY\" BLOB PRIMARY KEY NOT NULL, \"field0\" TEXT,"
        + " \"field1\" TEXT, \"field2\" TEXT) WITHOUT ROWID",
        session(db).queryString("SELECT sql FROM sqlite_master WHERE name = 'usertable'"));
    assertEquals(Status.OK, db.insert("usertable", "u1", record("field0", "a", "field1", "b", "field2", "")));
    assertEquals(Status.OK, db.insert("usertable", "u2", record("field1", "only")));
    assertEquals(Map.of("field0", "a", "field1", "b", "field2", ""), read(db, "u1", null));
    assertEquals(Map.of("field1", "only"), read(db, "u2", null), "a field never written is absent");
    assertEquals(Map.of("field2", ""), read(db, "u1", Set.of("field2", "nosuchfield")));
    assertEquals(Map.of(), read(db, "u1", Set.of("nosuchfield")));
    assertEquals(Status.NOT_FOUND, db.read("usertable", "u3", null, new HashMap<>()));

    assertEquals(Status.OK, db.update("usertable", "u1", record("field1", "B")));
    assertEquals(Map.of("field0", "a", "field1", "B", "field2", ""), read(db, "u1", null), "one column changed");
    assertEquals(Status.OK, db.update("usertable", "u1", record("field0", "A", "field2", "C")));
    assertEquals(Map.of("field0", "A", "field1", "B", "field2", "C"), read(db, "u1", null));
    assertEquals(Status.NOT_FOUND, db.update("usertable", "u3", record("field0", "x")));
    assertEquals(Status.ERROR, db.insert("usertable", "u4", record("other", "x")), "no column for it");
    assertEquals(Status.NOT_FOUND, db.read("usertable", "u4", null, new HashMap<>()));

    for (int i = 0; i < 20; i++) {
      db.insert("usertable", String.format("s%02d", i), record("field0", "v" + i, "field1", "w" + i));
    }
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, db.scan("usertable", "s05", 3, Set.of("field0"), rows));
    assertEquals(List.of(Map.of("field0", "v5"), Map.of("field0", "v6"), Map.of("field0", "v7")),
        rows.stream().map(KeyValueDbContract::strings).toList());
    rows.clear();
    assertEquals(Status.OK, db.scan("usertable", "", 1000, null, rows));
    assertEquals(22, rows.size());
    assertEquals(Map.of("field0", "v0", "field1", "w0"), strings(rows.get(0)));

    assertEquals(Status.OK, db.delete("usertable", "u1"));
    assertEquals(Status.NOT_FOUND, db.delete("usertable", "u1"));
    assertEquals(Status.NOT_FOUND, db.read("usertable", "u1", null, new HashMap<>()));
    close(db);
    DB again = columns(props("sqlite.schema", "columns", "fieldcount", "3"));
    assertEquals(Map.of("field1", "only"), read(again, "u2", null), "survives reopen");
  }

  @Test
  void columnsLayoutKeysAreStoredOneToOneForBlobAndTextKeys() throws Exception {
    for (String keyType : new String[] {"blob", "text"}) {
      Properties p = props("sqlite.schema", "columns", "fieldcount", "1", "sqlite.keytype", keyType);
      p.setProperty("path", tmp.resolve(keyType).toString());
      DB db = columns(p);
      assertEquals(Status.OK, db.insert("usertable", "?", record("field0", "question mark")));
      assertEquals(Status.OK, db.insert("usertable", "\u00E9\u0100", record("field0", "first")));
      assertEquals(Status.OK, db.insert("usertable", "\u00C3\u00A9\u00C4\u0080", record("field0", "second")));
      assertEquals(Map.of("field0", "first"), read(db, "\u00E9\u0100", null), keyType);
      assertEquals(Map.of("field0", "second"), read(db, "\u00C3\u00A9\u00C4\u0080", null), keyType);
      assertEquals(Status.ERROR, db.insert("usertable", "\uD800", record("field0", "surrogate")), keyType);
      assertEquals(Status.ERROR, db.update("usertable", "\uD800", record("field0", "surrogate")), keyType);
      assertEquals(Status.ERROR, db.delete("usertable", "\uD800"), keyType);
      assertEquals(Status.ERROR, db.read("usertable", "\uD800", null, new HashMap<>()), keyType);
      assertEquals(Map.of("field0", "question mark"), read(db, "?", null), keyType);
      assertEquals("3", session(db).queryString("SELECT count(*) FROM usertable"), keyType);
      close(db);
    }
  }

  @Test
  void columnsLayoutWithIntegerKeyAndCounterIsTheSqliteNotesTable() throws Exception {
    DB db = columns(props("sqlite.schema", "columns", "fieldcount", "3", "keyformat", "decimal",
        "sqlite.keytype", "integer", "sqlite.counterfield", "field0", "batchsize", "2"));
    Session s = session(db);
    assertEquals("CREATE TABLE \"usertable\" (\"YCSB_KEY\" INTEGER PRIMARY KEY, \"field0\" INTEGER,"
        + " \"field1\" TEXT, \"field2\" TEXT)",
        s.queryString("SELECT sql FROM sqlite_master WHERE name = 'usertable'"));
    for (int i = 40; i < 50; i++) {
      db.insert("usertable", String.format("%010d", i),
          record("field0", "ignored", "field1", "a" + i, "field2", "b" + i));
    }
    assertEquals(Status.BATCHED_OK, db.update("usertable", "0000000042", record("field0", "whatever")));
    assertEquals(Status.OK, db.update("usertable", "0000000042", record("field0", "whatever")));
    assertEquals(Status.BATCHED_OK, db.update("usertable", "0000000042", record("field1", "changed")));
    assertEquals(Map.of("field0", "2", "field1", "changed", "field2", "b42"), read(db, "0000000042", null),
        "two increments, one text update");
    assertEquals("integer 42 2", s.queryString("SELECT typeof(YCSB_KEY) || ' ' || YCSB_KEY || ' ' || field0"
        + " FROM usertable WHERE YCSB_KEY = 42"));
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    db.scan("usertable", "", 3, Set.of("field1"), rows);
    assertEquals(List.of(Map.of("field1", "a40"), Map.of("field1", "a41"), Map.of("field1", "changed")),
        rows.stream().map(KeyValueDbContract::strings).toList());
    assertEquals(Status.ERROR, db.read("usertable", "user42", null, new HashMap<>()), "not a number");
    assertEquals(1, s.pendingWrites(), "the failed read left the open batch alone");
    close(db);
    DB again = columns(props("sqlite.schema", "columns", "fieldcount", "3", "keyformat", "decimal",
        "sqlite.keytype", "integer", "sqlite.counterfield", "field0"));
    assertEquals(Map.of("field1", "changed"), read(again, "0000000042", Set.of("field1")), "cleanup committed it");
  }

  @Test
  void eachLayoutIsAClientOfItsOwn() throws Exception {
    DBException e = assertThrows(DBException.class, () -> open(props("sqlite.schema", "columns")));
    assertTrue(e.getMessage().contains("sqlite.schema") && e.getMessage().contains("'columns'")
        && e.getMessage().contains("sqlite-columns"), "the kv client names the columns engine: " + e.getMessage());
    e = assertThrows(DBException.class, () -> columns(props("sqlite.schema", "kv")));
    assertTrue(e.getMessage().contains("sqlite.schema") && e.getMessage().contains("'kv'")
        && e.getMessage().contains("the engine sqlite"), e.getMessage());
    assertEquals(0, SharedHandles.openCount());
    DB db = columns(props("fieldcount", "2"));
    assertEquals("CREATE TABLE \"usertable\" (\"YCSB_KEY\" BLOB PRIMARY KEY NOT NULL, \"field0\" TEXT,"
        + " \"field1\" TEXT) WITHOUT ROWID",
        session(db).queryString("SELECT sql FROM sqlite_master WHERE name = 'usertable'"),
        "without sqlite.schema the columns client makes its own layout");
  }

  @Test
  void columnsLayoutPropertiesAreCheckedByName() {
    // {property, bad value, the other properties of the case}
    List<String[]> cases = List.of(
        new String[] {"sqlite.counterfield", "field7", "fieldcount", "3"},
        new String[] {"fieldcount", "64"},
        new String[] {"sqlite.keytype", "uuid"},
        new String[] {"sqlite.withoutrowid", "true", "sqlite.keytype", "integer", "keyformat", "decimal"},
        new String[] {"sqlite.keytype", "integer", "keyformat", "ycsb"});
    for (String[] c : cases) {
      Properties p = props("sqlite.schema", "columns", c[0], c[1]);
      for (int i = 2; i < c.length; i += 2) {
        p.setProperty(c[i], c[i + 1]);
      }
      DBException e = assertThrows(DBException.class, () -> columns(p), c[0] + "=" + c[1]);
      assertTrue(e.getMessage().contains(c[0]) && e.getMessage().contains("'" + c[1] + "'")
          && e.getMessage().contains("expected"), e.getMessage());
      assertEquals(0, SharedHandles.openCount());
    }
  }

  @Test
  void theKvTableCanBeARowidTableWithAKeyIndex() throws Exception {
    DB db = open(props("sqlite.withoutrowid", "false"));
    Session s = session(db);
    assertEquals("CREATE TABLE \"usertable\" (\"key\" BLOB PRIMARY KEY NOT NULL, \"value\" BLOB NOT NULL)",
        s.queryString("SELECT sql FROM sqlite_master WHERE name = 'usertable'"));
    assertEquals("sqlite_autoindex_usertable_1",
        s.queryString("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'usertable'"));
    db.insert("usertable", "k", record("f", "v"));
    assertEquals(Map.of("f", "v"), read(db, "k", null));
  }

  /** db_bench_sqlite3's table, one B-tree keyed by the key, with no rowid and no index. */
  @Test
  void theKvTableIsWithoutRowidByDefault() throws Exception {
    assertTrue(SqliteOptions.KV_WITHOUT_ROWID_DEFAULT);
    DB db = open();
    Session s = session(db);
    assertEquals("CREATE TABLE \"usertable\" (\"key\" BLOB PRIMARY KEY NOT NULL, \"value\" BLOB NOT NULL)"
        + " WITHOUT ROWID", s.queryString("SELECT sql FROM sqlite_master WHERE name = 'usertable'"));
    assertTrue(s.schema().withoutRowid);
    assertEquals("0", s.queryString("SELECT count(*) FROM sqlite_master WHERE type = 'index'"), "no separate index");
    db.insert("usertable", "k1", record("f", "one"));
    db.insert("usertable", "k1", record("f", "again"));
    db.insert("usertable", "k2", record("f", "two"));
    assertEquals(Map.of("f", "again"), read(db, "k1", null), "a second insert of a key replaces its row");
    assertEquals(Map.of("f", "two"), read(db, "k2", null));
    assertEquals("2", s.queryString("SELECT count(*) FROM usertable"), "one row per key");
  }

  /**
   * A kv table of either shape, made while that shape was asked for (or was the default), is used as it
   * is by a run that does not set sqlite.withoutrowid, with a NOTE when it is not this default's shape;
   * asked for by name, the other shape is refused.
   */
  @Test
  void aKvTableOfEitherShapeIsUsedAsItIsWhenTheShapeIsNotSet() throws Exception {
    for (boolean made : new boolean[] {false, true}) {
      Properties asMade = props("sqlite.withoutrowid", Boolean.toString(made));
      Path dir = tmp.resolve("made-" + made);
      asMade.setProperty("path", dir.toString());
      DB old = open(asMade);
      old.insert("usertable", "k", record("f", "before"));
      close(old);

      Properties unset = props();
      unset.setProperty("path", dir.toString());
      DB[] opened = new DB[1];
      String printed = capturingStderr(() -> opened[0] = open(unset));
      DB db = opened[0];
      Session s = session(db);
      assertEquals(made, s.schema().withoutRowid, "the shape found in the file");
      boolean other = made != SqliteOptions.KV_WITHOUT_ROWID_DEFAULT;
      assertEquals(other, printed.contains("[sqlite] NOTE:") && printed.contains("using it as it is"),
          "a NOTE exactly when the file's shape is not the default's: " + printed);
      assertEquals(Map.of("f", "before"), read(db, "k", null), "the earlier database stays readable");
      db.insert("usertable", "k2", record("f", "after"));
      assertEquals(Map.of("f", "after"), read(db, "k2", null));
      assertEquals(made, s.queryString("SELECT sql FROM sqlite_master WHERE name = 'usertable'")
          .endsWith("WITHOUT ROWID"), "the table is left as it was");
      close(db);

      Properties asked = props("sqlite.withoutrowid", Boolean.toString(!made));
      asked.setProperty("path", dir.toString());
      DBException e = assertThrows(DBException.class, () -> open(asked), "asked for by name, the other shape");
      assertTrue(e.getMessage().contains("was created as") && e.getMessage().contains("sqlite.withoutrowid"),
          e.getMessage());
      assertEquals(0, SharedHandles.openCount());
    }
  }

  @Test
  void connectionsDoNotFetchGeneratedKeysAfterEveryInsert() throws Exception {
    DB db = open(props("sqlite.lockingmode", "NORMAL"));
    SQLiteConnection c = (SQLiteConnection) session(db).connection();
    assertFalse(c.getConnectionConfig().isGetGeneratedKeys(),
        "sqlite-jdbc would run SELECT last_insert_rowid() after each INSERT");
    db.insert("usertable", "k", record("f", "v"));
    assertEquals(Map.of("f", "v"), read(db, "k", null));
  }
  /**
   * An SQLite file cut short, or whose header fields are damaged, is refused before SQLite opens it, untouched,
   * and through YCSB (a damaged magic is a file no engine claims: the contract tests it).
   */
  @Test
  void aFileCutShortOrWithADamagedHeaderIsRefusedUntouched() throws Exception {
    Path dir = tmp.resolve("db");
    loadAndClose(dir, 300);
    assertFalse(Files.exists(dir.resolve("ycsb.db-wal")), "the close checkpointed the WAL into the file");
    Path file = dir.resolve("ycsb.db");
    byte[] whole = Files.readAllBytes(file);
    cutInHalf(file);
    assertRefusedUntouched(dir, properties(dir), "ycsb.db is cut short: its header counts");
    assertYcsbRefusesUntouched(dir, "ycsb.db is cut short");
    whole[16] = 3; // page size 768: not a power of two
    whole[17] = 0;
    Files.write(file, whole);
    assertRefusedUntouched(dir, properties(dir),
        "the header of ycsb.db is damaged: it is not an SQLite database SQLite can open (page size 768");
  }

  /**
   * An update of a one-field record asks whether the row is there ({@code SELECT 1}) and reads no value out: it
   * allocates what sqlite-jdbc makes for its statements (the lookup, the put, the transaction's begin and commit),
   * not a copy of the stored value.
   */
  @Test
  void anUpdateOfAOneFieldRecordReadsNoValueOut() throws Exception {
    double[] perWrite = oneFieldWriteAllocation();
    // 248 here (the value's wrapper 24, sqlite-jdbc's statements the rest); a copy of the stored value adds 120
    assertTrue(perWrite[1] < 310, perWrite[1] + " bytes per update");
  }
}
