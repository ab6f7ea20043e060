package site.ycsb.embedded.lmdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.embedded.CheckedClient;
import site.ycsb.embedded.ChildJvm;
import site.ycsb.embedded.EngineFiles;
import site.ycsb.embedded.SmallFilesystem;
import site.ycsb.embedded.Warmup;
import site.ycsb.embedded.crash.CrashVerifier;
import site.ycsb.embedded.crash.CrashWriter;

/**
 * An open on a full disk with the free-space guard off (diskspacemargin=0): LMDB grows lock.mdb with
 * ftruncate and stores its header through a shared map, and on a full tmpfs that store is a SIGBUS that
 * kills the JVM, with the write map on or off. Each writer runs in a JVM of its own
 * ({@link CrashWriter}: exit 3 is a refused open, 1 an insert that returned ERROR, 134 the crash) on a
 * small tmpfs (mounting needs root; without it the test is skipped loudly, and fails when CI is set).
 */
class LmdbFullDiskTest {

  @TempDir
  Path tmp;

  @Test
  void anOpenOnAFullDiskIsRefusedAndAReopenOnAFullDiskKeepsEveryAcknowledgedRecord() throws Exception {
    Path mount = tmp.resolve("m");
    try (SmallFilesystem fs = SmallFilesystem.mount(mount, 2)) {
      Path dir = mount.resolve("db");
      Path filler = fs.fill("filler");

      String[] refused = write(dir, "full", 10, "diskspacemargin=0");
      assertEquals("3", refused[0], "the open is refused (" + ChildJvm.CRASHED + " was the SIGBUS):\n" + refused[2]);
      assertTrue(refused[2].contains("cannot give LMDB's lock file " + dir.resolve("lock.mdb"))
          && refused[2].contains("No space left on device") && refused[2].contains("the open is refused"),
          refused[2]);
      assertEquals("", refused[1], "nothing acknowledged");
      assertFalse(Files.exists(dir.resolve(EngineFiles.LMDB_LOCK_FILE)) || Files.exists(dir.resolve(
          EngineFiles.LMDB_DATA_FILE)), "a refused open leaves no LMDB file behind");

      // the write map with the guard off: refused by name before LMDB sees the directory
      String[] mapped = write(dir, "writemap", 10, "diskspacemargin=0", "lmdb.writemap=true");
      assertEquals("3", mapped[0], "refused (" + ChildJvm.CRASHED + " was the SIGBUS):\n" + mapped[2]);
      assertTrue(mapped[2].contains("property lmdb.writemap = 'true' is not allowed: expected false with"
          + " diskspacemargin (0); a write through the map onto a full disk is a SIGBUS"), mapped[2]);

      Files.delete(filler);
      String[] written = write(dir, "room", 200, "diskspacemargin=0");
      assertEquals("0", written[0], written[2]);
      assertEquals(200, written[1].lines().count(), written[2]);
      Path acked = Files.writeString(tmp.resolve("acked.txt"), written[1]);
      assertEquals(LmdbHandle.lockFileBytes(LmdbOptions.MAX_READERS_DEFAULT),
          Files.size(dir.resolve(EngineFiles.LMDB_LOCK_FILE)), "LMDB kept the lock file the binding wrote");

      // the disk full again: the reopen finds lock.mdb's blocks there; each write is an ERROR (pwrite's ENOSPC)
      fs.fill("filler");
      String[] full = write(dir, "again", 1_000_000, "diskspacemargin=0");
      assertEquals("1", full[0], "an insert returned ERROR (" + ChildJvm.CRASHED + " is a crash):\n" + full[2]);
      assertTrue(full[2].contains("returned Status [name=ERROR"), full[2]);

      String[] verified = ChildJvm.run(tmp, "verify", Map.of(), CrashVerifier.class, "-db",
          LmdbClient.class.getName(), "-p", "path=" + dir, "-p", "diskspacemargin=0", "-acked", acked.toString());
      assertTrue(verified[1].contains("acknowledged=200\npresent=200\nlost=0\nwrong=0\nerrors=0\nopen=ok\n"),
          verified[1] + verified[2]);
    }
  }

