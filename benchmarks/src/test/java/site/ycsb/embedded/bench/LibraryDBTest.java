package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.embedded.CheckedClient;
import site.ycsb.embedded.HandedOverBytes;
import site.ycsb.embedded.workload.FullScanSink;

/**
 * Layer (d0) is only a ceiling if LibraryDB really does the work: every record it acknowledges must be in the engine
 * with its bytes (single puts and batches, the last partial batch at cleanup), read back through a new handle, and
 * the full pass must count every record the engine holds. And its step starts as bin/ycsb starts YCSB: through the
 * launcher, whose warm-up runs on a scratch database before YCSB's clock, so (d0) times warm code as (d) does.
 */
class LibraryDBTest {

  @ParameterizedTest
  @ValueSource(strings = {"leveldb", "leveldb:leveldb.library=system", "rocksdb", "sqlite", "kyoto", "lmdb"})
  void storesWhatItAcknowledgesAndReadsItBack(String spec, @TempDir Path dir) throws Exception {
    for (int batch : new int[] {1, 2}) {
      Path path = dir.resolve("batch" + batch);
      LibraryDB db = open(spec, path, batch);
      for (int i = 0; i < 5; i++) {
        Status s = db.insert("usertable", key(i), Map.of("field0", new HandedOverBytes(value(i))));
        // batches of 2: every second insert applies the batch, the fifth waits for cleanup
        assertEquals(batch == 1 || i % 2 == 1 ? Status.OK : Status.BATCHED_OK, s, "insert " + i);
      }
      db.cleanup();

      db = open(spec, path, 1);
      try {
        for (int i = 0; i < 5; i++) {
          Map<String, ByteIterator> row = new HashMap<>();
          assertEquals(Status.OK, db.read("usertable", key(i), null, row), "read " + i);
          assertArrayEquals(value(i), row.get("field0").toArray(), "value of " + key(i));
        }
        assertEquals(Status.NOT_FOUND, db.read("usertable", key(5), null, new HashMap<>()));
        FullScanSink pass = new FullScanSink();
        assertEquals(Status.OK, db.scan("usertable", "", Integer.MAX_VALUE, null, pass));
        assertEquals(5, pass.rows());
        assertEquals(Status.NOT_IMPLEMENTED, db.scan("usertable", key(2), 2, null, new java.util.Vector<>()),
            "a short scan is not what the layer measures: it must not pass for one");
        assertEquals(Status.NOT_IMPLEMENTED, db.update("usertable", key(1), new HashMap<>()), "no updates");
        assertEquals(Status.NOT_IMPLEMENTED, db.delete("usertable", key(1)), "no deletes");
      } finally {
        db.cleanup();
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "mongodb"})
  void refusesAMissingOrUnknownEngine(String engine, @TempDir Path dir) {
    LibraryDB db = new LibraryDB();
    Properties p = new Properties();
    if (!engine.isEmpty()) {
      p.setProperty(LibraryDB.ENGINE, engine);
    }
    p.setProperty("path", dir.toString());
    db.setProperties(p);
    assertThrows(DBException.class, db::init);
  }

  @Test
  void theThinDbStepIsWarmedOnAScratchDatabaseAndLeavesOnlyItsRecords(@TempDir Path dir) throws Exception {
    Layers layers = new Layers(Path.of("..").toAbsolutePath().normalize(), dir, 300, System.out, "2000");
    Path data = dir.resolve("d0");
    List<String> cmd = layers.ycsbCommand("lmdb", LibraryDB.class.getName(), "-load", List.of("randwrite"), 300, data);
    assertTrue(cmd.contains(CheckedClient.class.getName()), cmd.toString());

    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    // the warm-up ran on a scratch LibraryDB database beside the step's, and said so before YCSB's figures
    assertTrue(out.contains("[ycsb-embedded] warm-up: ") && out.contains("scratch " + LibraryDB.class.getName()),
        out);
    assertTrue(out.indexOf("warm-up: ") < out.indexOf("[OVERALL]"), out);
    assertTrue(out.contains("[INSERT], Return=OK, 300"), out);
    // the scratch directory is gone; the step's directory holds the step's records only
    try (var names = Files.list(dir)) {
      assertEquals(List.of("d0"), names.map(f -> f.getFileName().toString()).toList());
    }
  }

  private static LibraryDB open(String spec, Path path, int batch) throws DBException {
    Properties p = new Properties();
    p.setProperty(LibraryDB.ENGINE, spec.split(":")[0]);
    LayerStep.extras(spec).forEach(p::setProperty);
    p.setProperty("path", path.toString());
    p.setProperty("batchsize", Integer.toString(batch));
    LibraryDB db = new LibraryDB();
    db.setProperties(p);
    db.init();
    return db;
  }

  static String key(int i) {
    return String.format(java.util.Locale.ROOT, "user%012d", i);
  }

  static byte[] value(int i) {
    byte[] v = new byte[100];
    for (int j = 0; j < v.length; j++) {
      v[j] = (byte) (i * 31 + j);
    }
    return v;
  }
}
