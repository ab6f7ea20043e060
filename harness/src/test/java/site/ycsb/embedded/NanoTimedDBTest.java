package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * The in-operation figure beside each published one comes from NanoTimedDB: it must count exactly the
 * operations the wrapped DB was given, per kind, time them, and keep the open and the close out of them.
 */
class NanoTimedDBTest {

  @TempDir
  Path tmp;

  /**
   * A DB whose open and close each take {@link #SLOW_MS} and whose inserts take {@link #INSERT_MS}; it
   * notes when its open returned and its close began, the span its operations can lie in.
   */
  public static final class SlowOpenCloseDb extends NothingDB {
    static final long SLOW_MS = 300;
    static final long INSERT_MS = 5;
    static volatile long openedAt;
    static volatile long closingAt;

    @Override
    public void init() {
      sleep(SLOW_MS);
      openedAt = System.nanoTime();
    }

    @Override
    public void cleanup() {
      closingAt = System.nanoTime();
      sleep(SLOW_MS);
    }

    private static void sleep(long ms) {
      try {
        Thread.sleep(ms);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      return Status.NOT_FOUND;
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
      sleep(INSERT_MS);
      return Status.OK;
    }
  }

  private static NanoTimedDB open(Class<? extends DB> wrapped, Path file) throws DBException {
    Properties p = new Properties();
    p.setProperty(NanoTimedDB.WRAPPED, wrapped.getName());
    if (file != null) {
      p.setProperty(NanoTimedDB.FILE, file.toString());
    }
    NanoTimedDB db = new NanoTimedDB();
    db.setProperties(p);
    db.init();
    return db;
  }

  private static final Map<String, ByteIterator> VALUES =
      StringByteIterator.getByteIteratorMap(Map.of("field0", "v"));

  private static long number(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\": (\\d+)").matcher(json);
    assertTrue(m.find(), name + " missing from " + json);
    return Long.parseLong(m.group(1));
  }

