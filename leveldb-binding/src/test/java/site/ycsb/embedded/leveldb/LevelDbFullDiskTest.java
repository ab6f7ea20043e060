package site.ycsb.embedded.leveldb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.embedded.MmapSpace;
import site.ycsb.embedded.SmallFilesystem;
import site.ycsb.embedded.crash.CrashVerifier;
import site.ycsb.embedded.crash.CrashWriter;

/**
 * leveldbjni (LevelDB 1.13) writes through mmap, where a full filesystem is a SIGBUS that kills the JVM
 * (exit 134). Each writer runs in a JVM of its own on a small tmpfs (mounting needs root;
 * without it the tests are skipped loudly, and fail when CI is set), and every acknowledged record is read
 * back once the disk has room again.
 */
class LevelDbFullDiskTest {

  @TempDir
  Path tmp;

  /**
   * (a) One value larger than the room the margin leaves: 40 MB values on a 120 MB tmpfs were accepted and
   * crashed the JVM. The free-space check before the write counts the write itself three times, so the
   * first insert is an ERROR; 16 MB values are accepted while they fit and refused after.
   */
  @Test
  void aValueLargerThanTheRoomLeftIsAnErrorNotACrash() throws Exception {
    Path mount = tmp.resolve("m1");
    try (SmallFilesystem fs = SmallFilesystem.mount(mount, 120)) {
      String[] big = java(Map.of(), CrashWriter.class, "-db", LevelDbClient.class.getName(),
          "-p", "path=" + mount.resolve("big"), "-valuesize", "40000000", "-records", "40");
      assertEquals("1", big[0], "an insert returned ERROR (134 was the SIGBUS):\n" + big[2]);
      assertEquals("", big[1], "the first 40 MB value is refused: three copies and the margin exceed 120 MB");
      assertTrue(big[2].contains("write refused") && big[2].contains("for this write (40000"), big[2]);
      assertTrue(big[2].contains("[leveldb] WARNING: ") && big[2].contains("MB free on 'tmpfs'")
          && big[2].contains("kills this JVM with SIGBUS"), "the start-up lines say what a filling disk does:\n"
          + big[2]);
      deleteTree(mount.resolve("big"));

      Path dir = mount.resolve("db");
      String[] written = java(Map.of(), CrashWriter.class, "-db", LevelDbClient.class.getName(),
          "-p", "path=" + dir, "-valuesize", "16000000", "-records", "40");
      assertEquals("1", written[0], written[2]);
      assertTrue(written[2].contains("write refused") && written[2].contains("for this write (16000"), written[2]);
      Path acked = Files.writeString(tmp.resolve("acked.txt"), written[1]);
      long keys = written[1].lines().count();
      assertTrue(keys >= 1, "some 16 MB values fit before the refusal:\n" + written[2]);

      fs.resize(400);
      String[] verified = java(Map.of(), CrashVerifier.class, "-db", LevelDbClient.class.getName(),
          "-p", "path=" + dir, "-valuesize", "16000000", "-acked", acked.toString());
      assertTrue(verified[1].contains("acknowledged=" + keys + "\npresent=" + keys + "\nlost=0\nwrong=0\nerrors=0\n"
          + "open=ok\n"), verified[1] + verified[2]);
      deleteTree(dir);
    }
  }

  /**
   * (b) Another process fills the disk while LevelDB writes. No check of the free space can close that
   * window for a library that writes through mmap, so the guard is off here (diskspacemargin=0) and the
   * preloaded libycsb_mmap_space.so alone stands between LevelDB and the SIGBUS: the insert that finds no
   * room is an ERROR ("No space left on device"), later writes are refused until a reopen even once the
   * disk has room (LevelDB 1.13's log is out of step after a failed append), and every acknowledged
   * record is there after the reopen.
   */
  @Test
  void aDiskAnotherProcessFillsIsAnErrorWithThePreloadedLibrary() throws Exception {
    String printed = fillThenReadBack("m2");
    assertTrue(printed.contains("[leveldb] disk: ") && printed.contains(MmapSpace.LIBRARY + " is preloaded"),
        "the start-up lines say the preload protects this run:\n" + printed);
    assertTrue(!printed.contains("not flushed at close"), "the ballast gave the flush its room back:\n" + printed);
  }

