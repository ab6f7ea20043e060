package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineRegistryTest {

  @TempDir
  Path tmp;

  @Test
  void theJarHoldsTheRegistryAndAnotherFileAddsToIt() throws IOException {
    Path extra = tmp.resolve("nothing.properties");
    Files.writeString(extra, "nothing:site.ycsb.embedded.NothingDB\nnothing.files.owned=nothing[.]db\n"
        + "lmdb.label=LMDB, relabelled\n");
    Properties p = EngineRegistry.load(":" + extra + ":"); // empty parts name no file
    assertEquals("site.ycsb.embedded.lmdb.LmdbClient", p.getProperty("lmdb"));
    assertEquals("nothing[.]db", p.getProperty("nothing.files.owned"));
    assertEquals("LMDB, relabelled", p.getProperty("lmdb.label"), "a later file wins");
    assertEquals("data[.]mdb|lock[.]mdb", EngineRegistry.load(null).getProperty("lmdb.files.owned"));
  }

  @Test
  void everyEngineWhoseFilesAreRecognisedNamesItsOwnFiles() {
    for (EngineFiles.Engine engine : EngineFiles.Engine.values()) {
      assertTrue(EngineRegistry.fact(engine.binding, "files.owned") != null, engine.binding);
    }
    assertNull(EngineRegistry.fact("nosuchengine", "files.owned"));
    assertEquals(List.of("kyoto", "leveldb", "lmdb", "rocksdb", "sqlite", "sqlite-columns"),
        List.copyOf(EngineRegistry.engines()), "the name:class lines, no fact");
    assertEquals(List.of("leveldb", "rocksdb", "sqlite", "sqlite-columns", "kyoto", "lmdb"),
        EngineRegistry.enginesInOrder(), "the name:class lines in the file's order");
  }

  @Test
  void factsStartingWithAPrefixAreKeyedByTheRestOfTheirName() {
    Map<String, String> natives = EngineRegistry.factsStartingWith("launch.native.");
    assertEquals("org.sqlite.lib.path={dir},org.sqlite.lib.name=libsqlitejdbc.so", natives.get("libsqlitejdbc.so"));
    assertEquals("jffi.boot.library.path={dir}", natives.get("libjffi-1.2.so"), "a FILE may hold dots");
    assertEquals(List.of("libjffi-1.2.so", "libsqlitejdbc.so", "x86_64-linux-gnu.so"), List.copyOf(natives.keySet()),
        "only that prefix's facts, sorted");
    assertTrue(EngineRegistry.factsStartingWith("no.such.fact.").isEmpty());
  }

  @Test
  void ownedFilesAreTheRegistrysPatternWithTheDatabaseFileQuoted() {
    Pattern sqlite = EngineFiles.ownedFiles("sqlite", "ycsb.db");
    for (String name : List.of("ycsb.db", "ycsb.db-wal", "ycsb.db-shm", "ycsb.db-journal", "ycsb.db.lock")) {
      assertTrue(sqlite.matcher(name).matches(), name);
    }
    for (String name : List.of("ycsbxdb", "ycsb.db-walx", "other.db", "ycsb.db.bak")) {
      assertFalse(sqlite.matcher(name).matches(), name);
    }
    assertNull(EngineFiles.ownedFiles("sqlite", null), "named after a database file, and there is none");
    Pattern kyoto = EngineFiles.ownedFiles("kyoto", "ycsb.kct");
    assertTrue(kyoto.matcher("ycsb.kct" + EngineFiles.KYOTO_BEFORE_REPAIR + ".wal").matches());
    Pattern leveldb = EngineFiles.ownedFiles("leveldb", null);
    for (String name : List.of("CURRENT", "LOG.old", "MANIFEST-000002", "000005.ldb", "000003.log", "000009.dbtmp")) {
      assertTrue(leveldb.matcher(name).matches(), name);
    }
    assertFalse(leveldb.matcher("LOG.old.1712").matches(), "RocksDB's dated old log");
    assertTrue(EngineFiles.ownedFiles("rocksdb", null).matcher("LOG.old.1712").matches());
    Pattern lmdb = EngineFiles.ownedFiles("lmdb", null);
    assertTrue(lmdb.matcher(EngineFiles.LMDB_DATA_FILE).matches());
    assertTrue(lmdb.matcher(EngineFiles.LMDB_LOCK_FILE).matches());
    assertFalse(lmdb.matcher("dataxmdb").matches());
    assertNull(EngineFiles.ownedFiles("nosuchengine", null));
  }
}
