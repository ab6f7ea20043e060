package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;
import site.ycsb.embedded.workload.TraceSamples;
import site.ycsb.embedded.workload.TraceWorkload;

/**
 * The behaviour every binding must have, run against the real engine on a temporary directory.
 * A binding's test class extends this, names its client and adds engine-specific tests.
 */
public abstract class KeyValueDbContract {

  @TempDir
  protected Path tmp;

  private final List<DB> open = new ArrayList<>();
  private final String engine;
  private final Supplier<DB> clients;
  private final Class<?> options;
  private final String databaseFile;

  /**
   * The engine under test: its name ("leveldb"), how to make a new, not yet initialised client, and the class
   * holding its property-name constants (its {@code <Engine>Options}); its data directory is the database.
   */
  protected KeyValueDbContract(String engine, Supplier<DB> clients, Class<?> options) {
    this(engine, clients, options, null);
  }

  /**
   * As above, for an engine whose data directory can hold several databases, each a file with its own layout
   * record: {@code databaseFile} is the one a client opens by default.
   */
  protected KeyValueDbContract(String engine, Supplier<DB> clients, Class<?> options, String databaseFile) {
    this.engine = engine;
    this.clients = clients;
    this.options = options;
    this.databaseFile = databaseFile;
  }

  /** The engine name ("leveldb"). */
  protected final String engine() {
    return engine;
  }

  /** A new, not yet initialised client. */
  protected final DB newClient() {
    return clients.get();
  }

  /** Property values init() must refuse: {property, value} pairs. */
  protected abstract List<String[]> badProperties();

  /** Text that the error for a database held by another process contains (lower case). */
  protected String lockedMessage() {
    return "locked";
  }

  /** Operations per thread in the 4-thread test. */
  protected int opsPerThread() {
    return 10_000;
  }

