package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.embedded.HandedOverBytes;
import site.ycsb.embedded.workload.FullScanSink;

/**
 * What every engine's row of the benchmarks ({@link BenchEngine}, in {@code <engine>-binding/bench/}) must do, run by
 * the test class its module extends from this one (the benchmarks' test jar): the harness finds the row by its name,
 * its floors run a shape and name the engine, the side-by-side benchmark runs both its sides, and layer (d0)'s
 * {@link LibraryDB} over its Java library stores what it acknowledges and reads it back. The helpers give a row's own
 * tests the harness's steps (layer (a)'s floor, layer (b)'s loop) on the shapes' data.
 */
public abstract class BenchRowContract {

  /** The checkout's top directory: the one that holds .mvn/. */
  protected static final Path TOP = top();
  /** The workload files that give every layer its data and tuning. */
  protected static final Path WORKLOADS = TOP.resolve("workloads");
  /** The workload files' loadseed. */
  protected static final long SEED = 20110727L;

  /** The engine's name, as its row gives it. */
  protected abstract String engine();

  /** The engine specs {@link LibraryDB} is checked on: the engine, and any variant row of it. */
  protected List<String> specs() {
    return List.of(engine());
  }

  @Test
  void theHarnessFindsTheRowAndEachOfItsFloorsRunsAShape(@TempDir Path dir) throws Exception {
    BenchEngine row = Engines.named(engine());
    assertEquals(getClass().getPackageName(), row.getClass().getPackageName(), "the row of this module");
    assertTrue(Engines.names().contains(engine()), Engines.names().toString());
    Optional<String> javaLibraryFloor = row.javaLibraryFloor();
    for (String binary : javaLibraryFloor.isPresent() ? List.of(BenchEngine.FLOOR, javaLibraryFloor.get())
        : List.of(BenchEngine.FLOOR)) {
      String out = runFloor(Engines.floor(row, binary), engine(), "fillseq", 300,
          Files.createDirectories(dir.resolve(binary)));
      assertTrue(out.startsWith("floor engine=" + engine() + " shape=fillseq count=300 us_per_op="), out);
      assertTrue(out.contains(" library="), out);
    }
  }

  @Test
  void libraryDbStoresWhatItAcknowledgesAndReadsItBack(@TempDir Path dir) throws Exception {
    for (String spec : specs()) {
      assertLibraryDbStoresAndReadsBack(spec, dir.resolve(spec.replace(':', '_')));
    }
  }

  @Test
  void theSideBySideBenchmarkRunsBothSidesOfTheRow(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      assertEquals(0, Bench.run(new String[] {"side-by-side", "--engines", engine(), "--ops", "300", "--rounds", "1",
          "--dir", dir.toString()}, out));
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains(String.format("  %-8s round 1: put direct ", engine())), text);
    for (String phase : BindingOverhead.PHASES) {
      assertTrue(text.lines().anyMatch(l -> l.startsWith(String.format("  %-8s %-4s direct ", engine(), phase))
          && l.contains(" binding/direct ")), phase + ": " + text);
    }
  }

  /**
   * Layer (d0) is only a ceiling if LibraryDB really does the work: every record it acknowledges must be in the engine
   * with its bytes (single puts and batches, the last partial batch at cleanup), read back through a new handle, and
   * the full pass must count every record the engine holds.
   */
  protected static void assertLibraryDbStoresAndReadsBack(String spec, Path dir) throws Exception {
    for (int batch : new int[] {1, 2}) {
      Path path = dir.resolve("batch" + batch);
      LibraryDB db = openLibraryDb(spec, path, batch);
      for (int i = 0; i < 5; i++) {
        Status s = db.insert("usertable", key(i), Map.of("field0", new HandedOverBytes(value(i))));
        // batches of 2: every second insert applies the batch, the fifth waits for cleanup
        assertEquals(batch == 1 || i % 2 == 1 ? Status.OK : Status.BATCHED_OK, s, spec + " insert " + i);
      }
      db.cleanup();

      db = openLibraryDb(spec, path, 1);
      try {
        for (int i = 0; i < 5; i++) {
          Map<String, ByteIterator> row = new HashMap<>();
          assertEquals(Status.OK, db.read("usertable", key(i), null, row), spec + " read " + i);
          assertArrayEquals(value(i), row.get("field0").toArray(), spec + " value of " + key(i));
        }
        assertEquals(Status.NOT_FOUND, db.read("usertable", key(5), null, new HashMap<>()));
        FullScanSink pass = new FullScanSink();
        assertEquals(Status.OK, db.scan("usertable", "", Integer.MAX_VALUE, null, pass));
        assertEquals(5, pass.rows(), spec);
        assertEquals(Status.NOT_IMPLEMENTED, db.scan("usertable", key(2), 2, null, new java.util.Vector<>()),
            "a short scan is not what the layer measures: it must not pass for one");
        assertEquals(Status.NOT_IMPLEMENTED, db.update("usertable", key(1), new HashMap<>()), "no updates");
        assertEquals(Status.NOT_IMPLEMENTED, db.delete("usertable", key(1)), "no deletes");
      } finally {
        db.cleanup();
      }
    }
  }

  private static LibraryDB openLibraryDb(String spec, Path path, int batch) throws DBException {
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

  /** Runs a floor binary on one shape into {@code dir}; returns its output after checking it exited 0. */
  protected static String runFloor(Path floor, String engine, String shapeId, int count, Path dir) throws Exception {
    Process p = new ProcessBuilder(floor.toString(), engine, shapeId, Integer.toString(count), dir.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return out;
  }

  /** A row's floor binary ({@link BenchEngine#FLOOR} or its layer (a') one). */
  protected static Path floor(String engine, String binary) {
    return Engines.floor(Engines.named(engine), binary);
  }

  /** Layer (b)'s loop of one shape on {@code count} entries into {@code dir}, which checks what its reads find. */
  protected static void runDirect(String engine, String shapeId, int count, Path dir) throws Exception {
    LayerShape shape = LayerShape.named(shapeId);
    LayerStep.runDirect(engine, shape, dir, shape.properties(WORKLOADS), new LayerStep.Data(shape, count, SEED));
  }

  /** The key numbers a shape's fill of {@code count} entries leaves. */
  protected static BitSet loadedKeys(String shapeId, int count) {
    return LayerShape.named(shapeId).loadedKeys(SEED, count);
  }

  /** Whether a shape's fill draws its keys with replacement. */
  protected static boolean drawsKeys(String shapeId) {
    return LayerShape.named(shapeId).drawsKeys;
  }

  /** The length of a shape's values. */
  protected static int valueLength(String shapeId) {
    return LayerShape.named(shapeId).valueLength;
  }

  /** The same count of (key, value) entries, byte for byte, in the same (key) order. */
  protected static void assertSameEntries(List<byte[][]> fromJava, List<byte[][]> fromC, int count) {
    assertEquals(count, fromC.size());
    assertEquals(fromJava.size(), fromC.size());
    for (int i = 0; i < count; i++) {
      assertArrayEquals(fromJava.get(i)[0], fromC.get(i)[0], "key " + i);
      assertArrayEquals(fromJava.get(i)[1], fromC.get(i)[1], "value of key " + i);
    }
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

  private static Path top() {
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isDirectory(d.resolve(".mvn"))) {
        return d;
      }
    }
    throw new IllegalStateException("no .mvn/ above " + Path.of("").toAbsolutePath());
  }
}
