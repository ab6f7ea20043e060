package site.ycsb.embedded.leveldb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.embedded.KeyValueDbContract;
import site.ycsb.embedded.SmallFilesystem;

/**
 * The contract and LevelDB's own checks on leveldbjni; {@link LevelDbSystemClientTest} runs them on the system
 * library.
 */
class LevelDbClientTest extends KeyValueDbContract {

  LevelDbClientTest() {
    super("leveldb", LevelDbClient::new, LevelDbOptions.class);
  }

  /** The value of leveldb.library every test of this class runs with. */
  protected String library() {
    return LevelDbOptions.LIBRARY_LEVELDBJNI;
  }

  /** The LevelDB release that library carries. */
  protected String levelDbVersion() {
    return "1.13";
  }

  @Override
  protected Properties properties(java.nio.file.Path dir) {
    Properties p = super.properties(dir);
    p.setProperty(LevelDbOptions.LIBRARY, library());
    return p;
  }

  /** The suffix of the table files this library writes: LevelDB 1.13 names them .sst. */
  protected String tableSuffix() {
    return ".sst";
  }

  /** A process holding LOCK as LevelDB's own LockFile does (fcntl, write lock over the whole file). */
  @Override
  protected Process holdFromOutside(Path dir) throws Exception {
    return holdWithPython(LOCKF_WHOLE_FILE, dir.resolve("LOCK").toString(), "exclusive");
  }

  @Override
  protected List<String[]> badProperties() {
    return List.of(
        new String[] {"leveldb.library", "jni"},
        // leveldbjni has neither option; the system library refuses what LevelDB 1.23 would clip
        new String[] {"leveldb.bloombits", library().equals("system") ? "-1" : "10"},
        new String[] {"leveldb.maxfilesize", library().equals("system") ? "512k" : "4m"},
        new String[] {"leveldb.compression", "zstd"},
        new String[] {"compression", "lz4"},
        new String[] {"leveldb.blocksize", "tiny"},
        new String[] {"leveldb.maxopenfiles", "3"},
        new String[] {"writebuffersize", "3g"},
        new String[] {"leveldb.paranoidchecks", "sometimes"},
        new String[] {"leveldb.createifmissing", "perhaps"},
        // with leveldbjni even true is refused: a database converts from 1.13 to 1.23 only
        new String[] {"leveldb.convert", library().equals("system") ? "perhaps" : "true"});
  }

  /**
   * The flush of the memtable at close writes a table through mmap: on a disk another process
   * filled meanwhile that was a SIGBUS. Now the close leaves the flush to the next open (the log
   * holds the writes), and every record is there once the disk has room again.
   */
  @Test
  void aCloseOnADiskFilledMeanwhileLeavesTheFlushToTheNextOpen() throws Exception {
    java.nio.file.Path mount = tmp.resolve("small");
    try (SmallFilesystem fs = SmallFilesystem.mount(mount, 48)) {
      Properties p = fullDiskProperties(mount.resolve("db"));
      DB db = open(p);
      for (int i = 0; i < 500; i++) {
        assertEquals(Status.OK, db.insert("usertable", "c" + i, record("f", "value" + i)));
      }
      java.nio.file.Path filler = fs.fill("filler"); // another process fills the disk
      String printed = capturingStderr(() -> close(db));
      assertTrue(printed.contains("the flush of the memtable at close refused") && printed.contains("MB free"),
          printed);
      Files.delete(filler);
      fs.resize(100);
      DB again = open(p);
      for (int i = 0; i < 500; i++) {
        assertEquals(java.util.Map.of("f", "value" + i), read(again, "c" + i, null));
      }
      close(again);
    }
  }