  /**
   * Bytes this thread allocated per call of {@code op} over i = 0..999, in the last of six rounds of 20,000 (the
   * first five let the JIT compile the calls): the JVM's own count, which does not depend on a quiet machine.
   */
  protected static double bytesPerCall(java.util.function.IntFunction<Status> op) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    double perCall = 0;
    for (int round = 0; round < 6; round++) {
      long before = threads.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < 20_000; i++) {
        assertEquals(Status.OK, op.apply(i % 1000));
      }
      perCall = (threads.getCurrentThreadAllocatedBytes() - before) / 20_000.0;
    }
    return perCall;
  }

  /**
   * Bytes per insert and per update ({@link #bytesPerCall}) of one-field records of 100 bytes under 1000 keys, in a
   * database of their own, then a check that the last updates landed and a missing key's update is NOT_FOUND:
   * {insert, update}. The values are handed over ({@link HandedOverBytes}), so the workload's value costs its
   * 24-byte wrapper and no copy; the keys are made before the count.
   */
  protected final double[] oneFieldWriteAllocation() throws DBException {
    Properties p = properties(tmp.resolve("allocation"));
    p.setProperty("fieldcount", "1");
    DB db = open(p);
    String[] keys = new String[1000];
    byte[][] values = new byte[1000][];
    for (int i = 0; i < 1000; i++) {
      keys[i] = "user" + i;
      values[i] = ("value of " + i + " ".repeat(90)).substring(0, 100).getBytes(StandardCharsets.UTF_8);
    }
    Map<String, ByteIterator> one = new HashMap<>();
    double perInsert = bytesPerCall(i -> {
      one.put("field0", new HandedOverBytes(values[i]));
      return db.insert("usertable", keys[i], one);
    });
    double perUpdate = bytesPerCall(i -> {
      one.put("field0", new HandedOverBytes(values[999 - i]));
      return db.update("usertable", keys[i], one);
    });
    assertEquals(Map.of("field0", new String(values[999 - 5], StandardCharsets.UTF_8)), read(db, "user5", null));
    assertEquals(Status.NOT_FOUND, db.update("usertable", "user1000", one));
    assertEquals(Status.NOT_FOUND, db.read("usertable", "user1000", null, new HashMap<>()));
    return new double[] {perInsert, perUpdate};
  }

  /** Properties for a client on {@code dir}. */
  protected Properties properties(Path dir) {
    Properties p = new Properties();
    p.setProperty("path", dir.toString());
    return p;
  }

  protected final DB open(Properties p) throws DBException {
    return open(newClient(), p);
  }

  /** Opens {@code db}, another client class of the binding, like {@link #open(Properties)}; closed after the test. */
  protected final DB open(DB db, Properties p) throws DBException {
    db.setProperties(p);
    db.init();
    open.add(db);
    return db;
  }

  protected final DB open() throws DBException {
    return open(properties(tmp.resolve("db")));
  }

  protected final void close(DB db) throws DBException {
    open.remove(db);
    db.cleanup();
  }

  @AfterEach
  void closeLeftovers() throws DBException {
    for (DB db : new ArrayList<>(open)) {
      close(db);
    }
    assertEquals(0, SharedHandles.openCount(), "every shared handle closed by the last cleanup()");
  }

  protected static Map<String, ByteIterator> record(String... nameValue) {
    Map<String, ByteIterator> m = new HashMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      m.put(nameValue[i], new StringByteIterator(nameValue[i + 1]));
    }
    return m;
  }

  protected static Map<String, String> strings(Map<String, ByteIterator> m) {
    Map<String, String> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  protected static Map<String, String> read(DB db, String key, Set<String> fields) {
    Map<String, ByteIterator> result = new HashMap<>();
    Status s = db.read("usertable", key, fields, result);
    assertEquals(Status.OK, s, "read " + key);
    return strings(result);
  }

  /**
   * A ten-line trace (Twitter's format) loads and replays exactly its ten operations, in order, on the engine,
   * every one answered OK, and leaves what its writes wrote.
   */
  @Test
  void aTenLineTraceReplaysItsTenOperationsInOrder() throws Exception {
    Path trace = tmp.resolve("ten.csv");
    Files.writeString(trace, TraceSamples.TWITTER_TEN, StandardCharsets.ISO_8859_1);
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("fieldcount", "1");
    p.setProperty(TraceWorkload.FILE, trace.toString());
    p.setProperty(TraceWorkload.FILTER_BYTES, "1m");
    DB engine = open(p);
    List<String> log = new ArrayList<>();
    List<Status> statuses = new ArrayList<>();
    DB db = TraceSamples.logging(engine, log, statuses);
    TraceWorkload load = new TraceWorkload();
    load.init(p);
    TraceSamples.loadAll(load, db);
    assertEquals(TraceSamples.TWITTER_TEN_LOAD, log);
    log.clear();
    TraceWorkload run = new TraceWorkload();
    run.init(p);
    TraceSamples.replayAll(run, db);
    assertEquals(TraceSamples.TWITTER_TEN_OPS, log);
    assertEquals(12, statuses.size());
    statuses.forEach(s -> assertEquals(Status.OK, s, "every call of the replay: " + statuses));
    for (Map.Entry<String, Integer> e : TraceSamples.TWITTER_TEN_STORED.entrySet()) {
      Map<String, String> stored = read(engine, e.getKey(), null);
      assertEquals(1, stored.size(), e.getKey());
      assertEquals(e.getValue(), stored.values().iterator().next().length(), e.getKey());
    }
    assertEquals(Status.NOT_FOUND, engine.read("usertable", "nz:u:c3", null, new HashMap<>()));
  }

  @Test
  void crudReturnsWhatWasStored() throws Exception {
    DB db = open();
    assertEquals(Status.OK, db.insert("usertable", "user1", record("field0", "alpha", "field1", "beta", "field2", "")));
    assertEquals(Map.of("field0", "alpha", "field1", "beta", "field2", ""), read(db, "user1", null));
    assertEquals(Map.of("field1", "beta"), read(db, "user1", Set.of("field1")));
    assertEquals(Map.of(), read(db, "user1", Set.of("nosuchfield")));
    assertEquals(Status.NOT_FOUND, db.read("usertable", "user2", null, new HashMap<>()));
  }

  @Test
  void binaryValuesAndLargeValuesRoundTrip() throws Exception {
    DB db = open();
    byte[] all = new byte[256];
    for (int i = 0; i < 256; i++) {
      all[i] = (byte) i;
    }
    byte[] big = new byte[1 << 20];
    new Random(7).nextBytes(big);
    Map<String, ByteIterator> values = new HashMap<>();
    values.put("bin", new site.ycsb.ByteArrayByteIterator(all));
    values.put("big", new site.ycsb.ByteArrayByteIterator(big));
    assertEquals(Status.OK, db.insert("usertable", "k", values));
    Map<String, ByteIterator> got = new HashMap<>();
    assertEquals(Status.OK, db.read("usertable", "k", null, got));
    assertArrayEquals(all, got.get("bin").toArray());
    assertArrayEquals(big, got.get("big").toArray());
  }

  @Test
  void scanHonoursOrderStartKeyLengthAndFields() throws Exception {
    DB db = open();
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(1));
    for (int i : order) {
      String key = String.format("key%03d", i);
      assertEquals(Status.OK, db.insert("usertable", key, record("k", key, "other", "x" + i)));
    }
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, db.scan("usertable", "key042", 10, Set.of("k"), rows));
    assertEquals(10, rows.size());
    for (int i = 0; i < 10; i++) {
      assertEquals(Map.of("k", String.format("key%03d", 42 + i)), strings(rows.get(i)));
    }
    // A start key between two keys starts at the next one; a scan past the end stops there.
    rows.clear();
    assertEquals(Status.OK, db.scan("usertable", "key0975", 50, null, rows));
    assertEquals(2, rows.size());
    assertEquals(Map.of("k", "key098", "other", "x98"), strings(rows.get(0)));
    assertEquals("key099", rows.get(1).get("k").toString());
    rows.clear();
    assertEquals(Status.OK, db.scan("usertable", "", 1000, null, rows));
    assertEquals(100, rows.size());
  }

  /** The full pass counts (FullScanSink) exactly the rows and value bytes an ordinary scan returns. */
  @Test
  void aFullScanCountsWhatAnOrdinaryScanReturns() throws Exception {
    for (String fieldcount : new String[] {"10", "1"}) {
      Properties p = properties(tmp.resolve("db-" + fieldcount));
      p.setProperty("fieldcount", fieldcount);
      DB db = open(p);
      Random r = new Random(11);
      for (int i = 0; i < 300; i++) {
        Map<String, ByteIterator> rec = new HashMap<>();
        int fields = fieldcount.equals("1") ? 1 : 1 + r.nextInt(3);
        for (int f = 0; f < fields; f++) {
          byte[] v = new byte[r.nextInt(200)];
          r.nextBytes(v);
          rec.put("field" + f, new HandedOverBytes(v));
        }
        assertEquals(Status.OK, db.insert("usertable", String.format("key%04d", r.nextInt(10_000)), rec));
      }
      for (Set<String> fields : java.util.Arrays.asList(null, Set.of("field0"), Set.of("field1", "field2"))) {
        for (String[] from : new String[][] {{"", "100000"}, {"key5000", "40"}}) {
          Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
          assertEquals(Status.OK, db.scan("usertable", from[0], Integer.parseInt(from[1]), fields, rows));
          long bytes = 0;
          for (HashMap<String, ByteIterator> row : rows) {
            for (ByteIterator v : row.values()) {
              bytes += v.bytesLeft();
            }
          }
          site.ycsb.embedded.workload.FullScanSink counted = new site.ycsb.embedded.workload.FullScanSink();
          assertEquals(Status.OK, db.scan("usertable", from[0], Integer.parseInt(from[1]), fields, counted));
          String what = "fieldcount=" + fieldcount + " fields " + fields + " from '" + from[0] + "'";
          assertTrue(rows.size() > 0, what);
          assertEquals(rows.size(), counted.rows(), what);
          assertEquals(bytes, counted.bytes(), what);
        }
      }
      close(db);
    }
  }

  /** A 100 KB value handed over by the workload (no copy in Java) is stored and read back byte-identical. */
  @Test
  void aHandedOver100KbValueIsStoredByteIdentical() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("fieldcount", "1");
    DB db = open(p);
    byte[] value = new site.ycsb.embedded.workload.CompressibleValues(0.5, 9).next(100_000);
    byte[] want = value.clone();
    Map<String, ByteIterator> rec = new HashMap<>();
    rec.put("field0", new HandedOverBytes(value));
    assertEquals(Status.OK, db.insert("usertable", "large", rec));
    assertEquals(100_000, storedSize(db, "large"));
    close(db);
    db = open(p);
    Map<String, ByteIterator> got = new HashMap<>();
    assertEquals(Status.OK, db.read("usertable", "large", null, got));
    assertArrayEquals(want, got.get("field0").toArray());
    assertArrayEquals(want, value, "the store did not write into the handed-over array");
  }

  @Test
  void updateMergesFields() throws Exception {
    DB db = open();
    db.insert("usertable", "u", record("a", "1", "b", "2"));
    assertEquals(Status.OK, db.update("usertable", "u", record("b", "20", "c", "30")));
    assertEquals(Map.of("a", "1", "b", "20", "c", "30"), read(db, "u", null));
    assertEquals(Status.NOT_FOUND, db.update("usertable", "missing", record("a", "1")));
    assertEquals(Status.NOT_FOUND, db.read("usertable", "missing", null, new HashMap<>()),
        "an update of a missing key must not create it");
  }

  @Test
  void deleteRemovesTheRecord() throws Exception {
    DB db = open();
    db.insert("usertable", "d1", record("a", "1"));
    db.insert("usertable", "d2", record("a", "2"));
    assertEquals(Status.OK, db.delete("usertable", "d1"));
    assertEquals(Status.NOT_FOUND, db.read("usertable", "d1", null, new HashMap<>()));
    assertEquals(Map.of("a", "2"), read(db, "d2", null));
  }

  @Test
  void batchIsAppliedAtTheBoundaryAndByCleanup() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("batchsize", "100");
    DB db = open(p);
    for (int i = 0; i < 250; i++) {
      Status s = db.insert("usertable", String.format("b%04d", i), record("v", "value" + i));
      assertEquals((i + 1) % 100 == 0 ? Status.OK : Status.BATCHED_OK, s, "insert " + i);
    }
    DB reader = open(properties(tmp.resolve("db")));
    assertEquals(Map.of("v", "value199"), read(reader, "b0199", null), "first two batches applied");
    assertEquals(Status.NOT_FOUND, reader.read("usertable", "b0249", null, new HashMap<>()),
        "the last 50 wait in the batch");
    close(db);
    assertEquals(Map.of("v", "value249"), read(reader, "b0249", null), "cleanup() applied the rest");
    close(reader);
    DB again = open(properties(tmp.resolve("db")));
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    again.scan("usertable", "", 1000, null, rows);
    assertEquals(250, rows.size());
  }

  @Test
  void dataSurvivesCloseAndReopen() throws Exception {
    DB db = open();
    for (int i = 0; i < 500; i++) {
      db.insert("usertable", "r" + i, record("f", "v" + i));
    }
    close(db);
    assertEquals(0, SharedHandles.openCount());
    DB again = open();
    for (int i = 0; i < 500; i++) {
      assertEquals(Map.of("f", "v" + i), read(again, "r" + i, null));
    }
  }

  /** What one client thread does with its own client of a directory's shared handle. */
  @FunctionalInterface
  protected interface ClientWork<T> {
    T run(DB db, int thread) throws Exception;
  }

  /**
   * Runs {@code work} in {@code threads} threads at once, each with its own client of {@code dir}, initialised
   * in its thread and cleaned up after its work as YCSB's client threads do; returns the results in thread order.
   */
  protected final <T> List<T> inClientThreads(int threads, Path dir, ClientWork<T> work) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        futures.add(pool.submit(() -> {
          DB db = newClient();
          db.setProperties(properties(dir));
          db.init();
          try {
            return work.run(db, id);
          } finally {
            db.cleanup();
          }
        }));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get());
      }
      return results;
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void fourThreadsShareOneHandle() throws Exception {
    Path dir = tmp.resolve("db");
    int threads = 4;
    int ops = opsPerThread();
    AtomicInteger errors = new AtomicInteger();
    List<Map<String, String>> results = inClientThreads(threads, dir, (db, id) -> {
      Random r = new Random(id);
      Map<String, String> mine = new HashMap<>();
      for (int i = 0; i < ops; i++) {
        String key = "t" + id + "-" + r.nextInt(500);
        int op = r.nextInt(10);
        Status s;
        if (op < 4) {
          String v = "v" + i;
          s = db.insert("usertable", key, record("f", v));
          mine.put(key, v);
        } else if (op < 6 && mine.containsKey(key)) {
          String v = "u" + i;
          s = db.update("usertable", key, record("f", v));
          mine.put(key, v);
        } else if (op < 7) {
          s = db.delete("usertable", key);
          s = s == Status.NOT_FOUND ? Status.OK : s;
          mine.remove(key);
        } else if (op < 9) {
          Map<String, ByteIterator> got = new HashMap<>();
          s = db.read("usertable", key, null, got);
          String want = mine.get(key);
          if (want == null ? s != Status.NOT_FOUND : !(s == Status.OK && want.equals(got.get("f").toString()))) {
            errors.incrementAndGet();
          }
          s = Status.OK;
        } else {
          s = db.scan("usertable", key, 20, null, new Vector<>());
        }
        if (!s.isOk()) {
          errors.incrementAndGet();
        }
      }
      return mine;
    });
    Map<String, String> expected = new HashMap<>();
    results.forEach(expected::putAll);
    assertEquals(0, errors.get(), "failed operations or wrong contents");
    assertEquals(0, SharedHandles.openCount(), "the last cleanup() closed the shared handle");
    DB db = open(properties(dir));
    for (Map.Entry<String, String> e : expected.entrySet()) {
      assertEquals(Map.of("f", e.getValue()), read(db, e.getKey(), null));
    }
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    db.scan("usertable", "", Integer.MAX_VALUE, null, rows);
    assertEquals(expected.size(), rows.size(), "no deleted record came back, none was lost");
  }

  /**
   * An update reads the record, merges its fields in and writes it back. Four threads that each update their
   * own field of the same few records must keep each other's fields: a write between another update's read
   * and its write would put back a field's old value.
   */
  @Test
  void fourThreadsUpdatingTheirOwnFieldsOfSharedRecordsLoseNone() throws Exception {
    Path dir = tmp.resolve("db");
    int threads = 4;
    int keys = 4;
    int ops = Math.max(1_000, opsPerThread() / 2);
    DB first = open(properties(dir));
    for (int k = 0; k < keys; k++) {
      Map<String, ByteIterator> blank = record("f0", "-", "f1", "-", "f2", "-", "f3", "-");
      assertEquals(Status.OK, first.insert("usertable", "shared" + k, blank));
    }
    close(first); // the threads open the handle anew: the first to join writes alone until the next joins
    List<String[]> last = inClientThreads(threads, dir, (db, id) -> {
      Random r = new Random(id);
      String[] mine = new String[keys];
      Arrays.fill(mine, "-");
      for (int i = 0; i < ops; i++) {
        int k = r.nextInt(keys);
        // Only this thread writes its field: it still holds what this thread wrote last, unless another
        // thread's update wrote back a record it had read before that.
        Map<String, ByteIterator> now = new HashMap<>();
        assertEquals(Status.OK, db.read("usertable", "shared" + k, Set.of("f" + id), now));
        String held = now.get("f" + id).toString();
        if (!held.equals(mine[k])) {
          return new String[] {"shared" + k + ".f" + id + " went back from " + mine[k] + " to " + held};
        }
        String v = "t" + id + "-" + i;
        assertEquals(Status.OK, db.update("usertable", "shared" + k, record("f" + id, v)));
        mine[k] = v;
      }
      return mine;
    });
    for (String[] l : last) {
      assertTrue(l.length == keys, "an update was lost while the threads ran: " + l[0]);
    }
    DB after = open(properties(dir));
    int lost = 0;
    StringBuilder firstLost = new StringBuilder();
    for (int k = 0; k < keys; k++) {
      Map<String, String> got = read(after, "shared" + k, null);
      for (int t = 0; t < threads; t++) {
        if (!last.get(t)[k].equals(got.get("f" + t))) {
          lost++;
          if (firstLost.length() == 0) {
            firstLost.append("shared").append(k).append(".f").append(t).append(": wanted ").append(last.get(t)[k])
                .append(", found ").append(got.get("f" + t));
          }
        }
      }
      assertEquals(threads, got.size(), "shared" + k + " keeps exactly its four fields: " + got);
    }
    assertEquals(0, lost, "fields whose last update was lost to another thread's update; first: " + firstLost);
  }

  @Test
  void cleanupFromManyThreadsClosesOnce() throws Exception {
    Path dir = tmp.resolve("db");
    List<DB> clients = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      DB db = newClient();
      db.setProperties(properties(dir));
      db.init();
      db.insert("usertable", "c" + i, record("f", "v" + i));
      clients.add(db);
    }
    assertEquals(1, SharedHandles.openCount(), "one handle for eight clients");
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<?>> done = new ArrayList<>();
    for (DB db : clients) {
      done.add(pool.submit(() -> {
        db.cleanup();
        db.cleanup(); // a second cleanup() of the same client must not release twice
        return null;
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    assertEquals(0, SharedHandles.openCount());
    DB again = open(properties(dir));
    assertEquals(Map.of("f", "v7"), read(again, "c7", null));
  }

  /** Runs {@link ClientProcess} on {@code p} in a JVM of its own; returns exit code and output. */
  protected final String[] runInOtherProcess(Properties p) throws Exception {
    return runInOtherProcess(p, List.of());
  }

  /** The same with these JVM options, and {@code more} arguments after ClientProcess's two. */
  private String[] runInOtherProcess(Properties p, List<String> jvmOptions, String... more) throws Exception {
    return runInOtherProcess(p, jvmOptions, null, more);
  }

  /** The same in working directory {@code cwd} (null: this JVM's). */
  private String[] runInOtherProcess(Properties p, List<String> jvmOptions, Path cwd, String... more)
      throws Exception {
    Path file = Files.createTempFile(tmp, "client", ".properties");
    try (Writer w = new FileWriter(file.toFile(), StandardCharsets.UTF_8)) {
      p.store(w, null);
    }
    List<String> cmd = ChildJvm.javaCommand();
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of(ClientProcess.class.getName(), newClient().getClass().getName(), file.toString()));
    cmd.addAll(List.of(more));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    if (cwd != null) {
      pb.directory(cwd.toFile());
    }
    Process proc = pb.start();
    String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new String[] {Integer.toString(proc.waitFor()), out};
  }

  /**
   * A JVM started as the tests and bin/ycsb start them loads the engine's native code from the build: one that
   * ends without its exit hooks (a halted refusal, the crash check's kill -9) left each library's copy unpacked
   * into java.io.tmpdir behind (sqlite-jdbc's, lmdbjava's, leveldbjni's, one each per JVM).
   */
  @Test
  void aHaltedJvmLeavesNoNativeLibraryInTheTemporaryDirectory() throws Exception {
    Path temporary = Files.createDirectories(tmp.resolve("jvm-tmp"));
    String[] r = runInOtherProcess(properties(tmp.resolve("db")), List.of("-Djava.io.tmpdir=" + temporary), "halt");
    assertEquals("0", r[0], r[1]);
    assertTrue(r[1].contains("OPENED"), r[1]);
    try (java.util.stream.Stream<Path> left = Files.list(temporary)) {
      assertEquals(List.of(), left.map(f -> f.getFileName().toString()).toList());
    }
  }

  @Test
  void aSecondProcessIsRefusedClearly() throws Exception {
    Path dir = tmp.resolve("db");
    open(properties(dir));
    Map<String, String> before = EngineFileFixtures.listing(dir); // not snapshot(): reading drops our locks
    String[] r = runInOtherProcess(properties(dir));
    assertEquals("3", r[0], "the second process must be refused, it said:\n" + r[1]);
    assertTrue(r[1].toLowerCase().contains(lockedMessage()), "a clear message, got:\n" + r[1]);
    assertEquals(before, EngineFileFixtures.listing(dir), "the refused process changed nothing (no rotated LOG)");
  }

  @Test
  void aSecondProcessCannotDestroyADatabaseInUse() throws Exception {
    Path dir = tmp.resolve("db");
    DB db = open(properties(dir));
    assertEquals(Status.OK, db.insert("usertable", "keep", record("f", "me")));
    Properties destroy = properties(dir);
    destroy.setProperty("destroy", "true");
    String[] r = runInOtherProcess(destroy);
    assertEquals("3", r[0], "destroy of an open database must be refused, it said:\n" + r[1]);
    assertTrue(r[1].toLowerCase().contains("locked"), "a clear message, got:\n" + r[1]);
    assertEquals(Map.of("f", "me"), read(db, "keep", null), "nothing was deleted");
    close(db);
    DB again = open(properties(dir));
    assertEquals(Map.of("f", "me"), read(again, "keep", null), "the files survived too");
  }

  /**
   * Starts a process outside the project that has the database in {@code dir} open as the engine's own readers
   * have it (its own file lock, not the project's directory lock), and returns once it holds it: each binding's
   * test names one ({@code mdb_dump}, a Python sqlite3 connection in a read transaction ...).
   */
  protected abstract Process holdFromOutside(Path dir) throws Exception;

  /**
   * {@code destroy=true} must not delete a database another process has open: an LMDB environment
   * {@code mdb_dump} is reading, an SQLite file a Python connection holds in a read transaction, since such a
   * process takes the engine's lock, not the project's. A destroy takes the engine's own locks first: refused,
   * naming the process, every file left as it was.
   */
  @Test
  void destroyIsRefusedUntouchedWhileAProcessOutsideTheProjectHoldsTheDatabase() throws Exception {
    Path dir = tmp.resolve("db");
    loadAndClose(dir, 100);
    Process holder = holdFromOutside(dir);
    try {
      assertTrue(holder.isAlive(), "the other process holds the database");
      Properties p = properties(dir);
      p.setProperty("destroy", "true");
      assertRefusedUntouched(dir, p, "cannot destroy " + dir.toAbsolutePath(), "process " + holder.pid() + " (",
          "nothing was deleted");
    } finally {
      holder.destroyForcibly().waitFor();
    }
    assertLoaded(open(properties(dir)), 100);
  }

  /**
   * Runs {@code command} with its output piped and never read past its first line, and returns once that line
   * came: a dump tool (mdb_dump, kctreemgr list) then waits on the full pipe with its database open. Adds
   * {@code padding} records of 200 bytes to {@code dir} first, so that its output is longer than a pipe holds.
   */
  protected final Process holdWithUnreadOutput(Path dir, int padding, String... command) throws Exception {
    DB db = open(properties(dir));
    for (int i = 0; i < padding; i++) {
      assertEquals(Status.OK, db.insert("usertable", String.format("pad%06d", i), record("f", "p".repeat(200))));
    }
    close(db);
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String first = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(),
        StandardCharsets.UTF_8), 1).readLine();
    assertTrue(first != null && p.isAlive(), String.join(" ", command) + " holds the database open: " + first);
    return p;
  }

  /**
   * For {@link #holdWithPython}: takes the fcntl record lock over the whole file {@code argv[1]} ("exclusive"
   * or "shared" in {@code argv[2]}), as LevelDB, RocksDB and Kyoto Cabinet lock their files.
   */
  protected static final String LOCKF_WHOLE_FILE = "import fcntl, sys\nf = open(sys.argv[1], 'r+b')\n"
      + "fcntl.lockf(f, fcntl.LOCK_EX if sys.argv[2] == 'exclusive' else fcntl.LOCK_SH)";

  /** A python3 running {@code script} with {@code args}; returns once it printed "held". */
  protected static Process holdWithPython(String script, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("python3", "-c", script + "\nprint('held', flush=True)\n"
        + "import time\ntime.sleep(120)"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String said = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(),
        StandardCharsets.UTF_8)).readLine();
    assertEquals("held", said, "python3 holds the database");
    return p;
  }

  /**
   * A run phase on a mistyped path must not create an empty database and measure 1,000 NOT_FOUND reads with
   * exit 0. A run whose operations read records is refused on a database that does not exist (before
   * anything is created: YCSB's client exits 3), on one that holds no record, and with destroy=true (before
   * anything is deleted), unless allowemptyrun=true asks for it; a run of inserts alone may start from nothing.
   */
  @Test
  void aRunPhaseThatReadsRecordsIsRefusedOnAMissingOrEmptyDatabaseUnlessAsked() throws Exception {
    Path typo = tmp.resolve("typo");
    assertYcsbRefusesUntouched(typo, "this run phase reads records", "allowemptyrun=true", "nothing was created");
    assertFalse(Files.exists(typo), "the refused run created no directory");
    Properties run = properties(typo);
    run.setProperty("dotransactions", "true");
    assertRefusedUntouched(typo, run, "holds no " + engine() + " database", "allowemptyrun");

    Path empty = tmp.resolve("empty");
    close(open(properties(empty))); // an open that wrote nothing: the engine's files, no record
    Properties runEmpty = properties(empty);
    runEmpty.setProperty("dotransactions", "true");
    DBException e = assertThrows(DBException.class, () -> open(runEmpty));
    assertTrue(e.getMessage().contains("holds none") && e.getMessage().contains("allowemptyrun=true"),
        e.getMessage());
    assertEquals(0, SharedHandles.openCount());

    Path dir = tmp.resolve("db");
    loadAndClose(dir, 3);
    Properties destroyRun = properties(dir);
    destroyRun.setProperty("dotransactions", "true");
    destroyRun.setProperty("destroy", "true");
    assertRefusedUntouched(dir, destroyRun, "destroy", "allowemptyrun (false)", "nothing was deleted");
    destroyRun.setProperty("destroy", "false");
    assertLoaded(open(destroyRun), 3); // a run on a loaded database opens as before
    closeLeftovers();

    runEmpty.setProperty("allowemptyrun", "true");
    DB asked = open(runEmpty);
    assertEquals(Status.NOT_FOUND, asked.read("usertable", "user0", null, new HashMap<>()), "asked for: empty");
    close(asked);
    Properties inserts = properties(tmp.resolve("fresh"));
    inserts.setProperty("dotransactions", "true");
    inserts.setProperty("readproportion", "0");
    inserts.setProperty("updateproportion", "0");
    inserts.setProperty("insertproportion", "1");
    DB inserting = open(inserts);
    assertEquals(Status.OK, inserting.insert("usertable", "k", record("f", "v")));
    assertEquals(Map.of("f", "v"), read(inserting, "k", null));
  }

  /**
   * A run phase that reads records on a database that holds none is refused before the engine opens it: the
   * directory stays as it was, listing and mtimes included. The refusal came after the open, which had written
   * a new log and MANIFEST and rotated LOG (LevelDB, RocksDB), rewritten lock.mdb (LMDB), made a database of an
   * empty file (SQLite, Kyoto), and added the layout record.
   */
  @Test
  void aRunPhaseOnAnEmptyDatabaseIsRefusedBeforeItsOpenChangesAFile() throws Exception {
    Path made = tmp.resolve("made");
    close(open(properties(made))); // the engine's own empty database
    List<Path> empty = new ArrayList<>(List.of(made));
    empty.addAll(otherEmptyDatabases(tmp.resolve("other")));
    for (Path dir : empty) {
      EngineFileFixtures.age(dir); // a file anything rewrites gets a new mtime
      Properties run = properties(dir);
      run.setProperty("dotransactions", "true");
      assertRefusedUntouched(dir, run, "holds none", "allowemptyrun=true", "nothing in it was changed");
    }
    assertYcsbRefusesUntouched(made, "holds none", "nothing in it was changed");
  }

  /**
   * Directories under {@code under} that this engine's open would find empty, other than a new database: a 0-byte
   * database file, which the open would make a database of, one whose records were all deleted. None by default.
   */
  protected List<Path> otherEmptyDatabases(Path under) throws Exception {
    return List.of();
  }

  /** A database at {@code dir} that held {@code n} records, all deleted: empty, and no longer new. */
  protected final Path loadedAndEmptied(Path dir, int n) throws Exception {
    loadAndClose(dir, n);
    DB db = open(properties(dir));
    for (int i = 0; i < n; i++) {
      assertEquals(Status.OK, db.delete("usertable", "user" + i));
    }
    close(db);
    return dir;
  }

  /** The binding's bad property values and the engine-neutral ones every binding refuses. */
  private List<String[]> allBadProperties() {
    List<String[]> bad = new ArrayList<>(badProperties());
    bad.add(new String[] {"batchsize", "0"});
    bad.add(new String[] {"batchsize", "ten"});
    bad.add(new String[] {engine() + ".sync", "maybe"});
    bad.add(new String[] {"cachesize", "-5"});
    bad.add(new String[] {"recordlayout", "columns"});
    return bad;
  }

  @Test
  void badPropertyValuesAreRefusedByName() throws Exception {
    for (String[] pv : allBadProperties()) {
      Properties p = properties(tmp.resolve("bad"));
      p.setProperty(pv[0], pv[1]);
      assertRefusedUntouched(tmp.resolve("bad"), p, pv[0], "'" + pv[1] + "'", "expected");
      assertFalse(Files.exists(tmp.resolve("bad")), "a refused open creates no directory: " + pv[0]);
    }
  }

  /** A bad property on a directory that holds a database: refused, and the database left byte-identical. */
  @Test
  void aBadPropertyLeavesAnExistingDatabaseUntouched() throws Exception {
    Path dir = tmp.resolve("db");
    DB db = open(properties(dir));
    assertEquals(Status.OK, db.insert("usertable", "k", record("f", "v")));
    close(db);
    for (String[] pv : allBadProperties()) {
      Properties p = properties(dir);
      p.setProperty(pv[0], pv[1]);
      assertRefusedUntouched(dir, p, pv[0], "'" + pv[1] + "'");
    }
    assertEquals(Map.of("f", "v"), read(open(properties(dir)), "k", null));
  }

  /**
   * Opens {@code p} on {@code dir} and asserts that it is refused with a message containing each of
   * {@code inMessage}, that {@code dir} is exactly as it was (names, sizes, contents, mtimes, the
   * directory's own mtime; still missing if it was) and that no handle stayed open.
   */
  protected final DBException assertRefusedUntouched(Path dir, Properties p, String... inMessage) throws Exception {
    Map<String, String> before = EngineFileFixtures.snapshot(dir);
    DBException e = assertThrows(DBException.class, () -> open(p), "an open of " + dir);
    for (String part : inMessage) {
      assertTrue(e.getMessage().contains(part), "the refusal says '" + part + "': " + e.getMessage());
    }
    assertEquals(before, EngineFileFixtures.snapshot(dir), "the refused directory is byte-identical, listing"
        + " included: " + e.getMessage());
    assertEquals(0, SharedHandles.openCount());
    return e;
  }

  /**
   * Runs YCSB's own client on {@code dir} (run phase, workloadc's reads) and asserts that it exits 3 with
   * each of {@code inOutput} in its output and leaves {@code dir} exactly as it was.
   */
  protected final void assertYcsbRefusesUntouched(Path dir, String... inOutput) throws Exception {
    Map<String, String> before = EngineFileFixtures.snapshot(dir);
    Map<String, String> props = new java.util.HashMap<>();
    properties(dir).forEach((k, v) -> props.put((String) k, (String) v));
    props.putAll(Map.of("recordcount", "10", "operationcount", "10", "readproportion", "1",
        "updateproportion", "0"));
    String[] r = YcsbClientProcess.run(tmp, newClient().getClass().getName(), "-t", props);
    assertEquals("3", r[0], "a refused open must fail the run:\n" + r[1]);
    for (String part : inOutput) {
      assertTrue(r[1].contains(part), "the output says '" + part + "':\n" + r[1]);
    }
    assertEquals(before, EngineFileFixtures.snapshot(dir), "the refused directory is byte-identical:\n" + r[1]);
  }

  /** Inserts records user0..user{n-1} (field f = v0..) into a new database at {@code dir} and closes it. */
  protected final void loadAndClose(Path dir, int n) throws Exception {
    DB db = open(properties(dir));
    for (int i = 0; i < n; i++) {
      assertEquals(Status.OK, db.insert("usertable", "user" + i, record("f", "v" + i)));
    }
    close(db);
  }

  /** Asserts that {@code db} holds every record {@link #loadAndClose} wrote. */
  protected static void assertLoaded(DB db, int n) {
    for (int i = 0; i < n; i++) {
      assertEquals(Map.of("f", "v" + i), read(db, "user" + i, null));
    }
  }

  /**
   * Inserts {@code count} one-field records, user00000000 on, each field0 {@code size.applyAsInt(i)} random bytes
   * (seed 7), and asserts that a scan of them all and a scan of three from user00004999 return them in key order:
   * a binding whose scan fills a native buffer crosses many buffers, and values larger than one. Returns the values.
   */
  protected static List<byte[]> assertScansAcrossBuffers(DB db, int count, IntUnaryOperator size) {
    Random random = new Random(7);
    List<byte[]> stored = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] v = new byte[size.applyAsInt(i)];
      random.nextBytes(v);
      stored.add(v);
      Map<String, ByteIterator> rec = new HashMap<>();
      rec.put("field0", new ByteArrayByteIterator(v));
      assertEquals(Status.OK, db.insert("usertable", String.format("user%08d", i), rec));
    }
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, db.scan("usertable", "", 10_000, null, rows));
    assertEquals(stored.size(), rows.size());
    for (int i = 0; i < stored.size(); i++) {
      assertArrayEquals(stored.get(i), rows.get(i).get("field0").toArray(), "value " + i);
    }
    rows.clear();
    assertEquals(Status.OK, db.scan("usertable", "user00004999", 3, null, rows));
    assertEquals(3, rows.size());
    assertArrayEquals(stored.get(5000), rows.get(1).get("field0").toArray());
    assertArrayEquals(stored.get(5001), rows.get(2).get("field0").toArray());
    return stored;
  }

  /** Cuts {@code file} to half its size, as a copy interrupted or a disk that lost its tail would. */
  protected static void cutInHalf(Path file) throws IOException {
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
        java.nio.file.StandardOpenOption.WRITE)) {
      ch.truncate(ch.size() / 2);
    }
  }

  /** This engine's own files with garbage past their headers: refused by the engine or before it, untouched. */
  @Test
  void aGarbageDatabaseOfItsOwnEngineIsRefusedUntouched() throws Exception {
    EngineFiles.Engine own = java.util.Arrays.stream(EngineFiles.Engine.values())
        .filter(e -> e.binding.equals(engine())).findFirst().orElseThrow();
    Path dir = tmp.resolve("garbage");
    EngineFileFixtures.writeFilesOf(own, dir);
    assertRefusedUntouched(dir, properties(dir), dir.toString());
  }

  /**
   * A non-empty file no engine claims (an SQLite file whose header is damaged, a user's file) and LevelDB
   * files without CURRENT: every engine refuses the directory, naming the files, and creates nothing in it.
   */
  @Test
  void aDirectoryWithFilesNoEngineCanOpenIsRefusedUntouched() throws Exception {
    Path dir = tmp.resolve("unclaimed");
    EngineFileFixtures.writeFilesOf(EngineFiles.Engine.named("sqlite"), dir);
    byte[] db = Files.readAllBytes(dir.resolve("ycsb.db"));
    db[0] = 'X'; // the header's magic damaged
    Files.write(dir.resolve("ycsb.db"), db);
    Files.writeString(dir.resolve("notes.txt"), "a user's file");
    Files.write(dir.resolve("empty"), new byte[0]); // an empty file holds nothing to lose: not named
    Files.setLastModifiedTime(dir, java.nio.file.attribute.FileTime.fromMillis(1_600_000_000_000L));
    DBException e = assertRefusedUntouched(dir, properties(dir),
        dir.resolve("notes.txt") + ", " + dir.resolve("ycsb.db"), "no engine here claims");
    assertFalse(e.getMessage().contains("empty"), e.getMessage());

    Path noCurrent = tmp.resolve("no-current"); // LevelDB's tables and log alone: no engine's database
    EngineFileFixtures.writeFilesOf(EngineFiles.Engine.named("leveldb"), noCurrent);
    Files.delete(noCurrent.resolve("CURRENT"));
    Files.delete(noCurrent.resolve("MANIFEST-000002"));
    assertRefusedUntouched(noCurrent, properties(noCurrent), "no CURRENT", "000003.log, 000005.sst");
  }

  @Test
  void aMistypedEnginePropertyIsNamedAtStart() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty(engine() + ".cachesise", "64m");
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    java.io.PrintStream saved = System.err;
    System.setErr(new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      open(p);
    } finally {
      System.setErr(saved);
    }
    String printed = err.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("WARNING: property " + engine() + ".cachesise = '64m' is read by no part of this"
        + " run and is ignored; did you mean " + engine() + ".cachesize?"), printed);
    assertFalse(printed.contains("property " + engine() + ".path"), "a property it reads is not unknown");
  }

  /**
   * With strictproperties=true a name the binding does not read is refused, before anything is created; every
   * name it reads is one the launcher takes as known (KeyValueDB.propertyNames), so that none is warned about.
   */
  @Test
  void aMistypedEnginePropertyIsRefusedWhenStrictAndEveryNameReadIsKnown() throws Exception {
    Properties p = properties(tmp.resolve("strict"));
    p.setProperty(engine() + ".cachesise", "64m");
    p.setProperty("strictproperties", "true");
    assertRefusedUntouched(tmp.resolve("strict"), p, "property " + engine() + ".cachesise = '64m' is not allowed",
        "strictproperties=true");
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    java.io.PrintStream saved = System.err;
    System.setErr(new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
    Properties all = properties(tmp.resolve("db"));
    all.setProperty("verbose", "true"); // every property read, the defaults too
    DB db;
    try {
      db = open(all);
    } finally {
      System.setErr(saved);
    }
    java.util.SortedSet<String> known = ((KeyValueDB<?>) db).propertyNames();
    java.util.regex.Matcher read = java.util.regex.Pattern.compile("(?m)^  ([A-Za-z0-9_.]+) = ")
        .matcher(err.toString(StandardCharsets.UTF_8));
    int n = 0;
    for (; read.find(); n++) {
      assertTrue(known.contains(read.group(1)), read.group(1) + " is read but not in propertyNames " + known);
    }
    assertTrue(n > 8, "the effective configuration was printed:\n" + err);
  }

  /** The class holding the binding's property-name constants (its {@code <Engine>Options}). */
  protected final Class<?> optionsClass() {
    return options;
  }

  /**
   * The module README has a row for every property the binding reads: the engine-neutral knobs and every
   * public String constant of the binding's options class whose value is an engine property (not a
   * _DEFAULT value).
   */
  @Test
  void theReadmeListsEveryProperty() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    List<String> names = new ArrayList<>(List.of(EngineProperties.PATH, EngineProperties.DESTROY,
        EngineProperties.BATCH_SIZE, EngineProperties.SYNC, EngineProperties.COMPRESSION, EngineProperties.CACHE_SIZE,
        EngineProperties.WRITE_BUFFER_SIZE, KeyValueDB.RECORD_LAYOUT));
    for (java.lang.reflect.Field f : optionsClass().getFields()) {
      boolean constant = java.lang.reflect.Modifier.isStatic(f.getModifiers()) && f.getType() == String.class;
      if (constant && !f.getName().endsWith("_DEFAULT") && ((String) f.get(null)).startsWith(engine() + ".")) {
        names.add((String) f.get(null));
      }
    }
    assertTrue(names.size() > 8, "found the binding's properties: " + names);
    List<String> missing = new ArrayList<>();
    for (String n : names) {
      if (!readme.contains("| `" + n + "` |")) {
        missing.add(n);
      }
    }
    assertTrue(missing.isEmpty(), "README.md has no row for " + missing);
  }

  @Test
  void anUnwritableDirectoryIsRefusedClearly() throws IOException {
    Path file = Files.writeString(tmp.resolve("plainfile"), "not a directory");
    Properties p = properties(file.resolve("db"));
    DBException e = assertThrows(DBException.class, () -> open(p));
    assertTrue(e.getMessage().contains(file.toString()), "the message names the path: " + e.getMessage());
    assertEquals(0, SharedHandles.openCount());
  }

  @Test
  void destroyStartsFromAnEmptyDatabase() throws Exception {
    DB db = open();
    db.insert("usertable", "old", record("f", "1"));
    close(db);
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("destroy", "true");
    DB fresh = open(p);
    assertEquals(Status.NOT_FOUND, fresh.read("usertable", "old", null, new HashMap<>()));
    fresh.insert("usertable", "new", record("f", "2"));
    assertEquals(Map.of("f", "2"), read(fresh, "new", null));
  }

  @Test
  void destroyOnLoadKeepsDataForTheRunPhase() throws Exception {
    Properties load = properties(tmp.resolve("db"));
    load.setProperty("destroy", "load");
    load.setProperty("dotransactions", "false"); // what YCSB's Client sets for a load
    DB db = open(load);
    db.insert("usertable", "loaded", record("f", "1"));
    close(db);
    Properties run = properties(tmp.resolve("db"));
    run.setProperty("destroy", "load");
    run.setProperty("dotransactions", "true");
    DB runner = open(run);
    assertEquals(Map.of("f", "1"), read(runner, "loaded", null), "a run keeps what the load wrote");
    close(runner);
    DB reload = open(load);
    assertEquals(Status.NOT_FOUND, reload.read("usertable", "loaded", null, new HashMap<>()),
        "the next load starts empty");
  }

  @Test
  void oneFieldRecordsAreStoredBare() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("fieldcount", "1");
    DB db = open(p);
    byte[] value = new byte[100];
    new Random(3).nextBytes(value);
    Map<String, ByteIterator> rec = new HashMap<>();
    rec.put("field0", new site.ycsb.ByteArrayByteIterator(value));
    assertEquals(Status.OK, db.insert("usertable", "bare", rec));
    Map<String, ByteIterator> got = new HashMap<>();
    assertEquals(Status.OK, db.read("usertable", "bare", null, got));
    assertArrayEquals(value, got.get("field0").toArray());
    assertEquals(100, storedSize(db, "bare"), "fieldlength=100 stores 100 bytes");
    assertFalse(db.insert("usertable", "two", record("field0", "a", "field1", "b")).isOk(),
        "a two-field record cannot be stored bare");
  }

  @Test
  void keysThatOnceSharedBytesAreStoredApart() throws Exception {
    DB db = open();
    // Latin-1-or-UTF-8 by content made each pair the same bytes: the second insert replaced the first.
    String[][] pairs = {{"\u00E9\u0100", "\u00C3\u00A9\u00C4\u0080"}, {"k\u20AC", "k\u00E2\u0082\u00AC"}};
    for (String[] pair : pairs) {
      assertEquals(Status.OK, db.insert("usertable", pair[0], record("f", "first")));
      assertEquals(Status.OK, db.insert("usertable", pair[1], record("f", "second")));
      assertEquals(Map.of("f", "first"), read(db, pair[0], null), Keys.escape(pair[0]));
      assertEquals(Map.of("f", "second"), read(db, pair[1], null), Keys.escape(pair[1]));
    }
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, db.scan("usertable", "\u00E9\u0100", 1, null, rows));
    assertEquals(List.of(Map.of("f", "first")), List.of(strings(rows.get(0))), "a scan starts at the key's bytes");
  }

  @Test
  void aKeyWithALoneSurrogateIsAnErrorAndLeavesKeyQuestionMarkAlone() throws Exception {
    DB db = open();
    assertEquals(Status.OK, db.insert("usertable", "?", record("f", "question mark")));
    for (String bad : new String[] {"\uD800", "x\uDC00", "\u00E9\uD83D"}) {
      assertEquals(Status.ERROR, db.insert("usertable", bad, record("f", "surrogate")), Keys.escape(bad));
      assertEquals(Status.ERROR, db.update("usertable", bad, record("f", "surrogate")), Keys.escape(bad));
      assertEquals(Status.ERROR, db.read("usertable", bad, null, new HashMap<>()), Keys.escape(bad));
      assertEquals(Status.ERROR, db.delete("usertable", bad), Keys.escape(bad));
      assertEquals(Status.ERROR, db.scan("usertable", bad, 5, null, new Vector<>()), Keys.escape(bad));
    }
    assertEquals(Map.of("f", "question mark"), read(db, "?", null));
    assertEquals(Status.OK, db.insert("usertable", "k\uD83D\uDE00", record("f", "pair")), "a surrogate pair is fine");
    assertEquals(Map.of("f", "pair"), read(db, "k\uD83D\uDE00", null));
    close(db);
    DB again = open();
    assertEquals(Map.of("f", "question mark"), read(again, "?", null), "and nothing replaced it on disk");
  }

  @Test
  void keyencodingDecidesTheStoredBytes() throws Exception {
    Properties binary = properties(tmp.resolve("db"));
    binary.setProperty("keyformat", "binary"); // latin1: one byte per char
    DB db = open(binary);
    assertEquals(Status.OK, db.insert("usertable", "\u00C3\u00A9", record("f", "bytes C3 A9")));
    assertEquals(Status.OK, db.insert("usertable", "\u0000\u0000\u0000\u0000\u0000\u0000\u0001\u00FF",
        record("f", "binary")));
    assertEquals(Status.ERROR, db.insert("usertable", "\u0100", record("f", "x")), "latin1 has no U+0100");
    assertEquals(Map.of("f", "binary"), read(db, "\u0000\u0000\u0000\u0000\u0000\u0000\u0001\u00FF", null));
    close(db);
    // What a database written before layouts were recorded allows: its record gone, UTF-8 reads Latin-1's bytes.
    Files.delete(layoutRecord(tmp.resolve("db")));
    Properties utf8 = properties(tmp.resolve("db"));
    utf8.setProperty("keyformat", "binary");
    utf8.setProperty("keyencoding", "utf8");
    DB reader = open(utf8);
    assertEquals(Map.of("f", "bytes C3 A9"), read(reader, "\u00E9", null), "U+00E9 in UTF-8 is C3 A9");
    assertEquals(Status.NOT_FOUND, reader.read("usertable", "\u00C3\u00A9", null, new HashMap<>()));
  }

  /** The layout record of the database on {@code dir}: each file has its own where a directory holds several. */
  protected final Path layoutRecord(Path dir) {
    return DataLayout.recordOf(dir, databaseFile);
  }

  /** Opening {@code p} is refused, the message says each of {@code says}, and the directory stays as it was. */
  protected final void assertRefusedUntouched(Properties p, String... says) throws Exception {
    Path dir = Path.of(p.getProperty("path"));
    Map<String, String> before = EngineFileFixtures.snapshot(dir);
    DBException e = assertThrows(DBException.class, () -> open(p));
    for (String said : says) {
      assertTrue(e.getMessage().contains(said), "the refusal says '" + said + "': " + e.getMessage());
    }
    assertEquals(before, EngineFileFixtures.snapshot(dir), "the directory is byte-identical");
    assertEquals(0, SharedHandles.openCount());
  }

  /** Opens a client with {@code p}, inserts {@code rec} under {@code key} and closes it. */
  protected final void insertAndClose(Properties p, String key, Map<String, ByteIterator> rec) throws Exception {
    DB db = open(p);
    assertEquals(Status.OK, db.insert("usertable", key, rec), key);
    close(db);
  }

  /** {@code properties(dir)} with {@code name} set to {@code value}. */
  private Properties with(Path dir, String name, String value) {
    Properties p = properties(dir);
    p.setProperty(name, value);
    return p;
  }

  @Test
  void aReopenWithAnotherKeyEncodingIsRefusedNamingBoth() throws Exception {
    Path dir = tmp.resolve("db");
    Properties latin1 = with(dir, "keyencoding", "latin1");
    insertAndClose(latin1, "\u00C3\u00A9", record("f", "bytes C3 A9"));
    // With UTF-8, "\u00E9" is the bytes C3 A9: the other key's value.
    assertRefusedUntouched(properties(dir), "keyencoding = latin1 when it was created",
        "keyencoding = utf8 in this run (the default auto, with keyformat=ycsb)",
        "(recorded in " + layoutRecord(dir).getFileName() + ")", dir.toString());
    assertRefusedUntouched(with(dir, engine() + ".keyencoding", "utf8"), "keyencoding = latin1 when it was created",
        "keyencoding = utf8 in this run");
    DB again = open(latin1);
    assertEquals(Map.of("f", "bytes C3 A9"), read(again, "\u00C3\u00A9", null), "the database as it was written");
    assertEquals(Status.NOT_FOUND, again.read("usertable", "\u00E9", null, new HashMap<>()));
  }

  @Test
  void aSecondClientOfTheSameJvmWithAnotherLayoutIsRefused() throws Exception {
    Path dir = tmp.resolve("db");
    DB first = open(with(dir, "keyencoding", "latin1"));
    assertEquals(Status.OK, first.insert("usertable", "\u00C3\u00A9", record("f", "latin1")));
    DBException e = assertThrows(DBException.class, () -> open(properties(dir)), "it would join the open handle");
    assertTrue(e.getMessage().contains("keyencoding = latin1 when it was created") && e.getMessage().contains(
        "keyencoding = utf8 in this run"), e.getMessage());
    assertEquals(1, SharedHandles.openCount(), "the first client's handle stays open");
    assertEquals(Map.of("f", "latin1"), read(first, "\u00C3\u00A9", null));
    DB second = open(with(dir, "keyencoding", "latin1"));
    assertEquals(Map.of("f", "latin1"), read(second, "\u00C3\u00A9", null), "the same layout joins");
  }

  @Test
  void aReopenWithAnotherRecordLayoutIsRefusedNamingBoth() throws Exception {
    Path dir = tmp.resolve("db");
    Properties bare = with(dir, "fieldcount", "1");
    insertAndClose(bare, "k", record("field0", "a bare value"));
    // With the fields layout the bare value would not decode; with another prefix it comes back under another name.
    assertRefusedUntouched(properties(dir), "recordlayout = bare when it was created",
        "recordlayout = fields in this run (recordlayout=auto with fieldcount=10)");
    Properties fields = with(dir, "fieldcount", "1");
    fields.setProperty("recordlayout", "fields");
    assertRefusedUntouched(fields, "recordlayout = bare when it was created", "recordlayout = fields in this run");
    Properties prefix = with(dir, "fieldcount", "1");
    prefix.setProperty("fieldnameprefix", "col");
    assertRefusedUntouched(prefix, "fieldnameprefix = field when it was created", "fieldnameprefix = col in this run");
    DB again = open(bare);
    assertEquals(Map.of("field0", "a bare value"), read(again, "k", null));
    close(again);
    Path other = tmp.resolve("fields");
    insertAndClose(properties(other), "k", record("field0", "a", "field1", "b"));
    assertRefusedUntouched(with(other, "fieldcount", "1"), "recordlayout = fields when it was created",
        "recordlayout = bare in this run (recordlayout=auto with fieldcount=1)");
  }

  @Test
  void aDatabaseWithoutALayoutRecordOpensAndGetsOne() throws Exception {
    Path dir = tmp.resolve("db");
    Properties latin1 = with(dir, "keyencoding", "latin1");
    latin1.setProperty("verbose", "true"); // the layout line is one of every start-up line
    insertAndClose(latin1, "k\u00E9", record("f", "v"));
    assertTrue(Files.readString(layoutRecord(dir)).contains("keyencoding=latin1"));
    Files.delete(layoutRecord(dir)); // as a version before layouts were recorded left it
    String printed = capturingStderr(() -> {
      DB again = open(latin1);
      assertEquals(Map.of("f", "v"), read(again, "k\u00E9", null));
      close(again);
    });
    assertTrue(printed.contains("layout: recordlayout=fields, keyencoding=latin1") && printed.contains(
        "this directory has no record, written by a version before layouts were recorded: recorded now in "
        + layoutRecord(dir).getFileName()), printed);
    assertEquals(Map.of(Keys.ENCODING, "latin1", KeyValueDB.RECORD_LAYOUT, "fields"),
        filterCommon(DataLayout.read(layoutRecord(dir))), "recorded on that open");
    assertRefusedUntouched(properties(dir), "keyencoding = latin1 when it was created");
    String quiet = capturingStderr(() -> close(open(latin1)));
    assertTrue(quiet.contains("layout: recordlayout=fields, keyencoding=latin1") && quiet.contains("(as recorded in "),
        quiet);
    assertFalse(Files.exists(dir.resolve(layoutRecord(dir).getFileName() + ".tmp")), "no temporary file is left");
    assertEquals(List.of(engine()), EngineFiles.identify(dir).keySet().stream().map(e -> e.binding).toList(),
        "the record is no engine's file");
  }

  @Test
  void destroyDeletesTheLayoutRecordWithTheDatabase() throws Exception {
    Path dir = tmp.resolve("db");
    close(open(with(dir, "keyencoding", "latin1")));
    insertAndClose(with(dir, "destroy", "true"), "\u00E9", record("f", "utf8"));
    assertEquals("utf8", DataLayout.read(layoutRecord(dir)).get(Keys.ENCODING), "the new database's layout");
    assertEquals(Map.of("f", "utf8"), read(open(properties(dir)), "\u00E9", null));
  }

  /**
   * For a binding whose data directory holds several databases ({@code fileProperty} names one): each has its
   * own layout record, so a second database laid out otherwise opens beside the first, and each is checked.
   */
  protected final void databasesInOneDirectoryKeepTheirOwnLayouts(String fileProperty, String otherFile)
      throws Exception {
    Path dir = tmp.resolve("db");
    insertAndClose(with(dir, "keyencoding", "latin1"), "\u00C3\u00A9", record("f", "latin1"));
    Properties other = with(dir, fileProperty, otherFile);
    insertAndClose(other, "\u00E9", record("f", "utf8"));
    assertEquals("utf8", DataLayout.read(DataLayout.recordOf(dir, otherFile)).get(Keys.ENCODING));
    assertEquals("latin1", DataLayout.read(layoutRecord(dir)).get(Keys.ENCODING), "the first one's is untouched");
    DB reader = open(other);
    assertEquals(Map.of("f", "utf8"), read(reader, "\u00E9", null));
    close(reader);
    other.setProperty("keyencoding", "latin1");
    assertRefusedUntouched(other, "keyencoding = utf8 when it was created",
        "(recorded in " + DataLayout.FILE + "." + otherFile + ")");
  }

  /** The common entries of a record (a binding may add its own). */
  private static Map<String, String> filterCommon(DataLayout layout) {
    Map<String, String> out = new TreeMap<>(layout.entries());
    out.keySet().retainAll(Set.of(Keys.ENCODING, KeyValueDB.RECORD_LAYOUT, KeyValueDB.FIELD_NAME_PREFIX));
    return out;
  }

  @Test
  void anotherEnginesFilesAreRefusedAndLeftAsTheyWere() throws Exception {
    for (EngineFiles.Engine other : EngineFileFixtures.othersThan(engine())) {
      Path dir = tmp.resolve("from-" + other.binding);
      EngineFileFixtures.writeFilesOf(other, dir);
      Map<String, String> before = EngineFileFixtures.snapshot(dir);
      DBException e = assertThrows(DBException.class, () -> open(properties(dir)), other.title);
      assertTrue(e.getMessage().contains(other.title + " files") && e.getMessage().contains(dir.toString()),
          "the message names the engine and the directory: " + e.getMessage());
      assertEquals(before, EngineFileFixtures.snapshot(dir), "the directory is byte-identical, no lock file, no LOG");
      assertEquals(0, SharedHandles.openCount());
    }
  }

  @Test
  void destroyReplacesAnotherEnginesFilesOnlyWhenAskedToDeleteUnknownFiles() throws Exception {
    EngineFiles.Engine other = EngineFileFixtures.othersThan(engine()).get(0);
    Path dir = tmp.resolve("db");
    EngineFileFixtures.writeFilesOf(other, dir);
    Properties p = properties(dir);
    p.setProperty("destroy", "true");
    assertRefusedUntouched(p, "destroy would delete everything in " + dir.toAbsolutePath(), "Nothing was deleted",
        KeyValueDB.DESTROY_UNKNOWN_FILES + "=true");
    p.setProperty(KeyValueDB.DESTROY_UNKNOWN_FILES, "true");
    DB db = open(p);
    assertEquals(Status.OK, db.insert("usertable", "k", record("f", "v")));
    close(db);
    assertEquals(List.of(engine()), EngineFiles.identify(dir).keySet().stream().map(e -> e.binding).toList(),
        "only this engine's files are left");
    DB again = open(properties(dir));
    assertEquals(Map.of("f", "v"), read(again, "k", null), "its own files reopen");
  }

  /**
   * A user's files beside the database: destroy deletes only what it recognises as this engine's database and the
   * project's own files, and refuses, untouched, a directory that holds anything else until asked by name.
   */
  @Test
  void destroyRefusesUntouchedADirectoryHoldingAUsersFiles() throws Exception {
    Path dir = tmp.resolve("db");
    insertAndClose(properties(dir), "kept", record("f", "v"));
    Files.writeString(dir.resolve("notes.txt"), "mine");
    Files.createDirectories(dir.resolve("sub"));
    Files.writeString(dir.resolve("sub").resolve("a.txt"), "mine too");
    Properties destroy = with(dir, "destroy", "true");
    assertRefusedUntouched(destroy, "destroy would delete everything in " + dir.toAbsolutePath(),
        "2 entries that are not " + engine() + "'s database nor this project's: notes.txt, sub/", "Nothing was deleted",
        KeyValueDB.DESTROY_UNKNOWN_FILES + "=true");
    Files.delete(dir.resolve("sub").resolve("a.txt"));
    Files.delete(dir.resolve("sub"));
    Files.delete(dir.resolve("notes.txt"));
    assertEquals(Map.of("f", "v"), read(open(properties(dir)), "kept", null), "the database is still there");
    closeLeftovers();
    DB fresh = open(destroy); // only the engine's and the project's files left: destroyed as before
    assertEquals(Status.NOT_FOUND, fresh.read("usertable", "kept", null, new HashMap<>()));
    close(fresh);
    Files.writeString(dir.resolve("notes.txt"), "mine");
    destroy.setProperty(KeyValueDB.DESTROY_UNKNOWN_FILES, "true");
    close(open(destroy));
    assertFalse(Files.exists(dir.resolve("notes.txt")), "asked by name, destroy deletes everything");
  }

  /**
   * An empty or blank path ({@code -p path=$DIR} with DIR unset) named the working directory, which
   * {@code destroy} then emptied: refused before anything is touched, in a child JVM whose working directory holds
   * a user's files, so that a regression deletes those and not the test's module.
   */
  @Test
  void anEmptyPathIsRefusedBeforeAnythingIsTouched() throws Exception {
    Path cwd = Files.createDirectories(tmp.resolve("home"));
    Files.writeString(cwd.resolve("notes.txt"), "mine");
    Files.createDirectories(cwd.resolve("sub"));
    Files.writeString(cwd.resolve("sub").resolve("a.txt"), "mine too");
    for (String[] set : new String[][] {{"path", ""}, {"path", "  "}, {engine() + ".path", ""}}) {
      Properties p = properties(tmp.resolve("elsewhere"));
      p.setProperty(set[0], set[1]);
      p.setProperty("destroy", "true");
      p.setProperty(KeyValueDB.DESTROY_UNKNOWN_FILES, "true");
      Map<String, String> before = EngineFileFixtures.snapshot(cwd);
      String[] r = runInOtherProcess(p, List.of(), cwd);
      assertEquals("3", r[0], set[0] + "='" + set[1] + "' must be refused, it said:\n" + r[1]);
      assertTrue(r[1].contains("'" + set[1] + "' is not allowed") && r[1].contains("it is empty"), r[1]);
      assertEquals(before, EngineFileFixtures.snapshot(cwd), "the working directory is untouched");
    }
  }

  /** Properties for the full-disk test: small buffers and caches, so the engine's margin fits a small disk. */
  protected Properties fullDiskProperties(Path dir) {
    Properties p = properties(dir);
    p.setProperty("writebuffersize", "1m");
    p.setProperty("cachesize", "2m");
    return p;
  }

  /**
   * Fills a 48 MB tmpfs: LevelDB and Kyoto write through mmap, where a full disk was a SIGBUS that
   * killed the JVM. Now the insert that finds too little room is an ERROR naming the filesystem and
   * its free space, a reopen on the still-full disk is refused the same way, and once the disk has
   * room again every acknowledged record is there.
   */
  @Test
  void aFullDiskIsAnErrorAndLosesNoAcknowledgedRecord() throws Exception {
    Path mount = tmp.resolve("small");
    try (SmallFilesystem fs = SmallFilesystem.mount(mount, 48)) {
      try {
        fillUntilRefused(fs, mount);
      } finally {
        closeLeftovers(); // before the unmount: no engine file may stay open
      }
    }
  }

  private void fillUntilRefused(SmallFilesystem fs, Path mount) throws Exception {
    Properties p = fullDiskProperties(mount.resolve("db"));
    Map<String, byte[]> acknowledged = new java.util.LinkedHashMap<>();
    Random random = new Random(48);
    String printed = capturingStderr(() -> {
      DB db = open(p);
      // More errors than a JVM prints (keys UTF-8 cannot encode) before the disk fills: the refusal
      // must be said all the same. It was not, whenever earlier tests in the JVM had used the count up.
      for (int i = 0; i <= EngineErrors.PRINTED; i++) {
        assertEquals(Status.ERROR, db.insert("usertable", "lone\uD800" + i, new HashMap<>()), "unencodable key");
      }
      for (int i = 0; i < 100_000; i++) {
        byte[] value = new byte[4000]; // random bytes: no engine compresses them
        random.nextBytes(value);
        String key = String.format("full%06d", i);
        Map<String, ByteIterator> rec = new HashMap<>();
        rec.put("f", new site.ycsb.ByteArrayByteIterator(value));
        Status s = db.insert("usertable", key, rec);
        if (s != Status.OK) {
          assertEquals(Status.ERROR, s, "insert " + key);
          break;
        }
        acknowledged.put(key, value);
      }
      close(db);
    });
    assertTrue(acknowledged.size() > 100 && acknowledged.size() < 100_000,
        "some inserts succeed, then the disk is full: " + acknowledged.size() + " acknowledged");
    // The insert's own refusal, not a close's note about the same disk (LevelDB's close says it skips its flush).
    assertTrue(printed.lines().anyMatch(l -> l.contains("] insert of key 'full") && l.contains("mounted on " + mount)
        && l.contains("MB free") && l.contains("diskspacemargin")),
        "the refused insert names the filesystem and its free space:\n" + printed);

    Path filler = fs.fill("filler"); // whatever close freed: the disk is full for the reopen
    DBException refused = assertThrows(DBException.class, () -> open(p), "a reopen on a full disk");
    assertTrue(refused.getMessage().contains("mounted on " + mount) && refused.getMessage().contains("MB free"),
        "the refused open names the filesystem and its free space: " + refused.getMessage());
    assertEquals(0, SharedHandles.openCount());

    Files.delete(filler);
    fs.resize(200);
    DB again = open(p);
    for (Map.Entry<String, byte[]> e : acknowledged.entrySet()) {
      Map<String, ByteIterator> got = new HashMap<>();
      assertEquals(Status.OK, again.read("usertable", e.getKey(), null, got), "acknowledged " + e.getKey());
      assertArrayEquals(e.getValue(), got.get("f").toArray(), "contents of " + e.getKey());
    }
    close(again);
  }

  /** YCSB 0.17's own client exits 0 after a refused init(); under it the binding makes the exit 3. */
  @Test
  void ycsbsClientExitsNonZeroWhenTheBindingRefusesToOpen() throws Exception {
    Path file = Files.writeString(tmp.resolve("plainfile"), "not a directory");
    String binding = newClient().getClass().getName();
    String[] unwritable = YcsbClientProcess.run(tmp, binding, "-load",
        Map.of("path", file.resolve("db").toString(), "recordcount", "10"));
    assertEquals("3", unwritable[0], "an unwritable directory must fail the run:\n" + unwritable[1]);
    assertTrue(unwritable[1].contains("[ycsb-embedded] exit status 3: the binding refused to open: [" + engine()
        + "]") && unwritable[1].contains(file.toString()), unwritable[1]);
    String[] badProperty = YcsbClientProcess.run(tmp, binding, "-load",
        Map.of("path", tmp.resolve("db").toString(), "recordcount", "10", engine() + ".sync", "maybe"));
    assertEquals("3", badProperty[0], "a bad property value must fail the run:\n" + badProperty[1]);
    assertTrue(badProperty[1].contains("[ycsb-embedded] exit status 3: the binding refused to open: [" + engine()
        + "] property " + engine() + ".sync = 'maybe'"), badProperty[1]);
  }

  @Test
  void aDiskSpaceMarginAboveTheFreeSpaceRefusesTheOpen() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("diskspacemargin", "1000000g"); // more than any disk here has free
    assertRefusedUntouched(tmp.resolve("db"), p, "opening " + engine() + " refused", "MB free", "diskspacemargin");
    assertFalse(Files.exists(tmp.resolve("db")), "the refused open created no directory");
    p.setProperty(engine() + ".diskspacemargin", "0"); // 0: no check at all
    DB db = open(p);
    assertEquals(Status.OK, db.insert("usertable", "k", record("f", "v")));
    assertEquals(Map.of("f", "v"), read(db, "k", null));
  }

  /** Something to run with System.err captured. */
  @FunctionalInterface
  protected interface Action {
    void run() throws Exception;
  }

  /** Runs {@code action}, copying what it prints on System.err to the real one; returns the text. */
  protected static String capturingStderr(Action action) throws Exception {
    java.io.ByteArrayOutputStream copy = new java.io.ByteArrayOutputStream();
    java.io.PrintStream saved = System.err;
    java.io.OutputStream tee = new java.io.OutputStream() {
      @Override
      public void write(int b) {
        copy.write(b);
        saved.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        copy.write(b, off, len);
        saved.write(b, off, len);
      }
    };
    System.setErr(new java.io.PrintStream(tee, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setErr(saved);
    }
    return copy.toString(StandardCharsets.UTF_8);
  }

  /** The stored size of a record, read through the engine. */
  protected long storedSize(DB db, String key) throws Exception {
    byte[] stored = ((KeyValueDB<?>) db).storedBytes(key);
    assertNotNull(stored, key + " is stored");
    return stored.length;
  }
}
