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
 * The paired reads are only a measurement if both paths read the engine: every read, whichever path the coin sent
 * it down, returns the stored value or NOT_FOUND, both paths are taken, and the counts and times printed at the
 * close add up to the reads made, split between the two paths, with the engine call inside each read's time.
 */
class PairedReadsTest {

  private static final int RECORDS = 64;
  private static final int PASSES = 4;

  @ParameterizedTest
  @ValueSource(strings = {"leveldb", "leveldb:leveldb.library=system", "rocksdb", "sqlite", "kyoto", "lmdb"})
  void bothPathsReturnTheStoredValueAndTheCountsAddUp(String spec, @TempDir Path dir) throws Exception {
    String timed = EngineCalls.timedClassOf(Engines.named(spec.split(":")[0]).newClient().getClass().getName());
    DB writer = (DB) Class.forName(timed).getDeclaredConstructor().newInstance();
    writer.setProperties(properties(spec, dir));
    writer.init();
    try {
      for (int i = 0; i < RECORDS; i++) {
        assertEquals(Status.OK, writer.insert("usertable", key(i), Map.of("field0", new HandedOverBytes(value(i)))));
      }
    } finally {
      writer.cleanup();
    }

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream was = System.out;
    PairedReads db = new PairedReads();
    Properties p = properties(spec, dir);
    p.setProperty(PairedReads.BINDING, timed);
    db.setProperties(p);
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      System.setOut(out);
      db.init();
      try {
        for (int pass = 0; pass < PASSES; pass++) {
          for (int i = 0; i < RECORDS; i++) {
            Map<String, ByteIterator> row = new HashMap<>();
            assertEquals(Status.OK, db.read("usertable", key(i), null, row), "read " + i);
            // the fields' names only: a ByteIterator's toString() consumes it
            assertEquals(1, row.size(), () -> row.keySet().toString());
            assertArrayEquals(value(i), row.get("field0").toArray(), "value of " + key(i));
          }
          assertEquals(Status.NOT_FOUND, db.read("usertable", key(RECORDS + pass), null, new HashMap<>()));
        }
        assertEquals(Status.NOT_IMPLEMENTED, db.insert("usertable", key(0), Map.of()));
      } finally {
        db.cleanup();
      }
    } finally {
      System.setOut(was);
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    long reads = 0;
    for (String path : PairedReads.PATHS) {
      String at = PairedReads.PREFIX + path + "], ";
      long n = figure(text, at + "Operations");
      long whole = figure(text, at + "WholeTime(ns)");
      long engine = figure(text, at + "EngineTime(ns)");
      // 2^-260 that a path is never taken
      assertTrue(n > 0 && engine > 0 && whole > engine, path + ": " + text);
      assertTrue(figure(text, at + "PausedOperations") <= n, text);
      long median = figure(text, at + "OwnMedian(ns)");
      assertTrue(median >= 0 && median < PairedReads.PAUSE_NS, text);
      reads += n;
    }
    assertEquals((long) PASSES * (RECORDS + 1), reads, text);
    assertEquals((long) PASSES * (RECORDS + 1), figure(text, EngineCalls.PREFIX + "GET], Operations"), text);
  }

  @Test
  void ownWorkIsTheMedianAndTheMeanBelowThePause() {
    long[] counts = new long[PairedReads.PAUSE_NS];
    counts[100] = 3;
    counts[120] = 1;
    counts[400] = 1;
    PairedReads.OwnWork w = PairedReads.OwnWork.of(counts);
    assertEquals(5, w.reads());
    assertEquals(100, w.median());
    assertEquals(164.0, w.mean(), 1e-9);
    assertTrue(Double.isNaN(PairedReads.OwnWork.of(new long[PairedReads.PAUSE_NS]).mean()));
  }

  @Test
  void refusesRecordsOfManyFields(@TempDir Path dir) {
    PairedReads db = new PairedReads();
    Properties p = properties("lmdb", dir);
    p.setProperty(PairedReads.BINDING, TimedBindings.Lmdb.class.getName());
    p.setProperty("fieldcount", "10");
    db.setProperties(p);
    DBException e = assertThrows(DBException.class, db::init);
    assertTrue(e.getMessage().contains("fieldcount=10"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "site.ycsb.embedded.bench.LibraryDB", "java.lang.String", "no.such.Binding"})
  void refusesABindingThatDoesNotTimeItsEngineCalls(String binding, @TempDir Path dir) {
    PairedReads db = new PairedReads();
    Properties p = properties("lmdb", dir);
    if (!binding.isEmpty()) {
      p.setProperty(PairedReads.BINDING, binding);
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