  /**
   * (c) The disk is still full at close. LevelDB 1.13's CompactRange, the close's flush of the memtable, would
   * wait for ever for a flush that keeps failing; the close sees that the disk has no room for it, says so,
   * leaves the memtable to the log (which the next open replays) and closes the database.
   */
  @Test
  void aCloseOnADiskStillFullSaysWhatItCouldNotFlushAndEnds() throws Exception {
    String printed = fillThenReadBack("m3", "writer.keepfull=true");
    assertTrue(printed.contains("[leveldb] the memtable was not flushed at close: the disk has ")
        && printed.contains("the log keeps every acknowledged write and the next open replays it"), printed);
    assertTrue(printed.contains("[leveldb] closed "), "the database was closed:\n" + printed);
  }

  /**
   * (d) The same when another process takes the room after the close's checks (the checks are turned off to
   * get there): the flush runs on a thread of its own, LevelDB logs its failure, and the close stops waiting,
   * says why, and leaves the database open for the JVM's exit instead of freeing what LevelDB waits on.
   */
  @Test
  void aFlushThatFailsAfterTheChecksEndsTheCloseWithAnError() throws Exception {
    String printed = fillThenReadBack("m4", "writer.keepfull=true", "writer.checkbeforeflush=false");
    assertTrue(printed.contains("[leveldb] the memtable was not flushed at close: LevelDB's flush of the memtable"
        + " failed: ") && printed.contains("No space left on device"), printed);
    assertTrue(printed.contains("is left open until the JVM exits"), printed);
  }

