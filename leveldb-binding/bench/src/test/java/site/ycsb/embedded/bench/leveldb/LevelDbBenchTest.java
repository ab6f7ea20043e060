package site.ycsb.embedded.bench.leveldb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.bench.BenchRowContract;
import site.ycsb.embedded.bench.LayerDirect;

/**
 * LevelDB's row: what every row does, on both libraries (LibraryDB reads back through leveldbjni and the system
 * LevelDB); the direct side opens the library the binding chooses and refuses what the binding refuses.
 */
class LevelDbBenchTest extends BenchRowContract {

  private final LevelDbBench row = new LevelDbBench();

  @Override
  protected String engine() {
    return "leveldb";
  }

  @Override
  protected List<String> specs() {
    return List.of("leveldb", "leveldb:leveldb.library=system");
  }

  /** Both LevelDB libraries through the binding's handle. */
  @ParameterizedTest
  @CsvSource({"leveldbjni,LevelDB 1.13 (leveldbjni-all", "system,LevelDB 1.23 (system library"})
  void opensTheLibraryTheBindingChooses(String library, String version, @TempDir Path dir) throws Exception {
    Properties p = new Properties();
    p.setProperty("leveldb.library", library);
    try (LayerDirect db = row.openDirect(dir, p)) {
      db.put("k1".getBytes(StandardCharsets.UTF_8), "v1".getBytes(StandardCharsets.UTF_8));
    }
    row.openDirect(dir, p).close();
    assertTrue(row.libraryVersion(p).startsWith(version), row.libraryVersion(p));
    // the second open replayed the first one's log into a table: 1.13 names it .sst, 1.23 .ldb
    String table = library.equals("system") ? ".ldb" : ".sst";
    try (var files = Files.list(dir)) {
      assertEquals(1, files.filter(f -> f.toString().endsWith(table)).count(), "one " + table + " table");
    }
  }

  /** A property the binding refuses is refused by the direct side with the binding's words. */
  @ParameterizedTest
  @CsvSource("leveldb.bloombits,10,leveldb.bloombits = '10' is not allowed with leveldb.library=leveldbjni")
  void theDirectSideRefusesWhatTheBindingRefuses(String name, String value, String words, @TempDir Path dir) {
    Properties p = new Properties();
    p.setProperty(EngineProperties.SYNC, "true");
    p.setProperty(name, value);
    Exception e = assertThrows(EngineProperties.BadPropertyException.class, () -> row.openDirect(dir, p).close());
    assertTrue(e.getMessage().contains(words), e.getMessage());
  }
}