  @Test
  void aDiskLmdbFillsItselfIsNamedFullNotAnIoError() throws Exception {
    Path mount = tmp.resolve("m");
    try (SmallFilesystem fs = SmallFilesystem.mount(mount, 8)) {
      Path dir = mount.resolve("db");
      // LMDB writes a commit's pages with one pwritev: cut short by the full disk, LMDB returns EIO, not ENOSPC
      String[] full = write(dir, "fill", 1_000_000, "-valuesize", "10000", "diskspacemargin=0");
      assertEquals("1", full[0], "an insert returned ERROR (" + ChildJvm.CRASHED + " is a crash):\n" + full[2]);
      assertTrue(full[2].contains("the disk is full: "), full[2]);
      assertTrue(full[2].matches("(?s).* has \\d+ bytes free .*"), full[2]);
      fs.resize(12); // room again: the same environment takes more
      String[] room = write(dir, "room", 10, "-valuesize", "10000", "diskspacemargin=0");
      assertEquals("0", room[0], room[2]);
    }
  }

  /**
   * A reader in another process (mdb_dump, its output not read, so it holds its read transaction) pins a
   * snapshot: no page a later commit frees can be reused, and each insert of a 100-byte record grows the file by
   * its copied path (about 12 KB), far more than the guard counted (twice the write's bytes, looked at once per
   * MB). With the write map that growth can run past the free space between two looks: a SIGBUS in
   * mdb_page_alloc (exit 134). The guard follows the last page LMDB used: the insert that finds too little room
   * is an ERROR naming the filesystem, and every acknowledged record is there once space is freed.
   */
  @Test
  void aReaderInAnotherProcessPinningPagesIsAnErrorThroughTheWriteMapNotASigbus() throws Exception {
    Path mount = tmp.resolve("pinned");
    try (SmallFilesystem fs = SmallFilesystem.mount(mount, 48)) {
      Path dir = mount.resolve("db");
      List<String> args = new ArrayList<>(List.of("-db", LmdbClient.class.getName(), "-p", "path=" + dir,
          "-p", "lmdb.writemap=true", "-p", "lmdb.mapsize=1g", "-records", "1000000", "-valuesize", "100"));
      ChildJvm writer = ChildJvm.start(tmp, "pinned", Map.of(), CrashWriter.class, args.toArray(new String[0]));
      writeBesideAReader(writer, mount, dir, () -> writer.stdout().lines().count() >= 2000, null);
      long acknowledged = writer.stdout().lines().count();
      assertTrue(acknowledged > 2000, acknowledged + " acknowledged");
      Path acked = Files.writeString(tmp.resolve("pinned-acked.txt"), writer.stdout());
      fs.resize(200);
      String[] verified = ChildJvm.run(tmp, "pinned-verify", Map.of(), CrashVerifier.class, "-db",
          LmdbClient.class.getName(), "-p", "path=" + dir, "-valuesize", "100", "-acked", acked.toString());
      assertTrue(verified[1].contains("acknowledged=" + acknowledged + "\npresent=" + acknowledged
          + "\nlost=0\nwrong=0\nerrors=0\nopen=ok\n"), verified[1] + verified[2]);
    }
  }

