package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static site.ycsb.embedded.bench.LibraryDBTest.key;
import static site.ycsb.embedded.bench.LibraryDBTest.value;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.embedded.HandedOverBytes;

/**
 * The paired operations are only a measurement if both paths use the engine: every read, whichever path the coin
 * sent it down, returns the stored value or NOT_FOUND, every update lands (read back through the pair and through a
 * new handle), both paths are taken, and the counts and times printed at the close add up to the operations made,
 * split between the two paths, with the engine calls inside each operation's time.
 */
class PairedOpsTest {

  private static final int RECORDS = 64;
  private static final int PASSES = 4;

  @ParameterizedTest
  @ValueSource(strings = {"leveldb", "leveldb:leveldb.library=system", "rocksdb", "rocksdb:rocksdb.blindupdates=true",
      "sqlite", "kyoto", "lmdb"})
  void bothPathsReadAndUpdateTheEngineAndTheCountsAddUp(String spec, @TempDir Path dir) throws Exception {
    String timed = Engines.named(spec.split(":")[0]).timedClass();
    loadThrough((DB) Class.forName(timed).getDeclaredConstructor().newInstance(), spec, dir);

    String text = paired(spec, dir, timed, db -> {
      for (int pass = 0; pass < PASSES; pass++) {
        readsBack(db, i -> value(i));
        assertEquals(Status.NOT_FOUND, db.read("usertable", key(RECORDS + pass), null, new HashMap<>()));
      }
      // Each pass overwrites every record with the pass's own value, by either path, and reads them all back.
      for (int pass = 0; pass < PASSES; pass++) {
        int round = pass;
        for (int i = 0; i < RECORDS; i++) {
          assertEquals(Status.OK, db.update("usertable", key(i), Map.of("field0",
              new HandedOverBytes(updated(i, round)))), "update " + i);
        }
        readsBack(db, i -> updated(i, round));
      }
      assertEquals(Status.NOT_IMPLEMENTED, db.insert("usertable", key(0), Map.of()));
    });
    long reads = 0;
    long updates = 0;
    for (String path : PairedOps.PATHS) {
      reads += checked(text, "READ", path);
      updates += checked(text, "UPDATE", path);
    }
    long readCalls = (long) PASSES * (RECORDS + 1) + (long) PASSES * RECORDS;
    assertEquals(readCalls, reads, text);
    assertEquals((long) PASSES * RECORDS, updates, text);
    assertEquals((long) PASSES * RECORDS, figure(text, EngineCalls.PREFIX + "PUT], Operations"), text);
    // Where the binding's updates read the record before they write (all but RocksDB's blind updates), so do the thin
    // path's: one get per update on both paths, and exactly as many engine calls per update on each.
    long gets = figure(text, EngineCalls.PREFIX + "GET], Operations");
    boolean readFirst = !"true".equals(properties(spec, dir).getProperty("rocksdb.blindupdates"));
    assertEquals(readCalls + (readFirst ? updates : 0), gets, text);
    // SQLite's binding also commits each update's own transaction, timed as a third engine call.
    for (String path : PairedOps.PATHS) {
      String at = PairedOps.PREFIX + "UPDATE-" + path + "], ";
      int perUpdate = (readFirst ? 2 : 1) + (spec.equals("sqlite") && path.equals("BINDING") ? 1 : 0);
      assertEquals(perUpdate * figure(text, at + "Operations"), figure(text, at + "EngineCalls"), text);
    }

    // What the paired updates wrote is in the engine, read through a new binding handle.
    DB reader = (DB) Class.forName(timed).getDeclaredConstructor().newInstance();
    reader.setProperties(properties(spec, dir));
    reader.init();
    try {
      for (int i = 0; i < RECORDS; i++) {
        Map<String, ByteIterator> row = new HashMap<>();
        assertEquals(Status.OK, reader.read("usertable", key(i), null, row));
        assertArrayEquals(updated(i, PASSES - 1), row.get("field0").toArray(), "value of " + key(i));
      }
    } finally {
      reader.cleanup();
    }
  }

  /** Every record, read through the paired DB, has its value from {@code expected}. */
  private static void readsBack(DB db, java.util.function.IntFunction<byte[]> expected) {
    for (int i = 0; i < RECORDS; i++) {
      Map<String, ByteIterator> row = new HashMap<>();
      assertEquals(Status.OK, db.read("usertable", key(i), null, row), "read " + i);
      // the fields' names only: a ByteIterator's toString() consumes it
      assertEquals(1, row.size(), () -> row.keySet().toString());
      assertArrayEquals(expected.apply(i), row.get("field0").toArray(), "value of " + key(i));
    }
  }

