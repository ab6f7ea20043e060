package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryListingTest {

  @TempDir
  Path tmp;

  /** What an engine's failed open does (LevelDB's: LOCK created, LOG rotated) is undone to the byte and mtime. */
  @Test
  void restorePutsTheDirectoryBackAsListed() throws IOException {
    Path dir = tmp.resolve("db");
    EngineFileFixtures.writeFilesOf(EngineFiles.Engine.named("leveldb"), dir);
    Files.delete(dir.resolve("LOCK"));
    Files.writeString(dir.resolve("LOG.old"), "older log");
    Files.setLastModifiedTime(dir.resolve("LOG.old"), FileTime.fromMillis(1_500_000_000_000L));
    Files.setLastModifiedTime(dir, FileTime.fromMillis(1_600_000_000_000L));
    Map<String, String> before = EngineFileFixtures.snapshot(dir);
    DirectoryListing listing = DirectoryListing.take(dir, Set.of("LOG", "LOG.old"));

    Files.move(dir.resolve("LOG"), dir.resolve("LOG.old"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.writeString(dir.resolve("LOG"), "the failed open's log");
    Files.write(dir.resolve("LOCK"), new byte[0]);
    Files.createDirectories(dir.resolve("lost/deeper"));
    Files.write(dir.resolve(DirectoryLock.FILE), new byte[0]);
    assertEquals(List.of(), listing.restore());
    assertEquals(before, EngineFileFixtures.snapshot(dir));
  }

  @Test
  void aChangedFileWithoutACopyIsReported() throws IOException {
    Path dir = tmp.resolve("db");
    EngineFileFixtures.writeFilesOf(EngineFiles.Engine.named("leveldb"), dir);
    DirectoryListing listing = DirectoryListing.take(dir, Set.of());
    Files.writeString(dir.resolve("CURRENT"), "MANIFEST-000009\n");
    Files.delete(dir.resolve("000005.sst"));
    assertEquals(List.of("000005.sst", "CURRENT"), listing.restore());
  }

  @Test
  void aDirectoryTheOpenCreatedIsRemovedWithTheParentsItCreated() throws IOException {
    Path dir = tmp.resolve("a/b/db");
    Map<String, String> parent = EngineFileFixtures.snapshot(tmp);
    DirectoryListing listing = DirectoryListing.take(dir, Set.of());
    Files.createDirectories(dir);
    Files.write(dir.resolve(DirectoryLock.FILE), new byte[0]);
    assertEquals(List.of(), listing.restore());
    assertFalse(Files.exists(tmp.resolve("a")));
    assertEquals(parent.keySet(), EngineFileFixtures.snapshot(tmp).keySet());
  }
}
