package site.ycsb.embedded.kyoto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.FileWriter;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.embedded.SharedHandles;

/**
 * What a SIGKILL of the writing process costs: a {@link CrashWriter} JVM inserts and prints each
 * acknowledged key, the test kills it at a random moment, runs {@code kctreemgr check} on the
 * file as the kill left it, then reopens it here and reads every key acknowledged so far (in
 * every round: the rounds go on writing into the same file). Compression is zlib, the one
 * compressor kctreemgr can open; the 2011 TreeDB tuning otherwise (small pages, small cache).
 */
class KyotoCrashTest {

  @TempDir
  Path tmp;

  private Properties properties(Path dir) {
    Properties p = new Properties();
    p.setProperty("path", dir.toString());
    p.setProperty("fieldcount", "1");
    p.setProperty("kyoto.pagesize", "1024");
    p.setProperty("kyoto.cachesize", "4m");
    p.setProperty("kyoto.options", "small,linear");
    p.setProperty("kyoto.compression", "zlib");
    return p;
  }

  @Test
  void withSyncAKillLosesNoAcknowledgedInsertAndLeavesACheckableFile() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("sync", "true");
    killRounds(p, 7, 1);
  }

  @Test
  void withoutSyncAKillLosesNoAcknowledgedInsertByDefault() throws Exception {
    killRounds(properties(tmp.resolve("db")), 4, 1);
  }

  @Test
  void withSyncAndBatchesAKillLosesNoCommittedBatchAndNoBatchIsCutInHalf() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("sync", "true");
    p.setProperty("batchsize", "7");
    killRounds(p, 3, 7);
  }

  /**
   * Runs {@code rounds} writers into one database, each killed 0.2 to 1.2 s after its first
   * acknowledged key; after each kill checks the file and every key acknowledged so far.
   */
  private void killRounds(Properties p, int rounds, int batchSize) throws Exception {
    Path props = tmp.resolve("writer.properties");
    try (Writer w = new FileWriter(props.toFile(), StandardCharsets.UTF_8)) {
      p.store(w, null);
    }
    Path file = Path.of(p.getProperty("path")).resolve(KyotoOptions.FILE_DEFAULT);
    Random random = new Random();
    Map<String, Long> acknowledged = new LinkedHashMap<>(); // key -> its round's insert count when killed
    List<String> report = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      String tag = "r" + round;
      long delay = 200 + random.nextInt(1000);
      List<String> keys = runAndKill(props, tag, delay);
      assertTrue(!keys.isEmpty(), "round " + round + ": the writer acknowledged nothing before the kill");
      keys.forEach(k -> acknowledged.put(k, 0L));

      String[] check = check(file);
      assertEquals("0", check[0], "round " + round + ": kctreemgr check rejects the file the kill left:\n"
          + check[1] + "\n" + String.join("\n", report));

      KyotoClient db = new KyotoClient();
      db.setProperties(p);
      db.init();
      try {
        int lost = 0;
        for (String k : acknowledged.keySet()) {
          Map<String, ByteIterator> got = new HashMap<>();
          Status s = db.read("usertable", k, null, got);
          if (s == Status.NOT_FOUND) {
            lost++;
            continue;
          }
          assertEquals(Status.OK, s, k);
          assertEquals(CrashWriter.value(k), got.get("field0").toString(), "the value of " + k);
        }
        report.add(String.format("round %d: killed %d ms after the first ack, %d keys acknowledged in the round,"
            + " %d in all, %d lost", round, delay, keys.size(), acknowledged.size(), lost));
        assertEquals(0, lost, "acknowledged inserts lost after a kill:\n" + String.join("\n", report));
        if (batchSize > 1) {
          assertWholeBatches(db, tag, keys.size(), batchSize);
        }
      } finally {
        db.cleanup();
      }
      assertEquals(0, SharedHandles.openCount());
    }
    System.err.println("[kyoto crash test] " + p.getProperty("sync", "false") + " sync, batchsize " + batchSize
        + ":\n" + String.join("\n", report));
  }

  /** Starts a writer, kills it (SIGKILL) {@code delay} ms after its first key; returns the keys it printed. */
  private List<String> runAndKill(Path props, String tag, long delay) throws Exception {
    List<String> cmd = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
        "-Djava.library.path=" + System.getProperty("java.library.path"),
        "-cp", System.getProperty("java.class.path"),
        CrashWriter.class.getName(), props.toString(), tag);
    Process writer = new ProcessBuilder(cmd).redirectError(tmp.resolve(tag + ".err").toFile()).start();
    List<String> keys = new ArrayList<>();
    CountDownLatch first = new CountDownLatch(1);
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(
          new InputStreamReader(writer.getInputStream(), StandardCharsets.US_ASCII))) {
        for (String line; (line = r.readLine()) != null; ) {
          synchronized (keys) {
            keys.add(line);
          }
          first.countDown();
        }
      } catch (java.io.IOException e) {
        // the pipe closes when the writer dies
      }
    });
    reader.start();
    try {
      boolean started = first.await(20, TimeUnit.SECONDS);
      if (!started) {
        throw new AssertionError("the writer acknowledged nothing in 20 s: "
            + Files.readString(tmp.resolve(tag + ".err")));
      }
      Thread.sleep(delay);
      assertTrue(writer.isAlive(), "the writer died on its own: " + Files.readString(tmp.resolve(tag + ".err")));
    } finally {
      writer.destroyForcibly(); // SIGKILL on Linux
      writer.waitFor(10, TimeUnit.SECONDS);
      reader.join(10_000);
    }
    synchronized (keys) {
      return new ArrayList<>(keys);
    }
  }

  /** kctreemgr check on a copy of the files the kill left (the check repairs what it opens). */
  private String[] check(Path file) throws Exception {
    Path copy = Files.createTempDirectory(tmp, "check");
    try (Stream<Path> files = Files.list(file.getParent())) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (f.getFileName().toString().startsWith(file.getFileName().toString())) {
          Files.copy(f, copy.resolve(f.getFileName()));
        }
      }
    }
    Process p = new ProcessBuilder("kctreemgr", "check", copy.resolve(file.getFileName()).toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("kctreemgr check timed out");
    }
    return new String[] {String.valueOf(p.exitValue()), out};
  }

  /** Every batch of the round is in the file whole or not at all (the one being applied at the kill). */
  private static void assertWholeBatches(KyotoClient db, String tag, int acknowledged, int batchSize)
      throws Exception {
    for (long b = 0; b * batchSize < acknowledged + 2L * batchSize; b++) {
      int present = 0;
      for (long i = b * batchSize; i < (b + 1) * batchSize; i++) {
        if (db.storedBytes(CrashWriter.key(tag, i)) != null) {
          present++;
        }
      }
      assertTrue(present == 0 || present == batchSize,
          "batch " + b + " of round " + tag + " is cut: " + present + " of " + batchSize + " keys in the file");
      if (b * batchSize < acknowledged) {
        assertEquals(batchSize, present, "acknowledged batch " + b + " of round " + tag);
      }
    }
  }
}
