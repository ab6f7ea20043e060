package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.embedded.EngineFiles.Engine;

class EngineFilesTest {

  @TempDir
  Path tmp;

  @Test
  void eachEnginesFilesAreRecognisedAsThatEngineOnly() throws IOException {
    for (Engine engine : Engine.values()) {
      Path dir = tmp.resolve(engine.binding);
      EngineFileFixtures.writeFilesOf(engine, dir);
      Map<Engine, List<String>> found = EngineFiles.identify(dir);
      assertEquals(List.of(engine), List.copyOf(found.keySet()), engine + ": " + found);
    }
    assertEquals(List.of("000003.log", "000005.sst", "CURRENT", "IDENTITY", "LOCK", "LOG", "MANIFEST-000002",
        "OPTIONS-000007"), EngineFiles.identify(tmp.resolve("rocksdb")).get(Engine.named("rocksdb")));
    assertEquals(List.of("ycsb.db"), EngineFiles.identify(tmp.resolve("sqlite")).get(Engine.named("sqlite")));
  }

  @Test
  void headersDecideBeforeNames() throws IOException {
    Files.write(tmp.resolve("other.kct"), EngineFiles.SQLITE_HEADER); // an SQLite file named like Kyoto's
    Files.write(tmp.resolve("data.bin"), new byte[] {'K', 'C', '\n', 0, 9, 9});
    Files.write(tmp.resolve("empty.kch"), new byte[0]);
    Files.write(tmp.resolve("x.db-wal"), new byte[] {0x37, 0x7f, 0x06, (byte) 0x83, 0, 0, 0, 0});
    assertEquals(Map.of(Engine.named("sqlite"), List.of("other.kct", "x.db-wal"),
        Engine.named("kyoto"), List.of("data.bin", "empty.kch")), EngineFiles.identify(tmp));
  }

  @Test
  void otherFilesAreNoEnginesFiles() throws IOException {
    assertEquals(Map.of(), EngineFiles.identify(tmp.resolve("missing")));
    assertEquals(Map.of(), EngineFiles.identify(tmp));
    Files.writeString(tmp.resolve("CURRENT"), "not a manifest name\n");
    Files.writeString(tmp.resolve("notes.txt"), "SQLite format 2");
    Files.writeString(tmp.resolve("ycsb.db"), "this is not a database");
    Files.write(tmp.resolve(DirectoryLock.FILE), new byte[0]);
    Files.writeString(tmp.resolve(DataLayout.FILE), "keyencoding=utf8\n");
    // named like a Kyoto file: ignored by its name, as the lock file is
    Files.writeString(tmp.resolve(DataLayout.FILE + ".ycsb.kct"), "keyencoding=utf8\n");
    Files.writeString(tmp.resolve(DataLayout.FILE + ".ycsb.kct" + DataLayout.TEMPORARY), "keyencoding=utf8\n");
    Files.writeString(tmp.resolve("LOG"), "leftover of a failed open");
    Files.createDirectory(tmp.resolve("sub.kct"));
    assertEquals(Map.of(), EngineFiles.identify(tmp));
    assertEquals(Map.of(), EngineFiles.identify(tmp.resolve("notes.txt")), "a file is not a data directory");
  }

  @Test
  void aForeignEngineIsRefusedByNameAndTheDirectoryIsLeftAsItWas() throws IOException {
    for (Engine engine : Engine.values()) {
      Path dir = tmp.resolve(engine.binding);
      EngineFileFixtures.writeFilesOf(engine, dir);
      Map<String, String> before = EngineFileFixtures.snapshot(dir);
      EngineFiles.refuseForeign(dir, engine.binding); // its own files pass
      for (Engine other : EngineFileFixtures.othersThan(engine.binding)) {
        IOException e = assertThrows(IOException.class, () -> EngineFiles.refuseForeign(dir, other.binding));
        assertTrue(e.getMessage().contains("holds " + engine.title + " files")
            && e.getMessage().contains(dir.toAbsolutePath().toString())
            && e.getMessage().contains("not " + other.binding + "'s"), e.getMessage());
      }
      assertEquals(before, EngineFileFixtures.snapshot(dir));
    }
  }

  @Test
  void manyFilesAreListedShortly() throws IOException {
    EngineFileFixtures.writeFilesOf(Engine.named("leveldb"), tmp);
    for (int i = 10; i < 30; i++) {
      Files.write(tmp.resolve(String.format("%06d.ldb", i)), new byte[0]);
    }
    IOException e = assertThrows(IOException.class, () -> EngineFiles.refuseForeign(tmp, "kyoto"));
    assertTrue(e.getMessage().contains("(000003.log, 000005.sst, 000010.ldb, 000011.ldb, 000012.ldb and 21 more)"),
        e.getMessage());
  }
}
