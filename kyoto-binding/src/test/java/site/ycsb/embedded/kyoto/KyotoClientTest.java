package site.ycsb.embedded.kyoto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.FileWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Vector;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.embedded.ClientProcess;
import site.ycsb.embedded.KeyValueDbContract;
import site.ycsb.embedded.SharedHandles;

class KyotoClientTest extends KeyValueDbContract {

  KyotoClientTest() {
    super("kyoto", KyotoClient::new, KyotoOptions.class, KyotoOptions.FILE_DEFAULT);
  }

  @Test
  void twoDatabasesInOneDirectoryKeepTheirOwnLayouts() throws Exception {
    databasesInOneDirectoryKeepTheirOwnLayouts(KyotoOptions.FILE, "other.kct");
  }

  /** Kyoto's own reader, kctreemgr list, waiting on its unread output with the file open (its shared fcntl lock). */
  @Override
  protected Process holdFromOutside(Path dir) throws Exception {
    return holdWithUnreadOutput(dir, 2000, "kctreemgr", "list", "-pv",
        dir.resolve(KyotoOptions.FILE_DEFAULT).toString());
  }

  /** A 0-byte ycsb.kct (the open made a 400 KB database of it) and a file whose records were all deleted. */
  @Override
  protected List<Path> otherEmptyDatabases(Path under) throws Exception {
    Path zero = Files.createDirectories(under.resolve("zero"));
    Files.write(zero.resolve(KyotoOptions.FILE_DEFAULT), new byte[0]);
    return List.of(zero, loadedAndEmptied(under.resolve("emptied"), 300));
  }

  @Override
  protected List<String[]> badProperties() {
    return List.of(
        new String[] {"kyoto.compression", "snappy"},
        new String[] {"compression", "zstd"},
        new String[] {"kyoto.file", "ycsb.db"},
        new String[] {"kyoto.file", "../up.kct"},
        new String[] {"kyoto.pagesize", "tiny"},
        new String[] {"kyoto.pagesize", "100"},
        new String[] {"kyoto.options", "small,fast"},
        new String[] {"kyoto.buckets", "-1"},
        new String[] {"kyoto.mapsize", "lots"},
        new String[] {"kyoto.autotran", "maybe"},
        new String[] {"kyoto.writetransactions", "sometimes"},
        new String[] {"kyoto.writetransactions.below", "much"},
        new String[] {"kyoto.cachesize", "4x"});
  }

  private KyotoHandle handle(DB db) {
    return ((KyotoClient) db).handle();
  }

  private static Map<String, ByteIterator> bytesRecord(String field, byte[] value) {
    Map<String, ByteIterator> m = new HashMap<>();
    m.put(field, new ByteArrayByteIterator(value));
    return m;
  }

