package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.Test;
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
  @Test
  void leveldbRefusesWhatTheBindingRefuses(@TempDir Path dir) {
    Properties p = new Properties();
    p.setProperty("leveldb.bloombits", "10"); // leveldbjni (LevelDB 1.13) has no bloom filter option
    Exception e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> Engines.named("leveldb").openDirect(dir, p).close());
    assertTrue(e.getMessage().contains("leveldb.bloombits = '10' is not allowed with leveldb.library=leveldbjni"),
        e.getMessage());
  }

  /** RocksDB's direct side reads RocksDbOptions: a combination the binding refuses is refused there too. */
  @Test
  void rocksdbRefusesWhatTheBindingRefuses(@TempDir Path dir) {
    Properties p = new Properties();
    p.setProperty(EngineProperties.SYNC, "true");
    p.setProperty("rocksdb.disablewal", "true"); // RocksDB syncs writes through the write-ahead log
    Exception e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> Engines.named("rocksdb").openDirect(dir, p).close());
    assertTrue(e.getMessage().contains("rocksdb.disablewal"), e.getMessage());
  }

  /** Both LevelDB libraries through the binding's handle: what one direct side writes, the next one reads. */
  @ParameterizedTest
  @CsvSource({"leveldbjni,LevelDB 1.13 (leveldbjni-all", "system,LevelDB 1.23 (system library"})
  void leveldbOpensTheLibraryTheBindingChooses(String library, String version, @TempDir Path dir) throws Exception {
    Properties p = new Properties();
    p.setProperty("leveldb.library", library);
    Engines.Engine leveldb = Engines.named("leveldb");
    byte[] key = "k1".getBytes(StandardCharsets.UTF_8);
    byte[] value = "v1".getBytes(StandardCharsets.UTF_8);
    try (LayerDirect db = leveldb.openDirect(dir, p)) {
      db.put(key, value);
    }
    try (LayerDirect db = leveldb.openDirect(dir, p)) {
      assertArrayEquals(value, db.get(key));
      assertEquals(1, db.scanAll());
    }
    assertTrue(leveldb.libraryVersion(p).startsWith(version), leveldb.libraryVersion(p));
    // the second open replayed the first one's log into a table: 1.13 names it .sst, 1.23 .ldb
    String table = library.equals("system") ? ".ldb" : ".sst";
    try (var files = Files.list(dir)) {
      assertEquals(1, files.filter(f -> f.toString().endsWith(table)).count(), "one " + table + " table");
    }
  }
}
