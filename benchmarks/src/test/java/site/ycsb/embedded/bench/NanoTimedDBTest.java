package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * Layer (d)'s in-operation figure comes from NanoTimedDB's lines: they must count exactly the
 * operations the wrapped DB was given, per operation kind, and time them.
 */
class NanoTimedDBTest {

  @Test
  void countsAndTimesEachOperationKindOfTheWrappedDb() throws Exception {
    Properties p = new Properties();
    p.setProperty(NanoTimedDB.WRAPPED, NothingDB.class.getName());
    NanoTimedDB db = new NanoTimedDB();
    db.setProperties(p);
    db.init();
    Map<String, ByteIterator> values = StringByteIterator.getByteIteratorMap(Map.of("field0", "v"));
    for (int i = 0; i < 3; i++) {
      assertEquals(Status.OK, db.insert("usertable", "k" + i, values));
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
  void refusesToStartWithoutTheDbToWrap() {
    NanoTimedDB db = new NanoTimedDB();
    db.setProperties(new Properties());
    assertThrows(DBException.class, db::init);
    Properties p = new Properties();
    p.setProperty(NanoTimedDB.WRAPPED, String.class.getName());
    db.setProperties(p);
    assertThrows(DBException.class, db::init);
    assertDoesNotThrow(db::cleanup, "a cleanup after a failed init has nothing to close");
  }
}