  /**
   * The write map beside a reader of another process with 16 writer threads of 4 MB values: each thread's look
   * at the free space found room for its own write, and LMDB then ran them one after the other past the end of
   * the 160 MB disk: a SIGBUS in mdb_cursor_put (3 of 3 tries; 1 to 8 threads ended in an ERROR). Now each large
   * write is held in the guard's reserve from its look until it was applied, so the threads' looks count each
   * other: inserts end in an ERROR naming the writes under way, and every acknowledged record is there, whole.
   */
  @Test
  void sixteenWritersOfLargeValuesThroughTheWriteMapBesideAReaderEndInAnErrorNotASigbus() throws Exception {
    Path mount = tmp.resolve("many");
    try (SmallFilesystem fs = SmallFilesystem.mount(mount, 160)) {
      Path dir = mount.resolve("db");
      Path go = tmp.resolve("go");
      int valueBytes = 4 << 20;
      ChildJvm writer = ChildJvm.start(tmp, "many", Map.of(), ParallelWriter.class, "16",
          Integer.toString(valueBytes), "100", go.toString(), "path=" + dir, "lmdb.writemap=true", "lmdb.mapsize=1g");
      writeBesideAReader(writer, mount, dir, () -> writer.stderr().contains("ready"), go);
      List<String> acked = writer.stdout().lines().toList();
      assertTrue(acked.size() > 16, acked.size() + " acknowledged");
      fs.resize(400);
      LmdbClient db = new LmdbClient();
      java.util.Properties p = new java.util.Properties();
      p.setProperty("path", dir.toString());
      p.setProperty("fieldcount", "1");
      db.setProperties(p);
      db.init();
      try {
        for (String key : acked) {
          Map<String, site.ycsb.ByteIterator> row = new java.util.HashMap<>();
          assertEquals(site.ycsb.Status.OK, db.read("usertable", key, null, row), key);
          assertTrue(java.util.Arrays.equals(ParallelWriter.value(key, valueBytes), row.get("field0").toArray()),
              key + ": the bytes written");
        }
      } finally {
        db.cleanup();
      }
    }
  }

  /** Whether a writer is ready for the reader. */
  @FunctionalInterface
  private interface Ready {
    boolean now() throws IOException;
  }

