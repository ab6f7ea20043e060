package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/** The engine-timed bindings: one per binding, each a subclass of it, counting exactly the engine calls made. */
class EngineCallsTest {

  @Test
  void everyBindingHasItsEngineTimedSubclass() throws Exception {
    for (Engines.Engine e : Engines.ALL) {
      Class<?> binding = e.newClient().getClass();
      Class<?> timed = Class.forName(e.timedClass());
      assertTrue(binding.isAssignableFrom(timed), timed + " extends " + binding);
      assertTrue(timed != binding, e.name());
      assertTrue(EngineTimed.class.isAssignableFrom(timed), timed + " is EngineTimed");
    }
    assertEquals(List.of("leveldb", "rocksdb", "sqlite", "kyoto", "lmdb"),
        Engines.ALL.stream().map(Engines.Engine::name).toList());
  }

  @Test
  void countsEachGetAndPutAndPrintsThemAtTheLastClose(@TempDir Path dir) throws Exception {
    Properties p = new Properties();
    p.setProperty("path", dir.toString());
    DB db = new TimedBindings.Lmdb();
    db.setProperties(p);
    PrintStream old = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      db.init();
      for (int i = 0; i < 5; i++) {
        assertEquals(Status.OK, db.insert("usertable", "user" + i, StringByteIterator.getByteIteratorMap(
            Map.of("field0", "value" + i))));
      }
      for (int i = 0; i < 7; i++) {
        Map<String, ByteIterator> row = new HashMap<>();
        Status s = db.read("usertable", "user" + i, null, row);
        assertEquals(i < 5 ? Status.OK : Status.NOT_FOUND, s);
        assertEquals(i < 5 ? "value" + i : null, i < 5 ? row.get("field0").toString() : null);
      }
      System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
      db.cleanup();
    } finally {
      System.setOut(old);
    }
    Map<String, String> figures = Layers.ycsbFigures(bytes.toString(StandardCharsets.UTF_8));
    assertEquals("7", figures.get(EngineCalls.PREFIX + "GET], Operations"), figures.toString());
    assertEquals("5", figures.get(EngineCalls.PREFIX + "PUT], Operations"), figures.toString());
    assertTrue(Long.parseLong(figures.get(EngineCalls.PREFIX + "GET], TotalTime(ns)")) > 0, figures.toString());
    assertTrue(Double.parseDouble(figures.get(EngineCalls.PREFIX + "CLOCK], ns per nanoTime")) > 0, figures.toString());
  }
}
