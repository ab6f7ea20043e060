package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * Layer (a'), floor.c linked against the native library inside the rocksdbjni jar: it must run the Java library's own
 * RocksDB (its version, not Debian's), and write what layer (b) writes, or (a')/(a) would not be the engine version
 * alone and (a')/(d) would compare different work.
 */
class JavaLibraryFloorTest {

  private static final Path FLOOR = Path.of("target/native").resolve(Layers.JAVA_LIBRARY_FLOORS.get("rocksdb"));
  private static final Path WORKLOADS = Path.of("../workloads");

  @ParameterizedTest
  @ValueSource(strings = {"fillrandom", "fillbatch"})
  void rocksdbjniFloorRunsTheJavaLibrarysEngineAndWritesLayerBsData(String shapeId, @TempDir Path tmp)
      throws Exception {
    LayerShape shape = LayerShape.named(shapeId);
    int count = 1500;
    Path c = Files.createDirectories(tmp.resolve("c"));
    String out = FloorDataTest.runFloor(FLOOR, "rocksdb", shapeId, count, c);
    RocksDB.loadLibrary();
    assertTrue(out.contains(" library=RocksDB " + RocksDB.rocksdbVersion() + " (rocksdbjni's native library"),
        "the floor must run rocksdbjni's RocksDB " + RocksDB.rocksdbVersion() + ": " + out);
    assertFalse(out.contains("system librocksdb"), out);

    Path java = Files.createDirectories(tmp.resolve("java"));
    Properties props = shape.properties(WORKLOADS);
    LayerStep.runDirect("rocksdb", shape, java, props, new LayerStep.Data(shape, count, 20110727L));

    FloorDataTest.assertSameEntries(entries(java), entries(c), shape.loadedKeys(20110727L, count).cardinality());
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