  /**
   * Starts a reader of another process on {@code dir} once the writer is {@code ready}: mdb_dump, whose output is
   * never read, so that once the pipe is full it waits holding its read transaction. Then lets the writer go
   * (creates {@code go}, unless null) and waits for it: its inserts must end in an ERROR (exit 1) naming the
   * filesystem and the margin, while mdb_dump still holds its snapshot.
   */
  private static void writeBesideAReader(ChildJvm writer, Path mount, Path dir, Ready ready, Path go)
      throws Exception {
    Process reader = null;
    try {
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (writer.isAlive() && !ready.now() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(writer.isAlive(), "the writer runs until the reader comes:\n" + writer.stderr());
      reader = new ProcessBuilder("mdb_dump", "-p", dir.toString()).redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
      while (go != null && reader.isAlive() && reader.getInputStream().available() == 0
          && System.nanoTime() < deadline) {
        Thread.sleep(10); // its first line comes after its read transaction began
      }
      if (go != null) {
        Files.createFile(go);
      }
      int exit = writer.waitFor();
      assertEquals(1, exit, "an insert returned ERROR (" + ChildJvm.CRASHED + " is the SIGBUS):\n" + writer.stderr());
      assertTrue(reader.isAlive(), "mdb_dump still held its snapshot when the writer stopped");
      assertTrue(writer.stderr().contains("mounted on " + mount) && writer.stderr().contains("diskspacemargin"),
          "the refused insert names the filesystem and the margin:\n" + writer.stderr());
    } finally {
      if (reader != null) {
        reader.destroyForcibly().waitFor();
      }
      if (writer.isAlive()) {
        writer.waitFor();
      }
    }
  }

  /**
   * The warm-up's scratch database sits beside the real one, on its disk. On a disk another process filled, a
   * read-only run of an intact database was refused (exit 3) because the scratch open was: the warm-up is skipped
   * with a line that says why, and the run reads every record, under bin/ycsb's driver and YCSB's own Client alike.
   */
  @Test
  void aWarmUpOnADiskAnotherProcessFilledIsSkippedAndTheReadOnlyRunReadsEveryRecord() throws Exception {
    Path mount = tmp.resolve("warm");
    try (SmallFilesystem fs = SmallFilesystem.mount(mount, 8)) {
      Path dir = mount.resolve("db");
      // the free-space guard off (diskspacemargin=0), as in the run below: a run that only reads needs no room
      String[] load = launch(dir, "-load", "recordcount=2000", "diskspacemargin=0", Warmup.OPERATIONS + "=0");
      assertEquals("0", load[0], load[2]);
      fs.fill("filler");
      for (String main : List.of(DRIVER, CheckedClient.class.getName())) {
        String[] run = launch(main, dir, "-t", "recordcount=2000", "operationcount=2000", "readproportion=1",
            "updateproportion=0", "diskspacemargin=0");
        assertEquals("0", run[0], main + ": the run is not refused for the scratch database:\n" + run[2]);
        assertSkippedForTheFullDisk(run[2]);
        assertTrue(run[1].contains("[READ], Return=OK, 2000"), run[1]);
        assertEquals(List.of("db", "filler"), listing(mount), "no scratch directory is left");
      }
    }
  }

  /**
   * A load that deletes the old database first (destroy=true) and fits the disk once, while the warm-up's scratch
   * database, made while the old one is still there, fills it: the warm-up is skipped, the load writes every
   * record (exit 3 for the scratch database's failed close before). Under YCSB's own Client (YCSB_CLIENT=upstream):
   * bin/ycsb's driver opens the real database, and so deletes the old one, before its warm-up.
   */
  @Test
  @SuppressWarnings("try") // the mount is the test's disk; nothing else is done with it
  void aWarmUpThatFillsTheDiskIsSkippedAndTheLoadThatFitsWritesEveryRecord() throws Exception {
    Path mount = tmp.resolve("fills");
    try (SmallFilesystem fs = SmallFilesystem.mount(mount, 4)) {
      Path dir = mount.resolve("db");
      String[] first = launch(dir, "-load", "recordcount=1500", "diskspacemargin=0", Warmup.OPERATIONS + "=0");
      assertEquals("0", first[0], first[2]);
      String[] again = launch(dir, "-load", "recordcount=1500", "diskspacemargin=0", "destroy=true");
      assertEquals("0", again[0], "the load is not refused for the scratch database:\n" + again[2]);
      assertSkippedForTheFullDisk(again[2]);
      assertTrue(again[1].contains("[INSERT], Return=OK, 1500"), again[1]);
      assertEquals(List.of("db"), listing(mount), "no scratch directory is left");
    }
  }

  private static void assertSkippedForTheFullDisk(String stderr) {
    assertTrue(stderr.contains("[ycsb-embedded] warm-up: skipped: the scratch lmdb database failed (")
        && stderr.contains("No space left on device") && stderr.contains("the measured phase runs without a warm-up"),
        stderr);
  }

  /** bin/ycsb's main class (harness/), on the binding's run-time class path. */
  private static final String DRIVER = "site.ycsb.embedded.harness.Driver";

  /** A {@code load} ("-load") or {@code run} ("-t") of LMDB by YCSB's Client: {exit, stdout, stderr}. */
  private String[] launch(Path dir, String phase, String... properties) throws Exception {
    return launch(CheckedClient.class.getName(), dir, phase, properties);
  }

  /** The same by {@code main} (YCSB's command line) in a JVM of its own. */
  private String[] launch(String main, Path dir, String phase, String... properties) throws Exception {
    List<String> args = new ArrayList<>(List.of("-db", LmdbClient.class.getName(), phase, "-p",
        "workload=site.ycsb.workloads.CoreWorkload", "-p", "fieldcount=1", "-p", "fieldlength=1000", "-p",
        "path=" + dir));
    for (String p : properties) {
      args.addAll(List.of("-p", p));
    }
    return ChildJvm.run(tmp, "launch" + phase, Map.of(), Class.forName(main), args.toArray(new String[0]));
  }

  private static List<String> listing(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * A {@link CrashWriter} JVM inserting {@code records} records into {@code dir}: {exit, stdout, stderr}. Each of
   * {@code options} is a property (name=value), or a writer's option and its value ("-valuesize", "10000").
   */
  private String[] write(Path dir, String name, int records, String... options) throws Exception {
    List<String> args = new ArrayList<>(List.of("-db", LmdbClient.class.getName(), "-p", "path=" + dir,
        "-records", Integer.toString(records)));
    for (int i = 0; i < options.length; i++) {
      args.addAll(options[i].startsWith("-") ? List.of(options[i], options[++i]) : List.of("-p", options[i]));
    }
    return ChildJvm.run(tmp, name, Map.of(), CrashWriter.class, args.toArray(new String[0]));
  }
}
