package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import site.ycsb.embedded.EngineProperties;

/**
 * The direct side (layer (b), the side-by-side benchmark's direct side) takes each setting from the binding's Options,
 * so that a property means there what it means in the binding.
 */
class EnginesTest {

  /** sync=true is synchronous=FULL in the binding: on the direct side too, not OFF whatever sync says. */
  @ParameterizedTest
  @CsvSource({"false,,0", "true,,2", "true,NORMAL,1", "false,EXTRA,3"})
  void sqliteRunsWithTheSynchronousLevelTheBindingChooses(String sync, String synchronous, String level,
      @TempDir Path dir) throws Exception {
    Properties p = new Properties();
    p.setProperty(EngineProperties.SYNC, sync);
    if (synchronous != null) {
      p.setProperty("sqlite.synchronous", synchronous);
    }
    try (SqliteDirect db = (SqliteDirect) Engines.named("sqlite").openDirect(dir, p)) {
      assertEquals(level, db.pragma("synchronous"), "sync=" + sync + " sqlite.synchronous=" + synchronous);
      assertEquals("wal", db.pragma("journal_mode"));
    }
    assertTrue(Files.isRegularFile(dir.resolve("ycsb.db")), "the binding's file name");
  }

  /** A property the binding refuses is refused by the direct side with the binding's words. */
  @ParameterizedTest
  @CsvSource(quoteCharacter = '"', value = {
      "leveldb,leveldb.bloombits,10,leveldb.bloombits = '10' is not allowed with leveldb.library=leveldbjni",
      "rocksdb,rocksdb.disablewal,true,rocksdb.disablewal"}) // RocksDB syncs writes through its write-ahead log
  void theDirectSideRefusesWhatTheBindingRefuses(String engine, String name, String value, String words,
      @TempDir Path dir) {
    Properties p = new Properties();
    p.setProperty(EngineProperties.SYNC, "true");
    p.setProperty(name, value);
    Exception e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> Engines.named(engine).openDirect(dir, p).close());
    assertTrue(e.getMessage().contains(words), e.getMessage());
  }

  /** Both LevelDB libraries through the binding's handle (LibraryDBTest reads back through both in more ways). */
  @ParameterizedTest
  @CsvSource({"leveldbjni,LevelDB 1.13 (leveldbjni-all", "system,LevelDB 1.23 (system library"})
  void leveldbOpensTheLibraryTheBindingChooses(String library, String version, @TempDir Path dir) throws Exception {
    Properties p = new Properties();
    p.setProperty("leveldb.library", library);
    Engines.Engine leveldb = Engines.named("leveldb");
    try (LayerDirect db = leveldb.openDirect(dir, p)) {
      db.put("k1".getBytes(StandardCharsets.UTF_8), "v1".getBytes(StandardCharsets.UTF_8));
    }
    leveldb.openDirect(dir, p).close();
    assertTrue(leveldb.libraryVersion().of(p).startsWith(version), leveldb.libraryVersion().of(p));
    // the second open replayed the first one's log into a table: 1.13 names it .sst, 1.23 .ldb
    String table = library.equals("system") ? ".ldb" : ".sst";
    try (var files = Files.list(dir)) {
      assertEquals(1, files.filter(f -> f.toString().endsWith(table)).count(), "one " + table + " table");
    }
  }
}
