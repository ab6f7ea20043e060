package site.ycsb.embedded.bench.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.bench.BenchEngine;
import site.ycsb.embedded.bench.BenchRowContract;

/**
 * SQLite's row: what every row does; the C floor (layer a) and the Java layers must write the same data, or the layers
 * compare different work: the same keys in the same order with the same value bytes, compared row by row in SQLite
 * files; and the direct side takes each setting from the binding's Options, so that a property means there what it
 * means in the binding.
 */
class SqliteBenchTest extends BenchRowContract {

  @Override
  protected String engine() {
    return "sqlite";
  }

  @ParameterizedTest
  @ValueSource(strings = {"fillseq", "fillrandom", "fill100k", "fillbatch"})
  void floorWritesTheBytesOfTheJavaLayers(String shapeId, @TempDir Path tmp) throws Exception {
    int count = 1500; // not a multiple of the batch: the last batch is a short one
    Path c = Files.createDirectories(tmp.resolve("c"));
    String out = runFloor(floor(engine(), BenchEngine.FLOOR), engine(), shapeId, count, c);
    assertTrue(out.startsWith("floor engine=sqlite shape=" + shapeId + " count=1500 us_per_op="), out);

    Path java = Files.createDirectories(tmp.resolve("java"));
    runDirect(engine(), shapeId, count, java);

    // A fill that draws its keys with replacement leaves each drawn key once, with its last value.
    BitSet loaded = loadedKeys(shapeId, count);
    assertEquals(drawsKeys(shapeId), loaded.cardinality() < count, "drawn keys repeat, key order writes each once");
    List<byte[][]> fromC = rows(c);
    assertSameEntries(rows(java), fromC, loaded.cardinality());
    for (byte[][] row : fromC) {
      assertEquals(valueLength(shapeId), row[1].length);
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
  @ValueSource(strings = {"readrandom", "readseq"})
  void readsFindWhatTheDrawnFillLeftOnBothSides(String shapeId, @TempDir Path tmp) throws Exception {
    // Each side checks its reads found exactly what the draws say (and exits or throws if not).
    runFloor(floor(engine(), BenchEngine.FLOOR), engine(), shapeId, 1500, Files.createDirectories(tmp.resolve("c")));
    runDirect(engine(), shapeId, 1500, Files.createDirectories(tmp.resolve("java")));
  }

  /** sync=true is synchronous=FULL in the binding: on the direct side too, not OFF whatever sync says. */
  @ParameterizedTest
  @CsvSource({"false,,0", "true,,2", "true,NORMAL,1", "false,EXTRA,3"})
  void runsWithTheSynchronousLevelTheBindingChooses(String sync, String synchronous, String level,
      @TempDir Path dir) throws Exception {
    Properties p = new Properties();
    p.setProperty(EngineProperties.SYNC, sync);
    if (synchronous != null) {
      p.setProperty("sqlite.synchronous", synchronous);
    }
    try (SqliteDirect db = (SqliteDirect) new SqliteBench().openDirect(dir, p)) {
      assertEquals(level, db.pragma("synchronous"), "sync=" + sync + " sqlite.synchronous=" + synchronous);
      assertEquals("wal", db.pragma("journal_mode"));
    }
    assertTrue(Files.isRegularFile(dir.resolve("ycsb.db")), "the binding's file name");
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
}