  /**
   * Runs {@link FullDiskWriter} with the preload and the guard off (and {@code writerArgs}) on a 100 MB tmpfs
   * that another process fills once the first record is written; checks how the writer ended, then reads
   * every acknowledged record back once the disk has room. Returns what the writer printed on stderr.
   */
  private String fillThenReadBack(String mountName, String... writerArgs) throws Exception {
    Path preload = Path.of(System.getProperty("java.library.path")).resolve(MmapSpace.LIBRARY);
    assertTrue(Files.isRegularFile(preload), preload + " is built by mvn process-classes");
    Path mount = tmp.resolve(mountName);
    try (SmallFilesystem fs = SmallFilesystem.mount(mount, 100)) {
      Path dir = mount.resolve("db");
      List<String> args = new ArrayList<>(List.of(mount.resolve("ballast").toString(), Integer.toString(16 << 20),
          "path=" + dir, "diskspacemargin=0", "verbose=true"));
      args.addAll(List.of(writerArgs));
      Process writer = start(Map.of("LD_PRELOAD", preload.toString()), FullDiskWriter.class,
          args.toArray(new String[0]));
      List<String> out = new ArrayList<>();
      StringBuilder err = new StringBuilder();
      List<Thread> readers = drain(writer, out, err);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (isEmpty(out) && writer.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      Path filler = fs.fill("filler"); // the other process
      boolean ended = writer.waitFor(60, TimeUnit.SECONDS);
      if (!ended) {
        writer.destroyForcibly().waitFor();
      }
      join(readers);
      String printed;
      synchronized (err) {
        printed = err.toString();
      }
      assertTrue(ended, "the writer ends (its close waited for ever for LevelDB 1.13's flush):\n" + printed);
      assertEquals(0, writer.exitValue(), "no SIGBUS (134):\n" + printed);
      assertTrue(printed.contains("] insert of key 'full") && printed.contains("No space left on device"), printed);
      List<String> acked;
      synchronized (out) {
        acked = new ArrayList<>(out);
      }
      String closed = acked.remove(acked.size() - 1);
      assertEquals(printed.contains("is left open until the JVM exits") ? "close=FAILED" : "close=OK", closed,
          printed);
      assertEquals("after=ERROR", acked.remove(acked.size() - 1), "no write once one failed:\n" + printed);
      assertTrue(printed.contains("accepts no write until the database is reopened"), printed);
      assertTrue(acked.size() > 100, "the writer acknowledged records before the disk filled: " + acked.size());

      Files.delete(filler);
      Files.deleteIfExists(mount.resolve("ballast"));
      fs.resize(300);
      Properties p = new Properties();
      p.setProperty("path", dir.toString());
      p.setProperty("fieldcount", "1");
      LevelDbClient db = new LevelDbClient();
      db.setProperties(p);
      db.init();
      try {
        for (String key : acked) {
          Map<String, ByteIterator> got = new HashMap<>();
          assertEquals(Status.OK, db.read("usertable", key, null, got), "acknowledged " + key);
          assertArrayEquals(FullDiskWriter.value(key), got.get("field0").toArray(), "contents of " + key);
        }
        assertEquals(Status.NOT_FOUND, db.read("usertable", "after-the-disk-has-room", null, new HashMap<>()));
      } finally {
        db.cleanup();
      }
      deleteTree(dir);
      return printed;
    }
  }

  @Test
  void theStartUpNoteSaysWhatAFillingDiskDoesWithAndWithoutThePreload() {
    String without = LevelDbClient.lowSpaceNote(300L << 20, "'tmpfs' (tmpfs) mounted on /m", false);
    assertEquals("WARNING: 300 MB free on 'tmpfs' (tmpfs) mounted on /m (under 1 GiB): should another process fill"
        + " it, leveldbjni (writes through mmap) kills this JVM with SIGBUS; bin/ycsb prevents it by preloading"
        + " libycsb_mmap_space.so (or set LD_PRELOAD to it, or use leveldb.library=system)", without);
    assertTrue(LevelDbClient.lowSpaceNote(300L << 20, "x", true)
        .startsWith("disk: 300 MB free on x (under 1 GiB): should another process fill it, writes return ERROR"));
    assertTrue(!MmapSpace.preloaded(), "the test JVM runs without the preload");
  }

  /** Reads the process's stdout lines into {@code out} and its stderr into {@code err}; join both threads. */
  private static List<Thread> drain(Process p, List<String> out, StringBuilder err) {
    Thread e = new Thread(() -> {
      try {
        String text = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        synchronized (err) {
          err.append(text);
        }
      } catch (IOException ignored) {
        // the process is gone; what it printed so far is kept
      }
    });
    Thread o = new Thread(() -> {
      try (var r = p.inputReader(StandardCharsets.US_ASCII)) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          synchronized (out) {
            out.add(line);
          }
        }
      } catch (IOException ignored) {
        // as above
      }
    });
    e.start();
    o.start();
    return List.of(e, o);
  }

  private static boolean isEmpty(List<String> lines) {
    synchronized (lines) {
      return lines.isEmpty();
    }
  }

  private static void join(List<Thread> threads) throws InterruptedException {
    for (Thread t : threads) {
      t.join();
    }
  }

  private static Process start(Map<String, String> env, Class<?> main, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-Djava.library.path=" + System.getProperty("java.library.path"),
        "-cp", System.getProperty("java.class.path"), main.getName()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().remove("LD_PRELOAD");
    pb.environment().putAll(env);
    return pb.start();
  }

  /** Runs {@code main} in its own JVM: exit status, stdout, stderr. */
  private static String[] java(Map<String, String> env, Class<?> main, String... args) throws Exception {
    Process p = start(env, main, args);
    List<String> out = new ArrayList<>();
    StringBuilder err = new StringBuilder();
    join(drain(p, out, err));
    int exit = p.waitFor();
    synchronized (out) {
      return new String[] {Integer.toString(exit), out.isEmpty() ? "" : String.join("\n", out) + "\n", err.toString()};
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var files = Files.walk(dir)) {
      for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
