package site.ycsb.embedded.bench.rocksdb;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.bench.BenchEngine;
import site.ycsb.embedded.bench.BenchRowContract;

/**
 * RocksDB's row: what every row does; layer (a'), floor_rocksdb.c linked against the native library inside the
 * rocksdbjni jar, must run the Java library's own RocksDB (its version, not Debian's) and write what layer (b)
 * writes, or (a')/(a) would not be the engine version alone; the direct side refuses what the binding refuses.
 */
class RocksDbBenchTest extends BenchRowContract {

  @Override
  protected String engine() {
    return "rocksdb";
  }

  @ParameterizedTest
  @ValueSource(strings = {"fillrandom", "fillbatch"})
  void rocksdbjniFloorRunsTheJavaLibrarysEngineAndWritesLayerBsData(String shapeId, @TempDir Path tmp)
      throws Exception {
    int count = 1500;
    Path c = Files.createDirectories(tmp.resolve("c"));
    String out = runFloor(floor(engine(), RocksDbBench.JAVA_LIBRARY_FLOOR), engine(), shapeId, count, c);
    RocksDB.loadLibrary();
    assertTrue(out.contains(" library=RocksDB " + RocksDB.rocksdbVersion() + " (rocksdbjni's native library"),
        "the floor must run rocksdbjni's RocksDB " + RocksDB.rocksdbVersion() + ": " + out);
    assertFalse(out.contains("system librocksdb"), out);

    Path java = Files.createDirectories(tmp.resolve("java"));
    runDirect(engine(), shapeId, count, java);
    assertSameEntries(entries(java), entries(c), loadedKeys(shapeId, count).cardinality());
  }

  @Test
  void theJavaLibraryFloorIsTheRows() {
    BenchEngine row = new RocksDbBench();
    assertTrue(row.javaLibraryFloor().orElseThrow().equals(RocksDbBench.JAVA_LIBRARY_FLOOR));
  }

  /** RocksDB syncs writes through its write-ahead log: the direct side refuses sync without it, as the binding. */
  @Test
  void theDirectSideRefusesWhatTheBindingRefuses(@TempDir Path dir) {
    Properties p = new Properties();
    p.setProperty(EngineProperties.SYNC, "true");
    p.setProperty("rocksdb.disablewal", "true");
    Exception e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> new RocksDbBench().openDirect(dir, p).close());
    assertTrue(e.getMessage().contains("rocksdb.disablewal"), e.getMessage());
  }

  /** Every (key, value) in key order, read back through rocksdbjni. */
  private static List<byte[][]> entries(Path dir) throws Exception {
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