  /** Runs a kc*mgr command (kyotocabinet-utils) with a time limit; returns exit code and output. */
  private static String[] run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + String.join(" ", cmd));
    }
    return new String[] {String.valueOf(p.exitValue()),
        new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)};
  }

  @Test
  void writeTransactionsFollowTheChoiceAndUnderAutoTheFreeSpace() throws Exception {
    // auto with a threshold no filesystem reaches: on from the open; with 0: off, and it stays off as writes come.
    String[][] cases = {{"auto", "9223372036854775807", "true"}, {"auto", "0", "false"}, {"true", "0", "true"},
        {"false", "9223372036854775807", "false"}, {null, null, "false"}};
    int n = 0;
    for (String[] c : cases) {
      Properties p = properties(tmp.resolve("wt" + n++));
      if (c[0] != null) {
        p.setProperty(KyotoOptions.WRITE_TRANSACTIONS, c[0]);
        p.setProperty(KyotoOptions.WRITE_TRANSACTIONS_BELOW, c[1]);
      }
      DB db = open(p);
      for (int i = 0; i < 50; i++) {
        assertEquals(Status.OK, db.insert("usertable", "k" + i, record("f", "v" + i)));
      }
      Map<String, ByteIterator> row = new HashMap<>();
      assertEquals(Status.OK, db.read("usertable", "k49", null, row));
      assertEquals("v49", row.get("f").toString());
      // The default (no property) is auto at 1 GiB: this test's disk has more than that free.
      assertEquals(Boolean.parseBoolean(c[2]), handle(db).writesInOwnTransactions(), c[0] + "/" + c[1]);
      assertTrue(handle(db).describe().contains("writes: " + KyotoOptions.WRITE_TRANSACTIONS + "="
          + (c[0] == null ? "auto" : c[0])), handle(db).describe());
      db.cleanup();
    }
  }

  @Test
  void theStartUpSaysWhetherTheMmapSpaceLibraryIsPreloaded() {
    assertTrue(KyotoClient.mmapNote(true).startsWith("disk: libycsb_mmap_space.so is preloaded"));
    assertTrue(KyotoClient.mmapNote(false).startsWith("WARNING: libycsb_mmap_space.so is not preloaded"));
    assertTrue(!site.ycsb.embedded.MmapSpace.preloaded(), "the test JVM runs without the preload");
  }

  @Test
  void thePreloadWarningIsSaidOncePerJvm() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    String printed = capturingStderr(() -> {
      for (int i = 0; i < 3; i++) {
        close(open(p));
      }
    });
    assertTrue(printed.split("is not preloaded", -1).length - 1 <= 1, printed); // 3 before
    assertTrue(!site.ycsb.embedded.OncePerJvm.first("[kyoto] " + KyotoClient.mmapNote(false)),
        "the warning was said in this JVM, by this test or one before");
    assertEquals(3, printed.split("\\[kyoto\\] closed ", -1).length - 1, printed);
  }

  @Test
  void theSystemLibraryIsLoaded() throws Exception {
    KyotoNative.ensureLoaded(); // no skipping: a missing library fails here and in every test
    assertTrue(KyotoNative.version().startsWith("1.2."), KyotoNative.version());
  }

  @Test
  void tuningIsAppliedAsTheLibraryReportsIt() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("kyoto.pagesize", "1024");
    p.setProperty("kyoto.cachesize", "4m");
    p.setProperty("cachesize", "2m"); // the engine-prefixed value wins
    p.setProperty("kyoto.options", "small,linear");
    p.setProperty("kyoto.compression", "lzo");
    p.setProperty("kyoto.buckets", "20000");
    p.setProperty("kyoto.mapsize", "8m");
    DB db = open(p);
    for (int i = 0; i < 300; i++) {
      assertEquals(Status.OK, db.insert("usertable", String.format("k%04d", i), record("f", "v" + i)));
    }
    Map<String, String> s = handle(db).status();
    assertEquals("1024", s.get("psiz"), s.toString());
    assertEquals(String.valueOf(4L << 20), s.get("pccap"));
    assertEquals("7", s.get("opts"), "small (1) + linear (2) + compress (4)");
    assertEquals("300", s.get("count"));
    assertEquals("20000", s.get("bnum"));
    assertEquals(String.valueOf(8L << 20), s.get("msiz"));
    assertEquals("49", s.get("realtype"), "a file tree database (TreeDB)");
    assertTrue(handle(db).tuning()
        .endsWith("ycsb.kct#opts=slc#zcomp=lzo#psiz=1024#pccap=4194304#bnum=20000#msiz=8388608"),
        handle(db).tuning());
  }

  @Test
  void defaultsAreKyotosOwn() throws Exception {
    DB db = open();
    Map<String, String> s = handle(db).status();
    assertEquals("8192", s.get("psiz"));
    assertEquals(String.valueOf(64L << 20), s.get("pccap"));
    assertEquals(String.valueOf(64L << 20), s.get("msiz"));
    assertEquals("0", s.get("opts"));
    assertEquals("65536", s.get("bnum"));
    assertEquals("0", s.get("count"));
  }

  @Test
  void theHeaderStatesWhatTheDefaultsCostPastTheMapAndCacheAsTheLibraryReportsThem() throws Exception {
    // The map and the cache in the line are the library's own report (kcdbstatus), not the values asked for.
    String[][] cases = {{null, null, "true", "msiz=" + (64L << 20) + ") and the page cache (pccap=" + (64L << 20)},
        {"8m", "4m", "true", "msiz=" + (8L << 20) + ") and the page cache (pccap=" + (4L << 20)},
        {"8m", "4m", "false", "msiz=" + (8L << 20) + ") and the page cache (pccap=" + (4L << 20)}};
    int n = 0;
    for (String[] c : cases) {
      Properties p = properties(tmp.resolve("past" + n++));
      if (c[0] != null) {
        p.setProperty("kyoto.mapsize", c[0]);
        p.setProperty("kyoto.cachesize", c[1]);
      }
      p.setProperty(KyotoOptions.AUTOTRAN, c[2]);
      DB db = open(p);
      String header = handle(db).describe();
      assertEquals(String.valueOf(c[0] == null ? 64L << 20 : 8L << 20), handle(db).status().get("msiz"));
      String line = header.lines().filter(l -> l.contains("[kyoto] NOTE: past the map")).findFirst().orElse("");
      assertTrue(line.contains(c[3]), header);
      assertTrue(line.contains(c[2].equals("true") ? KyotoHandle.PAST_THE_CACHE_COST
          : KyotoHandle.PAST_THE_CACHE_GAIN), line);
      assertTrue(line.contains("Defaults past the cache"), line);
      db.cleanup();
    }
    // A HashDB has no page cache: no such line.
    Properties h = properties(tmp.resolve("hash"));
    h.setProperty(KyotoOptions.FILE, "ycsb.kch");
    DB db = open(h);
    assertTrue(!handle(db).describe().contains("past the map"), handle(db).describe());
    db.cleanup();
  }

  @Test
  void kctreemgrInformShowsTheRequestedPageSizeAndOptions() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("kyoto.pagesize", "2048");
    p.setProperty("kyoto.options", "small,linear");
    p.setProperty("kyoto.compression", "zlib"); // kctreemgr knows only zlib, Kyoto's default compressor
    DB db = open(p);
    for (int i = 0; i < 123; i++) {
      db.insert("usertable", "key" + i, record("f", "value" + i));
    }
    Path file = handle(db).file();
    close(db);
    String[] r = run("kctreemgr", "inform", "-st", "-otl", file.toString());
    assertEquals("0", r[0], r[1]);
    assertTrue(r[1].contains("(psiz=2048)"), r[1]);
    assertTrue(r[1].contains("options: small linear compress (opts=7)"), r[1]);
    assertTrue(r[1].contains("count: 123"), r[1]);
  }

  @Test
  void anLzoFileNeedsItsCompressorNamedToBeInspected() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("kyoto.pagesize", "1024");
    p.setProperty("kyoto.options", "small,linear");
    p.setProperty("kyoto.compression", "lzo");
    DB db = open(p);
    db.insert("usertable", "a", record("f", "1"));
    Path file = handle(db).file();
    close(db);
    // kctreemgr cannot name a compressor, so it cannot open an LZO file; kcpolymgr takes the tuning.
    String[] tree = run("kctreemgr", "inform", "-st", "-otl", file.toString());
    assertTrue(tree[1].contains("invalid module checksum"), tree[1]);
    String[] poly = run("kcpolymgr", "inform", "-st", "-otl", file + "#zcomp=lzo");
    assertEquals("0", poly[0], poly[1]);
    assertTrue(poly[1].contains("psiz: 1024") && poly[1].contains("opts: 7") && poly[1].contains("count: 1"), poly[1]);
  }

  @Test
  void everyCompressorOfThisBuildWorksAndShrinksTheFile() throws Exception {
    byte[] value = new byte[2000];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) "aaaabbbbccccdddd".charAt(i % 16);
    }
    Map<String, Long> sizes = new HashMap<>();
    Map<String, String> checksums = new HashMap<>();
    for (String c : List.of("none", "zlib", "deflate", "gzip", "lzo", "lzma")) {
      Properties p = properties(tmp.resolve(c));
      p.setProperty("kyoto.compression", c);
      p.setProperty("fieldcount", "1");
      DB db = open(p);
      for (int i = 0; i < 200; i++) {
        assertEquals(Status.OK, db.insert("usertable", "k" + i, bytesRecord("field0", value)), c);
      }
      Map<String, ByteIterator> got = new HashMap<>();
      assertEquals(Status.OK, db.read("usertable", "k7", null, got));
      assertArrayEquals(value, got.get("field0").toArray(), c);
      checksums.put(c, handle(db).status().get("chksum"));
      Path file = handle(db).file();
      close(db);
      sizes.put(c, Files.size(file));
      DB again = open(p);
      got.clear();
      assertEquals(Status.OK, again.read("usertable", "k199", null, got), c + " reopened");
      assertArrayEquals(value, got.get("field0").toArray(), c + " reopened");
      close(again);
    }
    for (String c : List.of("zlib", "deflate", "gzip", "lzo", "lzma")) {
      assertTrue(sizes.get(c) + 200_000 < sizes.get("none"), c + " shrinks 400 KB of repetitive values: " + sizes);
    }
    assertEquals(6, new java.util.HashSet<>(checksums.values()).size(),
        "each compressor has its checksum: " + checksums);
  }

  @Test
  void compressWithoutACompressorNameIsZlibAndContradictionsAreRefused() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("kyoto.options", "compress");
    DB db = open(p);
    assertTrue(handle(db).tuning().contains("#opts=c#zcomp=zlib"), handle(db).tuning());
    close(db);
    Properties q = properties(tmp.resolve("other"));
    q.setProperty("kyoto.options", "small,compress");
    q.setProperty("compression", "none");
    DBException e = assertThrows(DBException.class, () -> open(q));
    assertTrue(e.getMessage().contains("kyoto.options") && e.getMessage().contains("none"), e.getMessage());
  }

  @Test
  void aRunWithAnotherCompressionIsRefusedClearly() throws Exception {
    Properties load = properties(tmp.resolve("db"));
    load.setProperty("kyoto.compression", "lzo");
    DB db = open(load);
    db.insert("usertable", "x", record("f", "1"));
    close(db);
    for (String other : List.of("zlib", "none")) {
      Properties run = properties(tmp.resolve("db"));
      run.setProperty("kyoto.compression", other);
      DBException e = assertThrows(DBException.class, () -> open(run), other);
      assertTrue(e.getMessage().contains("the load and the run must use the same kyoto.compression"), e.getMessage());
      assertTrue(e.getMessage().contains("invalid module checksum"), e.getMessage());
      assertEquals(0, SharedHandles.openCount());
    }
    DB same = open(load);
    assertEquals(Map.of("f", "1"), read(same, "x", null));
  }

  @Test
  void aFileThatIsNotAKyotoDatabaseIsRefusedAndLeftAlone() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("db"));
    byte[] junk = new byte[100_000];
    new Random(5).nextBytes(junk);
    Path file = Files.write(dir.resolve(KyotoOptions.FILE_DEFAULT), junk);
    DBException e = assertThrows(DBException.class, this::open);
    assertTrue(e.getMessage().contains("is not a Kyoto Cabinet database") && e.getMessage().contains(file.toString()),
        e.getMessage());
    assertArrayEquals(junk, Files.readAllBytes(file), "the file is untouched");
    Files.writeString(file, "short text");
    e = assertThrows(DBException.class, this::open);
    assertTrue(e.getMessage().contains("is not a Kyoto Cabinet database"), e.getMessage());
    assertEquals(0, SharedHandles.openCount());
  }

  @Test
  void aHashDbWorksWithoutKeyOrder() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("kyoto.file", "ycsb.kch");
    p.setProperty("kyoto.buckets", "5000");
    p.setProperty("kyoto.pagesize", "1024"); // does not apply: a note, not an error
    DB db = open(p);
    for (int i = 0; i < 50; i++) {
      db.insert("usertable", "h" + i, record("f", "v" + i));
    }
    assertEquals(Status.OK, db.update("usertable", "h3", record("g", "x")));
    assertEquals(Map.of("f", "v3", "g", "x"), read(db, "h3", null));
    assertEquals(Status.OK, db.delete("usertable", "h4"));
    Map<String, String> s = handle(db).status();
    assertEquals("48", s.get("realtype"), "a file hash database (HashDB)");
    assertEquals("5000", s.get("bnum"));
    assertEquals("49", s.get("count"));
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, db.scan("usertable", "", Integer.MAX_VALUE, null, rows), "a whole-database pass");
    assertEquals(49, rows.size());
    assertEquals(Status.ERROR, db.scan("usertable", "h1", 5, null, new Vector<>()), "no key order");
  }

  @Test
  void scanFetchesManyBuffersAndValuesLargerThanTheBuffer() throws Exception {
    DB db = open();
    // mostly 100-byte values (several buffers full), and some larger than the whole buffer, the last too
    List<byte[]> stored = assertScansAcrossBuffers(db, 6001,
        i -> i % 1000 == 500 || i == 6000 ? KyotoHandle.SCAN_BUFFER_BYTES + 1000 * i : 100);
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, db.scan("usertable", "user00005998", 10, null, rows), "stops at the last record");
    assertEquals(3, rows.size());
    assertArrayEquals(stored.get(5999), rows.get(1).get("field0").toArray());
    assertArrayEquals(stored.get(6000), rows.get(2).get("field0").toArray(), "the last, larger than the buffer");
  }

  /** The full pass of one-field records counts lengths where the native fill wrote them, across buffers. */
  @Test
  void aFullPassCountsEveryLengthAcrossBuffers() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("fieldcount", "1");
    DB db = open(p);
    Random random = new Random(9);
    long bytes = 0;
    for (int i = 0; i < 4001; i++) {
      byte[] v = new byte[i % 1000 == 500 || i == 4000 ? KyotoHandle.SCAN_BUFFER_BYTES + 1000 * i : 100];
      random.nextBytes(v);
      bytes += v.length;
      assertEquals(Status.OK, db.insert("usertable", String.format("user%08d", i), bytesRecord("field0", v)));
    }
    site.ycsb.embedded.workload.FullScanSink counted = new site.ycsb.embedded.workload.FullScanSink();
    assertEquals(Status.OK, db.scan("usertable", "", Integer.MAX_VALUE, null, counted));
    assertEquals(4001, counted.rows());
    assertEquals(bytes, counted.bytes());
  }

  @Test
  void aHashDbPassFetchesValuesLargerThanTheBuffer() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("kyoto.file", "ycsb.kch");
    DB db = open(p);
    Map<String, byte[]> stored = new HashMap<>();
    Random random = new Random(11);
    for (int i = 0; i < 3000; i++) {
      byte[] v = new byte[i % 1000 == 7 ? KyotoHandle.SCAN_BUFFER_BYTES + i : 100];
      random.nextBytes(v);
      stored.put("h" + i, v);
      assertEquals(Status.OK, db.insert("usertable", "h" + i, bytesRecord("field0", v)));
    }
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, db.scan("usertable", "", Integer.MAX_VALUE, null, rows));
    assertEquals(stored.size(), rows.size());
    // A HashDB has no key order: compare the values as sorted lists.
    List<String> want = new ArrayList<>();
    List<String> got = new ArrayList<>();
    for (byte[] v : stored.values()) {
      want.add(Arrays.toString(v));
    }
    for (HashMap<String, ByteIterator> row : rows) {
      got.add(Arrays.toString(row.get("field0").toArray()));
    }
    Collections.sort(want);
    Collections.sort(got);
    assertEquals(want, got);
  }

  @Test
  void scansOfAnEmptyDatabaseAndPastTheEndAreEmpty() throws Exception {
    DB db = open();
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, db.scan("usertable", "", 10, null, rows));
    assertEquals(0, rows.size());
    db.insert("usertable", "a", record("f", "1"));
    assertEquals(Status.OK, db.scan("usertable", "b", 10, null, rows));
    assertEquals(0, rows.size());
    assertEquals(Status.OK, db.scan("usertable", "a", 0, null, rows));
    assertEquals(0, rows.size());
  }

  @Test
  void syncWritesReachTheFileWhileItIsOpen() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("sync", "true");
    DB db = open(p);
    db.insert("usertable", "synced", record("f", "1"));
    Path file = handle(db).file();
    // The write was committed to the file: another process reading without a lock finds the record.
    // (The count in the file's meta data lags under auto-transactions; the first open after a crash
    // recounts it.)
    String[] r = run("kctreemgr", "get", "-onl", file.toString(), "synced");
    assertEquals("0", r[0], r[1]);
    close(db);

    Properties noTransactions = properties(tmp.resolve("lazy"));
    noTransactions.setProperty(KyotoOptions.AUTOTRAN, "false");
    DB lazy = open(noTransactions);
    lazy.insert("usertable", "a", record("f", "1"));
    lazy.insert("usertable", "b", record("f", "2"));
    file = handle(lazy).file();
    r = run("kctreemgr", "inform", "-onl", file.toString());
    assertTrue(!r[1].contains("count: 2"), "without sync the records wait in the page cache: " + r[1]);
    handle(lazy).sync(false);
    r = run("kctreemgr", "inform", "-onl", file.toString());
    assertTrue(r[1].contains("count: 2"), "sync() wrote them: " + r[1]);
  }

  @Test
  void autoTransactionIsTheDefaultAndPutsEachWriteInTheFile() throws Exception {
    DB db = open();
    KyotoHandle h = handle(db);
    assertEquals(KyotoNative.OAUTOTRAN, h.mode() & (KyotoNative.OAUTOTRAN | KyotoNative.OAUTOSYNC), "OAUTOTRAN alone");
    assertTrue(KyotoOptions.modeNames(h.mode()).contains("OAUTOTRAN"), KyotoOptions.modeNames(h.mode()));
    db.insert("usertable", "now", record("f", "1"));
    Path file = h.file();
    // The write went through the library's undo log and into the file before insert returned.
    assertTrue(Files.exists(Path.of(file + ".wal")), "the auto-transaction's WAL file exists");
    String[] r = run("kctreemgr", "get", "-onl", file.toString(), "now");
    assertEquals("0", r[0], "another process reads the record while the database is open: " + r[1]);
    close(db);

    Properties off = properties(tmp.resolve("off"));
    off.setProperty(KyotoOptions.AUTOTRAN, "false");
    db = open(off);
    h = handle(db);
    assertEquals(0, h.mode() & KyotoNative.OAUTOTRAN);
    db.insert("usertable", "later", record("f", "1"));
    file = h.file();
    assertTrue(!Files.exists(Path.of(file + ".wal")), "no transaction, no WAL file");
    r = run("kctreemgr", "get", "-onl", file.toString(), "later");
    assertTrue(!r[0].equals("0"), "the record waits in the page cache (the file is not even readable): " + r[1]);
  }

  @Test
  void syncAddsAutoSyncToTheAutoTransaction() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("sync", "true");
    DB db = open(p);
    int both = KyotoNative.OAUTOTRAN | KyotoNative.OAUTOSYNC;
    assertEquals(both, handle(db).mode() & both);
  }

  @Test
  void batchesWithSyncCommitDurably() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("sync", "true");
    p.setProperty("batchsize", "10");
    DB db = open(p);
    for (int i = 0; i < 25; i++) {
      db.insert("usertable", "b" + i, record("f", "v" + i));
    }
    Path file = handle(db).file();
    String[] r = run("kctreemgr", "inform", "-onl", file.toString());
    assertTrue(r[1].contains("count: 20"), "two committed transactions, five waiting: " + r[1]);
    close(db);
    assertTrue(run("kctreemgr", "inform", file.toString())[1].contains("count: 25"));
  }

  @Test
  void aClosedHandleFailsClearlyInsteadOfCrashing() throws Exception {
    DB db = open();
    KyotoHandle h = handle(db);
    close(db);
    IllegalStateException e = assertThrows(IllegalStateException.class, h::status);
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
    h.close(); // a second close does nothing
  }

  @Test
  void fourThreadsScanAndWriteAtOnceForSeconds() throws Exception {
    Path dir = tmp.resolve("db");
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    AtomicLong scans = new AtomicLong();
    AtomicLong writes = new AtomicLong();
    List<Future<String>> results = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int id = t;
      results.add(pool.submit(() -> {
        Properties p = properties(dir);
        if (id % 2 == 1) {
          p.setProperty("batchsize", "50"); // transactions beside cursors
        }
        DB db = newClient();
        db.setProperties(p);
        db.init();
        Random r = new Random(id);
        try {
          while (System.nanoTime() < until) {
            String key = String.format("k%05d", r.nextInt(20_000));
            int op = r.nextInt(10);
            if (op < 5) {
              Status s = db.insert("usertable", key, record("key", key, "pad", "x".repeat(r.nextInt(200))));
              if (!s.isOk()) {
                return "insert " + key + ": " + s;
              }
              writes.incrementAndGet();
            } else if (op < 6) {
              Status s = db.delete("usertable", key);
              if (!s.isOk() && s != Status.NOT_FOUND) {
                return "delete " + key + ": " + s;
              }
              writes.incrementAndGet();
            } else {
              Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
              Status s = db.scan("usertable", key, 1 + r.nextInt(100), null, rows);
              if (!s.isOk()) {
                return "scan " + key + ": " + s;
              }
              String last = key;
              for (HashMap<String, ByteIterator> row : rows) {
                String k = row.get("key").toString();
                if (k.compareTo(last) < 0) {
                  return "scan from " + key + " out of order: " + k + " after " + last;
                }
                last = k;
              }
              scans.incrementAndGet();
            }
          }
          return "";
        } finally {
          db.cleanup();
        }
      }));
    }
    for (Future<String> f : results) {
      assertEquals("", f.get(), "failed operation or wrong scan order");
    }
    pool.shutdown();
    assertEquals(0, SharedHandles.openCount());
    assertTrue(scans.get() > 100 && writes.get() > 100, "both ran: " + scans + " scans, " + writes + " writes");
    DB db = open(properties(dir));
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, db.scan("usertable", "", Integer.MAX_VALUE, null, rows));
    assertEquals(Long.parseLong(handle(db).status().get("count")), rows.size(), "a full pass sees every record");
  }

  @Test
  void residentMemoryStaysFlatOverAMillionCalls() throws Exception {
    List<String> cmd = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch", "-XX:+UseSerialGC",
        "-Djava.library.path=" + System.getProperty("java.library.path"),
        "-cp", System.getProperty("java.class.path"),
        RssProbe.class.getName(), tmp.resolve("rss").toString(), "300000", "1000000");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    String line = out.lines().filter(l -> l.startsWith("RSS ")).findFirst().orElseThrow(() -> new AssertionError(out));
    String[] f = line.split(" ");
    long before = Long.parseLong(f[1]);
    long after = Long.parseLong(f[2]);
    assertEquals(870_000, Long.parseLong(f[3]), "every hit returned the whole value");
    // One leaked 200-byte key or 1,000-byte value per call would be 200 MB to 1 GB here.
    assertTrue(after - before < 32 * 1024, "RSS grew from " + before + " kB to " + after + " kB over 1M calls");
    System.err.printf("[kyoto test] RSS %d kB -> %d kB over 1,000,000 calls%n", before, after);
  }

  @Test
  void aMissingJniLibraryIsNamedWithWhatToInstall() throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("nolib"));
    Path props = tmp.resolve("client.properties");
    Properties p = properties(tmp.resolve("db"));
    try (Writer w = new FileWriter(props.toFile(), StandardCharsets.UTF_8)) {
      p.store(w, null);
    }
    Process proc = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.library.path=" + empty, "-cp", System.getProperty("java.class.path"),
        ClientProcess.class.getName(), KyotoClient.class.getName(), props.toString())
        .redirectErrorStream(true).start();
    String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(3, proc.waitFor(), out);
    assertTrue(out.contains("libkyotojni.so") && out.contains("java.library.path=" + empty)
        && out.contains("libkyotocabinet-dev"), out);

    String system = KyotoNative.explain(
        "/x/libkyotojni.so: libkyotocabinet.so.16: cannot open shared object file: No such file or directory", "/x");
    assertTrue(system.contains("libkyotocabinet16v5") && system.contains("libkyotocabinet.so.16"), system);
  }

  @Test
  void errorsCarryTheLibrarysCodeAndMessage() throws Exception {
    KyotoException e = assertThrows(KyotoException.class, () -> KyotoNative.open(
        (tmp.resolve("no/such/dir") + File.separator + "x.kct").getBytes(StandardCharsets.UTF_8),
        KyotoNative.OWRITER | KyotoNative.OCREATE));
    assertEquals(KyotoNative.ENOREPOS, e.code(), e.getMessage());
    assertTrue(e.getMessage().startsWith("no repository: "), e.getMessage());
  }

  @Test
  void largeRecordsAndBatchesGoThroughTheHeapBuffers() throws IOException {
    long db = KyotoNative.open("*".getBytes(StandardCharsets.US_ASCII), KyotoNative.OWRITER | KyotoNative.OCREATE);
    try {
      byte[][] keys = new byte[3][];
      byte[][] values = new byte[3][];
      for (int i = 0; i < 3; i++) {
        keys[i] = ("k" + i).repeat(600 * i + 1).getBytes(StandardCharsets.US_ASCII); // up to 2.4 KB keys
        values[i] = new byte[100_000 * i + 5];
        new Random(i).nextBytes(values[i]);
      }
      KyotoNative.setInTransaction(db, keys, values, 3, false);
      for (int i = 0; i < 3; i++) {
        assertArrayEquals(values[i], KyotoNative.get(db, keys[i]));
      }
      assertTrue(KyotoNative.remove(db, keys[2], false, false));
      assertTrue(!KyotoNative.remove(db, keys[2], false, false));
      assertEquals(null, KyotoNative.get(db, keys[2]));
      keys[1] = null;
      assertThrows(NullPointerException.class, () -> KyotoNative.setInTransaction(db, keys, values, 3, false));
      assertThrows(IllegalArgumentException.class, () -> KyotoNative.setInTransaction(db, keys, values, 4, false));
      assertArrayEquals(values[0], KyotoNative.get(db, keys[0]), "the aborted batch left the data alone");
    } finally {
      KyotoNative.close(db);
    }
  }
  /** A TreeDB file cut short is refused before Kyoto Cabinet opens it, untouched, and through YCSB. */
  @Test
  void aFileCutShortIsRefusedUntouched() throws Exception {
    Path dir = tmp.resolve("db");
    loadAndClose(dir, 100);
    cutInHalf(dir.resolve("ycsb.kct"));
    assertRefusedUntouched(dir, properties(dir), "ycsb.kct is cut short: its header records");
    assertYcsbRefusesUntouched(dir, "ycsb.kct is cut short");
  }

  /**
   * The refusal of a file cut short offers kyoto.repair=true, and with it Kyoto rebuilds the file from
   * the records it still holds: what it holds reads back right, and the rebuilt file opens without the property.
   */
  @Test
  void aFileCutShortOpensThroughKyotosRepairWhenAsked() throws Exception {
    Path dir = tmp.resolve("db");
    loadAndClose(dir, 2000);
    Path file = dir.resolve("ycsb.kct");
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
        java.nio.file.StandardOpenOption.WRITE)) {
      ch.truncate(ch.size() - 4096);
    }
    assertRefusedUntouched(dir, properties(dir), "ycsb.kct is cut short", "-p kyoto.repair=true");
    Properties p = properties(dir);
    p.setProperty(KyotoOptions.REPAIR, "true");
    DB db = open(p);
    int found = 0;
    try {
      for (int i = 0; i < 2000; i++) {
        Map<String, ByteIterator> got = new HashMap<>();
        Status s = db.read("usertable", "user" + i, null, got);
        if (s == Status.OK) {
          assertEquals("v" + i, got.get("f").toString(), "user" + i);
          found++;
        } else {
          assertEquals(Status.NOT_FOUND, s, "user" + i);
        }
      }
    } finally {
      close(db);
    }
    assertTrue(found > 1000, "the records before the cut are back: " + found);
    DB again = open(properties(dir));
    try {
      assertEquals(Status.OK, again.read("usertable", "user0", null, new HashMap<>()));
    } finally {
      close(again);
    }
  }
}