  /** {count, ns} of one operation kind in the file, or null when it has none. */
  private static long[] operation(String json, String op) {
    Matcher m = Pattern.compile("\"" + op + "\": \\{\"count\": (\\d+), \"ns\": (\\d+)\\}").matcher(json);
    return m.find() ? new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))} : null;
  }

  @Test
  void withoutAFileItPrintsEachOperationKindsCountAndTime() throws Exception {
    NanoTimedDB db = open(NothingDB.class, null);
    for (int i = 0; i < 3; i++) {
      assertEquals(Status.OK, db.insert("usertable", "k" + i, VALUES));
    }
    assertEquals(Status.OK, db.read("usertable", "k0", null, new HashMap<>()));
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      db.cleanup();
    } finally {
      System.setOut(out);
    }
    Map<String, Long> lines = new HashMap<>();
    for (String line : captured.toString(StandardCharsets.UTF_8).split("\n")) {
      int comma = line.lastIndexOf(", ");
      lines.put(line.substring(0, comma), Long.parseLong(line.substring(comma + 2).trim()));
    }
    assertEquals(3L, lines.get("[NANOTIMED-INSERT], Operations"));
    assertEquals(1L, lines.get("[NANOTIMED-READ], Operations"));
    assertTrue(lines.get("[NANOTIMED-INSERT], TotalTime(ns)") > 0, lines.toString());
    assertTrue(lines.get("[NANOTIMED-READ], TotalTime(ns)") > 0, lines.toString());
    assertEquals(4, lines.size(), "no line for an operation that never ran: " + lines);
  }

  @Test
  void theOperationsTimeLeavesOutTheOpenAndTheCloseWhichTheFileStatesApart() throws Exception {
    Path file = tmp.resolve("step.timing.json");
    NanoTimedDB db = open(SlowOpenCloseDb.class, file);
    for (int i = 0; i < 3; i++) {
      assertEquals(Status.OK, db.insert("usertable", "k" + i, VALUES));
    }
    assertEquals(Status.NOT_FOUND, db.read("usertable", "missing", null, new HashMap<>()));
    db.cleanup();
    long innerWindow = SlowOpenCloseDb.closingAt - SlowOpenCloseDb.openedAt;
    String json = Files.readString(file);
    long[] inserts = operation(json, "INSERT");
    long[] reads = operation(json, "READ");
    assertEquals(3, inserts[0], json);
    assertEquals(1, reads[0], json);
    assertNull(operation(json, "UPDATE"), "no entry for an operation that never ran: " + json);
    // The inserts slept 3 x 5 ms inside the clock; the 300 ms open and close must be outside it: every
    // operation lies between the wrapped DB's open returning and its close starting.
    assertTrue(inserts[1] >= TimeUnit.MILLISECONDS.toNanos(3 * SlowOpenCloseDb.INSERT_MS), json);
    long window = number(json, "window_ns");
    assertTrue(inserts[1] + reads[1] <= window, "operations " + (inserts[1] + reads[1]) + " ns: " + json);
    assertTrue(window <= innerWindow, "the window " + window + " ns holds more than open to close, "
        + innerWindow + " ns: " + json);
    assertTrue(number(json, "open_ns") >= TimeUnit.MILLISECONDS.toNanos(SlowOpenCloseDb.SLOW_MS), json);
    assertTrue(number(json, "close_ns") >= TimeUnit.MILLISECONDS.toNanos(SlowOpenCloseDb.SLOW_MS), json);
    assertEquals(1, number(json, "instances"), json);
    assertFalse(Files.exists(tmp.resolve("step.timing.json.partial")));
  }

  @Test
  void theClientThreadsFiguresAreAddedUpAndWrittenWhenTheLastCloses() throws Exception {
    Path file = tmp.resolve("threads.json");
    NanoTimedDB first = open(NothingDB.class, file);
    NanoTimedDB second = open(NothingDB.class, file);
    first.insert("usertable", "a", VALUES);
    second.insert("usertable", "b", VALUES);
    second.insert("usertable", "c", VALUES);
    second.update("usertable", "c", VALUES);
    first.cleanup();
    assertFalse(Files.exists(file), "written before the last client thread closed");
    second.cleanup();
    second.cleanup(); // a second cleanup has nothing left to add
    String json = Files.readString(file);
    assertEquals(3, operation(json, "INSERT")[0], json);
    assertEquals(1, operation(json, "UPDATE")[0], json);
    assertEquals(2, number(json, "instances"), json);
    // The next step of the same JVM starts from nothing.
    NanoTimedDB next = open(NothingDB.class, file);
    next.delete("usertable", "a");
    next.cleanup();
    json = Files.readString(file);
    assertEquals(1, operation(json, "DELETE")[0], json);
    assertNull(operation(json, "INSERT"), json);
    assertEquals(1, number(json, "instances"), json);
  }

  @Test
  void refusesToStartWithoutTheDbToWrapOrAPlaceForItsFile() {
    NanoTimedDB db = new NanoTimedDB();
    db.setProperties(new Properties());
    assertThrows(DBException.class, db::init);
    Properties p = new Properties();
    p.setProperty(NanoTimedDB.WRAPPED, String.class.getName());
    db.setProperties(p);
    assertThrows(DBException.class, db::init);
    assertDoesNotThrow(db::cleanup, "a cleanup after a failed init has nothing to close");
    Properties q = new Properties();
    q.setProperty(NanoTimedDB.WRAPPED, NothingDB.class.getName());
    String missing = tmp.resolve("no-such-dir").resolve("t.json").toString();
    q.setProperty(NanoTimedDB.FILE, missing);
    db.setProperties(q);
    DBException e = assertThrows(DBException.class, db::init);
    assertTrue(e.getMessage().contains(NanoTimedDB.FILE + "=" + missing), e.getMessage());
  }

  @Test
  void checkedClientWrapsTheLastDbOnlyWhenAFileIsAsked() {
    String timed = NanoTimedDB.class.getName();
    String[] plain = {"-db", "a.B", "-load", "-p", "x=1"};
    assertSame(plain, CheckedClient.timed(plain));
    String[] asked = {"-db", "a.B", "-load", "-threads", "2", "-db", "c.D", "-p", "nanotimed.file=/t/f.json", "-s"};
    String[] got = CheckedClient.timed(asked);
    assertEquals(java.util.List.of("-db", "a.B", "-load", "-threads", "2", "-db", timed, "-p",
        "nanotimed.file=/t/f.json", "-s", "-p", "nanotimed.db=c.D"), java.util.List.of(got));
    String[] already = {"-db", timed, "-p", "nanotimed.file=f", "-p", "nanotimed.db=c.D"};
    assertSame(already, CheckedClient.timed(already));
  }

  @Test
  void theLauncherTimesARealYcsbLoadIntoTheFileAndLeavesYcsbsOutputAsItWas() throws Exception {
    Path file = tmp.resolve("load.timing.json");
    String[] r = YcsbClientProcess.run(tmp, CheckedClient.class.getName(), InMemoryDb.class.getName(), "-load",
        Map.of("path", tmp.resolve("db").toString(), "recordcount", "50", NanoTimedDB.FILE, file.toString(),
            Warmup.OPERATIONS, "1000")); // the warm-up's own timing layer writes elsewhere

    assertEquals("0", r[0], r[1]);
    assertTrue(r[1].contains("[INSERT], Return=OK, 50"), r[1]);
    assertFalse(r[1].contains(NanoTimedDB.PREFIX), r[1]);
    String json = Files.readString(file);
    assertEquals(50, operation(json, "INSERT")[0], json);
    assertEquals(1, number(json, "instances"), json);
  }
}