  /** The figures of one operation and path: taken, and the engine inside the whole; how many operations. */
  private static long checked(String text, String op, String path) {
    String at = PairedOps.PREFIX + op + "-" + path + "], ";
    long n = figure(text, at + "Operations");
    long whole = figure(text, at + "WholeTime(ns)");
    long engine = figure(text, at + "EngineTime(ns)");
    // 2^-256 that a path is never taken
    assertTrue(n > 0 && engine > 0 && whole > engine, op + " " + path + ": " + text);
    assertTrue(figure(text, at + "EngineCalls") >= n, text);
    long paused = figure(text, at + "PausedOperations");
    assertTrue(paused <= n, text);
    // -1: none under the pause threshold, which a cold JVM's interpreted first calls can miss altogether
    long median = figure(text, at + "OwnMedian(ns)");
    assertTrue(median >= 0 && median < PairedOps.PAUSE_NS || median == -1 && paused == n, text);
    return n;
  }

  private interface Work {
    void on(PairedOps db) throws Exception;
  }

  /** Runs {@code work} on a paired DB over the engine-timed binding {@code timed}; what it printed at its close. */
  private static String paired(String spec, Path dir, String timed, Work work) throws Exception {
    return paired(spec, dir, timed, Map.of(), work);
  }

  private static String paired(String spec, Path dir, String timed, Map<String, String> extra, Work work)
      throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream was = System.out;
    PairedOps db = new PairedOps();
    Properties p = properties(spec, dir);
    p.setProperty(PairedOps.BINDING, timed);
    extra.forEach(p::setProperty);
    db.setProperties(p);
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      System.setOut(out);
      db.init();
      try {
        work.on(db);
      } finally {
        db.cleanup();
      }
    } finally {
      System.setOut(was);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static byte[] updated(int i, int pass) {
    byte[] v = value(i);
    for (int j = 0; j < v.length; j++) {
      v[j] += (byte) (pass + 1);
    }
    return v;
  }

  /** Inserts the test's records through {@code writer}, a client of {@code spec} on {@code dir}, and closes it. */
  private static void loadThrough(DB writer, String spec, Path dir) throws Exception {
    writer.setProperties(properties(spec, dir));
    writer.init();
    try {
      for (int i = 0; i < RECORDS; i++) {
        assertEquals(Status.OK, writer.insert("usertable", key(i), Map.of("field0", new HandedOverBytes(value(i)))));
      }
    } finally {
      writer.cleanup();
    }
  }

  @Test
  void theControlsExtraCopyLeavesEveryReadItsValue(@TempDir Path dir) throws Exception {
    String timed = TimedBindings.Lmdb.class.getName();
    loadThrough(new TimedBindings.Lmdb(), "lmdb", dir);
    String text = paired("lmdb", dir, timed, Map.of(PairedOps.EXTRA, "true"), db -> {
      for (int pass = 0; pass < PASSES; pass++) {
        readsBack(db, i -> value(i));
      }
    });
    assertEquals((long) PASSES * RECORDS, checked(text, "READ", "BINDING") + checked(text, "READ", "LIBRARY"), text);
  }

  @Test
  void ownWorkIsTheMedianAndTheMeanBelowThePause() {
    long[] counts = new long[PairedOps.PAUSE_NS];
    counts[100] = 3;
    counts[120] = 1;
    counts[400] = 1;
    PairedOps.OwnWork w = PairedOps.OwnWork.of(counts);
    assertEquals(5, w.reads());
    assertEquals(100, w.median());
    assertEquals(164.0, w.mean(), 1e-9);
    assertTrue(Double.isNaN(PairedOps.OwnWork.of(new long[PairedOps.PAUSE_NS]).mean()));
  }

  @Test
  void refusesRecordsOfManyFields(@TempDir Path dir) {
    PairedOps db = new PairedOps();
    Properties p = properties("lmdb", dir);
    p.setProperty(PairedOps.BINDING, TimedBindings.Lmdb.class.getName());
    p.setProperty("fieldcount", "10");
    db.setProperties(p);
    DBException e = assertThrows(DBException.class, db::init);
    assertTrue(e.getMessage().contains("fieldcount=10"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "site.ycsb.embedded.bench.LibraryDB", "java.lang.String", "no.such.Binding"})
  void refusesABindingThatDoesNotTimeItsEngineCalls(String binding, @TempDir Path dir) {
    PairedOps db = new PairedOps();
    Properties p = properties("lmdb", dir);
    if (!binding.isEmpty()) {
      p.setProperty(PairedOps.BINDING, binding);
    }
    db.setProperties(p);
    assertThrows(DBException.class, db::init);
  }

  private static Properties properties(String spec, Path dir) {
    Properties p = new Properties();
    LayerStep.extras(spec).forEach(p::setProperty);
    p.setProperty("path", dir.resolve("db").toString());
    p.setProperty("fieldcount", "1");
    return p;
  }

  private static long figure(String text, String name) {
    for (String line : text.split("\n")) {
      if (line.startsWith(name + ", ")) {
        return Long.parseLong(line.substring(name.length() + 2).trim());
      }
    }
    throw new AssertionError("no line " + name + " in: " + text);
  }
}
