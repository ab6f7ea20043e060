package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * The C floor (layer a) and the Java layers must write the same data, or the layers compare different work: the same
 * keys in the same order with the same value bytes, compared row by row in SQLite files; and layer (a'), floor.c
 * linked against the native library inside the rocksdbjni jar, must run the Java library's own RocksDB (its version,
 * not Debian's) and write what layer (b) writes, or (a')/(a) would not be the engine version alone.
 */
class FloorDataTest {

  private static final Path FLOOR = Path.of("target/native/floor");
  private static final Path JAVA_LIBRARY_FLOOR = Path.of("target/native", Layers.JAVA_LIBRARY_FLOORS.get("rocksdb"));
  private static final Path WORKLOADS = Path.of("../workloads");

  @ParameterizedTest
  @ValueSource(strings = {"fillseq", "fillrandom", "fill100k", "fillbatch"})
  void floorWritesTheBytesOfTheJavaLayers(String shapeId, @TempDir Path tmp) throws Exception {
    LayerShape shape = LayerShape.named(shapeId);
    int count = 1500; // not a multiple of the batch: the last batch is a short one
    Path c = Files.createDirectories(tmp.resolve("c"));
    String out = runFloor(FLOOR, "sqlite", shapeId, count, c);
    assertTrue(out.startsWith("floor engine=sqlite shape=" + shapeId + " count=1500 us_per_op="), out);

    Path java = Files.createDirectories(tmp.resolve("java"));
    Properties props = shape.properties(WORKLOADS);
    LayerStep.runDirect("sqlite", shape, java, props, new LayerStep.Data(shape, count, 20110727L));

    // A fill that draws its keys with replacement leaves each drawn key once, with its last value.
    BitSet loaded = shape.loadedKeys(20110727L, count);
    assertEquals(shape.drawsKeys, loaded.cardinality() < count, "drawn keys repeat, key order writes each once");
    List<byte[][]> fromC = rows(c);
    assertSameEntries(rows(java), fromC, loaded.cardinality());
    for (byte[][] row : fromC) {
      assertEquals(shape.valueLength, row[1].length);
    }
    assertEquals(String.format("%016d", loaded.length() - 1),
        new String(fromC.get(fromC.size() - 1)[0], StandardCharsets.US_ASCII));
    // The same table shape too: the binding's default, WITHOUT ROWID.
    assertTrue(tableSql(java).endsWith("WITHOUT ROWID"), tableSql(java));
    assertTrue(tableSql(c).endsWith("WITHOUT ROWID"), tableSql(c));
    assertEquals(scalar(java, "PRAGMA page_size"), scalar(c, "PRAGMA page_size"));
    assertTrue(out.contains("WITHOUT ROWID table, " + scalar(c, "PRAGMA page_size") + "-byte pages"), out);
  }

  @ParameterizedTest
  @EnumSource(LayerShape.class)
  void everyShapeDrawsItsKeysAsItsWorkloadFilesDo(LayerShape shape) throws Exception {
    // The C floor hard-codes each shape's key order; the shape's flag must follow the workload files.
    String order = shape.properties(WORKLOADS).getProperty("loadorder");
    assertEquals(shape.drawsKeys ? "replacement" : "sequential", order, shape.id);
  }

  @ParameterizedTest
  @ValueSource(strings = {"readrandom", "readseq"})
  void readsFindWhatTheDrawnFillLeftOnBothSides(String shapeId, @TempDir Path tmp) throws Exception {
    LayerShape shape = LayerShape.named(shapeId);
    int count = 1500;
    LayerStep.Data data = new LayerStep.Data(shape, count, 20110727L);
    assertEquals(shape.loadedKeys(20110727L, count).cardinality(), data.distinct);
    if (shape == LayerShape.READRANDOM) {
      // Uniform reads over a fill that left about 63 % of the keys: about 63 % find theirs.
      assertTrue(data.readsFound > 0.55 * count && data.readsFound < 0.72 * count, "found " + data.readsFound);
    }
    // Each side checks its reads found exactly what the draws say (and exits or throws if not).
    runFloor(FLOOR, "sqlite", shapeId, count, Files.createDirectories(tmp.resolve("c")));
    LayerStep.runDirect("sqlite", shape, Files.createDirectories(tmp.resolve("java")), shape.properties(WORKLOADS),
        data);
  }

  @ParameterizedTest
  @ValueSource(strings = {"fillrandom", "fillbatch"})
  void rocksdbjniFloorRunsTheJavaLibrarysEngineAndWritesLayerBsData(String shapeId, @TempDir Path tmp)
      throws Exception {
    LayerShape shape = LayerShape.named(shapeId);
    int count = 1500;
    Path c = Files.createDirectories(tmp.resolve("c"));
    String out = runFloor(JAVA_LIBRARY_FLOOR, "rocksdb", shapeId, count, c);
    RocksDB.loadLibrary();
    assertTrue(out.contains(" library=RocksDB " + RocksDB.rocksdbVersion() + " (rocksdbjni's native library"),
        "the floor must run rocksdbjni's RocksDB " + RocksDB.rocksdbVersion() + ": " + out);
    assertFalse(out.contains("system librocksdb"), out);

    Path java = Files.createDirectories(tmp.resolve("java"));
    LayerStep.runDirect("rocksdb", shape, java, shape.properties(WORKLOADS), new LayerStep.Data(shape, count,
        20110727L));
    assertSameEntries(rocksdbEntries(java), rocksdbEntries(c), shape.loadedKeys(20110727L, count).cardinality());
  }

  /** Runs a floor binary on one shape into {@code dir}; returns its output after checking it exited 0. */
  private static String runFloor(Path floor, String engine, String shapeId, int count, Path dir) throws Exception {
    Process p = new ProcessBuilder(floor.toString(), engine, shapeId, Integer.toString(count), dir.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return out;
  }

  private static String tableSql(Path dir) throws Exception {
    return scalar(dir, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'usertable'");
  }

  private static String scalar(Path dir, String sql) throws Exception {
    try (Connection conn = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("ycsb.db"));
        Statement s = conn.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  /** The same count of (key, value) entries, byte for byte, in the same (key) order. */
  private static void assertSameEntries(List<byte[][]> fromJava, List<byte[][]> fromC, int count) {
    assertEquals(count, fromC.size());
    assertEquals(fromJava.size(), fromC.size());
    for (int i = 0; i < count; i++) {
      assertArrayEquals(fromJava.get(i)[0], fromC.get(i)[0], "key " + i);
      assertArrayEquals(fromJava.get(i)[1], fromC.get(i)[1], "value of key " + i);
    }
  }

  /** Every (key, value) in key order: a value generated for another key or in another order differs. */
  private static List<byte[][]> rows(Path dir) throws Exception {
    List<byte[][]> rows = new ArrayList<>();
    try (Connection conn = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("ycsb.db"));
        Statement s = conn.createStatement();
        ResultSet rs = s.executeQuery("SELECT key, value FROM usertable ORDER BY key")) {
      while (rs.next()) {
        rows.add(new byte[][] {rs.getBytes(1), rs.getBytes(2)});
      }
    }
    return rows;
  }

  /** Every (key, value) in key order, read back through rocksdbjni. */
  private static List<byte[][]> rocksdbEntries(Path dir) throws Exception {
    List<byte[][]> rows = new ArrayList<>();
    try (Options o = new Options(); RocksDB db = RocksDB.openReadOnly(o, dir.toString());
        RocksIterator it = db.newIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        rows.add(new byte[][] {it.key(), it.value()});
      }
    }
    return rows;
  }
}
