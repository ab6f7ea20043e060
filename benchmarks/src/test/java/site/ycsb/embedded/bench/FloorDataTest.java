package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The data every layer writes and reads, the C floor's (layer a) as the Java layers': each shape draws its keys as
 * its workload files do, and the reads find what the drawn fill left. Each engine's module checks that its floor
 * writes the Java layers' bytes where it can read both back ({@link BenchRowContract}'s helpers).
 */
class FloorDataTest {

  private static final Path WORKLOADS = BenchRowContract.WORKLOADS;

  @ParameterizedTest
  @EnumSource(LayerShape.class)
  void everyShapeDrawsItsKeysAsItsWorkloadFilesDo(LayerShape shape) throws Exception {
    // The C floor hard-codes each shape's key order; the shape's flag must follow the workload files.
    String order = shape.properties(WORKLOADS).getProperty("loadorder");
    assertEquals(shape.drawsKeys ? "replacement" : "sequential", order, shape.id);
  }

  @ParameterizedTest
  @ValueSource(strings = {"readrandom", "readseq"})
  void readsFindWhatTheDrawnFillLeft(String shapeId) {
    LayerShape shape = LayerShape.named(shapeId);
    int count = 1500;
    LayerStep.Data data = new LayerStep.Data(shape, count, BenchRowContract.SEED);
    assertEquals(shape.loadedKeys(BenchRowContract.SEED, count).cardinality(), data.distinct);
    if (shape == LayerShape.READRANDOM) {
      // Uniform reads over a fill that left about 63 % of the keys: about 63 % find theirs.
      assertTrue(data.readsFound > 0.55 * count && data.readsFound < 0.72 * count, "found " + data.readsFound);
    }
  }
}