  @Test
  void optionsAreAppliedAsLevelDbReportsThem() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("writebuffersize", "64k");
    p.setProperty("leveldb.compression", "none");
    p.setProperty("leveldb.blocksize", "1024");
    DB db = open(p);
    byte[] value = new byte[1000]; // all zeros: Snappy would shrink these to almost nothing
    for (int i = 0; i < 2000; i++) {
      var rec = new java.util.HashMap<String, site.ycsb.ByteIterator>();
      rec.put("f", new site.ycsb.ByteArrayByteIterator(value));
      assertTrue(db.insert("usertable", String.format("k%05d", i), rec).isOk());
    }
    close(db);
    // A 64 KB write buffer flushes ~2 MB of writes into many table files; uncompressed, the
    // tables hold at least the raw bytes.
    long tables;
    long bytes;
    try (Stream<java.nio.file.Path> s = Files.list(tmp.resolve("db"))) {
      List<java.nio.file.Path> ldb =
          s.filter(f -> f.toString().endsWith(".sst") || f.toString().endsWith(".ldb")).toList();
      tables = ldb.size();
      bytes = 0;
      for (java.nio.file.Path f : ldb) {
        bytes += Files.size(f);
      }
    }
    assertTrue(tables >= 5, "small write buffer gives many tables: " + tables);
    assertTrue(bytes > 1_500_000, "compression off keeps the zeros: " + bytes);
  }

  @Test
  void snappyCompressionShrinksCompressibleValues() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("writebuffersize", "64k");
    DB db = open(p);
    byte[] value = new byte[1000];
    for (int i = 0; i < 2000; i++) {
      var rec = new java.util.HashMap<String, site.ycsb.ByteIterator>();
      rec.put("f", new site.ycsb.ByteArrayByteIterator(value));
      db.insert("usertable", String.format("k%05d", i), rec);
    }
    close(db);
    long bytes = 0;
    try (Stream<java.nio.file.Path> s = Files.list(tmp.resolve("db"))) {
      List<java.nio.file.Path> tables =
          s.filter(f -> f.toString().endsWith(".sst") || f.toString().endsWith(".ldb")).toList();
      for (java.nio.file.Path f : tables) {
        bytes += Files.size(f);
      }
    }
    assertTrue(bytes < 500_000, "Snappy (the default) shrinks zeros: " + bytes);
  }

  @Test
  void closeFlushesTheMemtableSoTheNextOpenReplaysNoLog() throws Exception {
    writeThousandAndClose();
    long logBytes = 0;
    long tables = 0;
    try (Stream<java.nio.file.Path> s = Files.list(tmp.resolve("db"))) {
      for (java.nio.file.Path f : s.toList()) {
        if (f.toString().endsWith(".log")) {
          logBytes += Files.size(f);
        } else if (f.toString().endsWith(".sst") || f.toString().endsWith(".ldb")) {
          tables++;
        }
      }
    }
    assertEquals(0, logBytes, "the log holds nothing left to replay");
    assertTrue(tables >= 1, "the memtable went to a table file");
    DB again = open();
    assertEquals(java.util.Map.of("f", "value999"), read(again, "k00999", null));
  }

  /**
   * A run that only reads (workloads C and E) has nothing to flush: its close must not switch to a
   * new log and edit the MANIFEST (a file created and synced inside YCSB's timed run). LevelDB's
   * open makes its own new log and MANIFEST; the files the close finds are the ones it leaves. A
   * run that writes still flushes.
   */
  @Test
  void aReadOnlyRunLeavesTheFilesAsItsOpenMadeThem() throws Exception {
    writeThousandAndClose();
    DB reader = open();
    java.util.Set<String> opened = fileNames();
    assertEquals(java.util.Map.of("f", "value500"), read(reader, "k00500", null));
    close(reader);
    assertEquals(opened, fileNames(), "the close of a read-only session created or removed no file");
    DB writer = open();
    opened = fileNames();
    assertEquals(Status.OK, writer.update("usertable", "k00500", record("f", "changed")));
    close(writer);
    assertTrue(!opened.equals(fileNames()), "a session that wrote flushed its memtable to a new table");
    DB again = open();
    assertEquals(java.util.Map.of("f", "changed"), read(again, "k00500", null));
  }

  /** Keys k00000..k00999 with values value0..value999, written in one session that is then closed. */
  private void writeThousandAndClose() throws Exception {
    DB db = open();
    for (int i = 0; i < 1000; i++) {
      assertEquals(Status.OK, db.insert("usertable", String.format("k%05d", i), record("f", "value" + i)));
    }
    close(db);
  }

  private java.util.Set<String> fileNames() throws java.io.IOException {
    try (Stream<java.nio.file.Path> s = Files.list(tmp.resolve("db"))) {
      return s.map(f -> f.getFileName().toString()).filter(n -> !n.startsWith("LOG"))
          .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    }
  }

  @Test
  void createIfMissingFalseRefusesAnEmptyDirectory() {
    java.util.Properties p = properties(tmp.resolve("empty"));
    p.setProperty(LevelDbOptions.CREATE_IF_MISSING, "false");
    site.ycsb.DBException e = org.junit.jupiter.api.Assertions.assertThrows(site.ycsb.DBException.class, () -> open(p));
    assertTrue(e.getMessage().contains("no LevelDB database in") && e.getMessage().contains("createifmissing=false"),
        e.getMessage());
  }

  @Test
  void statsNameTheLevels() throws Exception {
    DB db = open();
    db.insert("usertable", "a", record("f", "1"));
    String stats = ((LevelDbClient) db).handle().stats();
    assertTrue(stats.contains("Level") && stats.contains("Files"), stats);
    assertEquals(library(), ((LevelDbClient) db).handle().library());
    assertEquals(levelDbVersion(), ((LevelDbClient) db).handle().levelDbVersion());
  }
  /**
   * Without CURRENT, LevelDB would start an empty database and delete the tables: the directory is refused
   * untouched (by the binding and through YCSB's client, exit 3) until leveldb.repair=true asks for LevelDB's
   * RepairDB, which gets every record back and says what it did.
   */
  @Test
  void aDirectoryWithoutCurrentIsRefusedUntouchedAndRepairedOnlyWhenAsked() throws Exception {
    Path dir = tmp.resolve("db");
    loadAndClose(dir, 100);
    Files.delete(dir.resolve("CURRENT"));
    assertRefusedUntouched(dir, properties(dir), dir.toString(), "but no CURRENT", "leveldb.repair=true");
    assertYcsbRefusesUntouched(dir, "but no CURRENT");
    Properties repair = properties(dir);
    repair.setProperty(LevelDbOptions.REPAIR, "true");
    String printed = capturingStderr(() -> {
      DB db = open(repair);
      assertLoaded(db, 100);
      close(db);
    });
    assertTrue(printed.contains("[leveldb] repair: ") && printed.contains("**** Repaired leveldb")
        && printed.contains("leveldb.repair = true"), printed);
    DB again = open(properties(dir)); // repaired for good: no repair needed any more
    assertLoaded(again, 100);
  }

  @Test
  void aCurrentNamingAMissingManifestIsRefusedUntouched() throws Exception {
    Path dir = tmp.resolve("db");
    loadAndClose(dir, 10);
    Files.writeString(dir.resolve("CURRENT"), "MANIFEST-000099\n");
    assertRefusedUntouched(dir, properties(dir), "CURRENT names MANIFEST-000099, which is missing");
  }
  /** LevelDB rotates LOG over LOG.old before it finds the MANIFEST unreadable: both are put back. */
  @Test
  void aRefusedOpenPutsBackTheLogsLevelDbRotated() throws Exception {
    Path dir = tmp.resolve("db");
    site.ycsb.embedded.EngineFileFixtures.writeFilesOf(site.ycsb.embedded.EngineFiles.Engine.named("leveldb"),
        dir);
    Files.move(dir.resolve("000005.sst"), dir.resolve("000005" + tableSuffix())); // as this library names it
    Files.writeString(dir.resolve("LOG.old"), "an older LOG");
    Files.delete(dir.resolve("LOCK"));
    assertRefusedUntouched(dir, properties(dir), "does not hold a readable LevelDB database");
  }
}
