package site.ycsb.embedded.lmdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.embedded.ChildJvm;
import site.ycsb.embedded.DataLayout;
import site.ycsb.embedded.EngineFiles;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.KeyValueDbContract;
import site.ycsb.embedded.OncePerJvm;
import site.ycsb.embedded.SharedHandles;
import site.ycsb.embedded.crash.CrashVerifier;
import site.ycsb.embedded.crash.CrashWriter;

class LmdbClientTest extends KeyValueDbContract {

  LmdbClientTest() {
    super("lmdb", LmdbClient::new, LmdbOptions.class);
  }

  /** LMDB's own mdb_dump, waiting on its unread output inside its read transaction (lmdb-utils). */
  @Override
  protected Process holdFromOutside(Path dir) throws Exception {
    return holdWithUnreadOutput(dir, 2000, "mdb_dump", "-p", dir.toString());
  }

  /**
   * lock.mdb alone, an empty data.mdb beside it (the open made a new environment of either) and an environment
   * whose records were all deleted.
   */
  @Override
  protected List<Path> otherEmptyDatabases(Path under) throws Exception {
    Path lockOnly = under.resolve("lock-only");
    close(open(properties(lockOnly)));
    Files.delete(lockOnly.resolve(EngineFiles.LMDB_DATA_FILE));
    Path emptyData = under.resolve("empty-data");
    close(open(properties(emptyData)));
    Files.write(emptyData.resolve(EngineFiles.LMDB_DATA_FILE), new byte[0]);
    return List.of(lockOnly, emptyData, loadedAndEmptied(under.resolve("emptied"), 300));
  }

  @Override
  protected List<String[]> badProperties() {
    return List.of(
        new String[] {"lmdb.mapsize", "lots"},
        new String[] {"lmdb.mapsize", "1k"},
        new String[] {"lmdb.mapsize", "1000000000"},
        new String[] {"lmdb.writemap", "maybe"},
        new String[] {"lmdb.readahead", "sometimes"},
        new String[] {"lmdb.maxreaders", "0"},
        new String[] {"lmdb.readsnapshot", "thread"},
        new String[] {"lmdb.library", "debian"},
        new String[] {"lmdb.compression", "snappy"},
        new String[] {"lmdb.cachesize", "4x"});
  }

  private static LmdbHandle handle(DB db) {
    return ((LmdbClient) db).handle();
  }

  private static Map<String, ByteIterator> bytesRecord(byte[] value) {
    Map<String, ByteIterator> m = new HashMap<>();
    m.put("f", new ByteArrayByteIterator(value));
    return m;
  }

  @Test
  void theEnvironmentIsOpenedWithTheOptionsAndReadsThemBack() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("lmdb.mapsize", "32m");
    p.setProperty("lmdb.maxreaders", "40");
    p.setProperty("lmdb.readahead", "false");
    p.setProperty("verbose", "true"); // what LMDB read back is one of every start-up line
    String printed = capturingStderr(() -> {
      DB db = open(p);
      assertEquals(32L << 20, handle(db).info().mapSize);
      assertEquals(40, handle(db).info().maxReaders);
      assertEquals(Set.of(org.lmdbjava.EnvFlags.MDB_NOTLS, org.lmdbjava.EnvFlags.MDB_NOSYNC,
          org.lmdbjava.EnvFlags.MDB_NORDAHEAD), handle(db).options().flags());
      close(db);
    });
    assertTrue(printed.contains("lmdb.mapsize = 32m (set)"), printed);
    assertTrue(printed.contains("read back: lmdb.mapsize = 33554432 (Env.info), lmdb.maxreaders = 40"), printed);
    // said once per JVM (OncePerJvm): another test may have printed these flags first
    assertTrue(printed.contains("MDB_NORDAHEAD|MDB_NOSYNC|MDB_NOTLS") || !OncePerJvm.first(flagsLine(p)), printed);
    assertTrue(Files.isRegularFile(tmp.resolve("db").resolve("data.mdb")));
    // the lock file the binding wrote before LMDB mapped it: LMDB kept it (neither grown nor its slots recounted)
    assertEquals(2 * 64 + 40 * 64, Files.size(tmp.resolve("db").resolve("lock.mdb")));
    assertEquals(List.of(EngineFiles.Engine.named("lmdb")),
        List.copyOf(EngineFiles.identify(tmp.resolve("db")).keySet()));
  }

  @Test
  void syncTrueCommitsDurablyAndAWriteMapIsAnnouncedLoudly() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("sync", "true");
    p.setProperty("lmdb.writemap", "true");
    p.setProperty("lmdb.mapsize", "16m");
    String printed = capturingStderr(() -> {
      DB db = open(p);
      assertEquals(Set.of(org.lmdbjava.EnvFlags.MDB_NOTLS, org.lmdbjava.EnvFlags.MDB_WRITEMAP),
          handle(db).options().flags());
      assertEquals(Status.OK, db.insert("usertable", "k", record("f", "v")));
      close(db);
    });
    assertTrue(printed.contains("WARNING: lmdb.writemap=true") && printed.contains("SIGBUS"), printed);
    assertTrue(printed.contains("each commit fsynced before it returns") || !OncePerJvm.first(flagsLine(p)), printed);
    DB again = open(properties(tmp.resolve("db")));
    assertEquals(Map.of("f", "v"), read(again, "k", null));
  }

  /** The flags line LmdbHandle prints for these properties, as OncePerJvm was asked about it. */
  private static String flagsLine(Properties p) {
    return "[lmdb] flags passed to mdb_env_open: " + LmdbOptions.read(new EngineProperties(p, "lmdb")).flagNames()
        + " (lmdbjava binds mdb_env_get_flags with a wrong signature, so they are not read back)";
  }

  @Test
  void theFlagsLineIsSaidOncePerJvm() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("verbose", "true");
    String printed = capturingStderr(() -> {
      for (int i = 0; i < 3; i++) {
        close(open(p));
      }
    });
    assertTrue(printed.split("flags passed to mdb_env_open", -1).length - 1 <= 1, printed); // 3 before
    assertFalse(OncePerJvm.first(flagsLine(p)), "the line was said in this JVM, by this test or one before");
    assertEquals(3, printed.split("\\[lmdb\\] read back: ", -1).length - 1, "what each open found is still said");
  }

  @Test
  void aFullMapIsAnErrorNamingThePropertyAndKeepsWhatWasAcknowledged() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("lmdb.mapsize", "1m");
    Map<String, byte[]> acknowledged = new TreeMap<>();
    Random random = new Random(7);
    String[] refusal = new String[1];
    capturingStderr(() -> {
      DB db = open(p);
      for (int i = 0; i < 10_000; i++) {
        byte[] value = new byte[1000];
        random.nextBytes(value);
        String key = String.format("k%05d", i);
        Status s = db.insert("usertable", key, bytesRecord(value));
        if (s != Status.OK) {
          assertEquals(Status.ERROR, s);
          break;
        }
        acknowledged.put(key, value);
      }
      // the message the ERROR logged (a JVM prints its first few only; earlier tests may have used them up)
      refusal[0] = assertThrows(java.io.IOException.class, () -> handle(db).put(new byte[] {'x'}, new byte[4000]))
          .getMessage();
      Map<String, ByteIterator> got = new HashMap<>();
      assertEquals(Status.OK, db.read("usertable", "k00000", null, got), "reads go on after a full map");
      close(db);
    });
    assertTrue(acknowledged.size() > 100 && acknowledged.size() < 10_000, acknowledged.size() + " acknowledged");
    assertTrue(refusal[0].contains("LMDB's map is full: lmdb.mapsize = 1048576 bytes"), refusal[0]);
    Properties bigger = properties(tmp.resolve("db"));
    bigger.setProperty("lmdb.mapsize", "8m");
    DB again = open(bigger);
    for (Map.Entry<String, byte[]> e : acknowledged.entrySet()) {
      Map<String, ByteIterator> got = new HashMap<>();
      assertEquals(Status.OK, again.read("usertable", e.getKey(), null, got), e.getKey());
      assertTrue(java.util.Arrays.equals(e.getValue(), got.get("f").toArray()), e.getKey());
    }
    assertEquals(Status.OK, again.insert("usertable", "more", record("f", "room")), "a larger map takes more");
  }

  /** LMDB's one writer and its concurrent readers: 8 threads insert, update, delete, read and scan at once. */
  @Test
  void eightThreadsWithDeletesAndScansRunClean() throws Exception {
    Path dir = tmp.resolve("db");
    int threads = 8;
    int perThread = 2_000;
    List<DB> clients = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      clients.add(open(properties(dir)));
    }
    assertEquals(1, SharedHandles.openCount(), "one environment for the 8 clients");
    Map<String, String> expected = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        DB db = clients.get(t);
        String prefix = "t" + t + "-";
        done.add(pool.submit(() -> {
          for (int i = 0; i < perThread; i++) {
            String key = prefix + String.format("%05d", i);
            assertEquals(Status.OK, db.insert("usertable", key, record("f", "v" + i)));
            if (i % 3 == 0) {
              assertEquals(Status.OK, db.delete("usertable", key));
              assertEquals(Status.NOT_FOUND, db.read("usertable", key, null, new HashMap<>()));
            } else {
              expected.put(key, "v" + i);
              assertEquals(Map.of("f", "v" + i), read(db, key, null));
            }
            if (i % 50 == 49) {
              Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
              assertEquals(Status.OK, db.scan("usertable", prefix, 20, null, rows));
              assertEquals(20, rows.size(), "a scan over this thread's own keys");
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    for (DB db : clients) {
      close(db);
    }
    assertEquals(0, SharedHandles.openCount());
    DB again = open(properties(dir));
    Vector<HashMap<String, ByteIterator>> all = new Vector<>();
    assertEquals(Status.OK, again.scan("usertable", "", threads * perThread, null, all));
    assertEquals(expected.size(), all.size(), "exactly the keys not deleted");
    for (Map.Entry<String, String> e : expected.entrySet()) {
      assertEquals(Map.of("f", e.getValue()), read(again, e.getKey(), null));
    }
  }

  /**
   * lmdbjava 0.9.1's byte-array proxy let the garbage collector free a key's native copy before mdb_put
   * read it: a batched load crashed the JVM (SIGSEGV in mdb_node_search). Batches written while another
   * thread keeps collecting must all be there, byte for byte.
   */
  @Test
  void batchesWrittenWhileTheCollectorRunsKeepEveryByte() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("batchsize", "1000");
    Map<String, byte[]> written = new TreeMap<>();
    Random random = new Random(252);
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    Thread collector = new Thread(() -> {
      while (!stop.get()) {
        System.gc();
      }
    });
    DB db = open(p);
    collector.start();
    try {
      for (int i = 0; i < 60_000; i++) {
        byte[] value = new byte[100 + random.nextInt(200)];
        random.nextBytes(value);
        String key = String.format("k%06d", random.nextInt(1_000_000));
        Status s = db.insert("usertable", key, bytesRecord(value));
        assertTrue(s == Status.OK || s == Status.BATCHED_OK, key + ": " + s);
        written.put(key, value);
      }
    } finally {
      stop.set(true);
      collector.join();
    }
    close(db);
    DB again = open(properties(tmp.resolve("db")));
    Vector<HashMap<String, ByteIterator>> all = new Vector<>();
    assertEquals(Status.OK, again.scan("usertable", "", written.size() + 1, null, all));
    assertEquals(written.size(), all.size(), "one record per distinct key");
    for (Map.Entry<String, byte[]> e : written.entrySet()) {
      Map<String, ByteIterator> got = new HashMap<>();
      assertEquals(Status.OK, again.read("usertable", e.getKey(), null, got), e.getKey());
      assertTrue(java.util.Arrays.equals(e.getValue(), got.get("f").toArray()), "bytes of " + e.getKey());
    }
  }

  @Test
  void moreClientThreadsThanReaderSlotsAreRefusedByName() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("lmdb.maxreaders", "4");
    p.setProperty("threadcount", "8");
    assertRefusedUntouched(tmp.resolve("db"), p, "lmdb.maxreaders", "'4'", "threadcount (8)");
    assertFalse(Files.exists(tmp.resolve("db")));
  }

  /**
   * lmdbjava loads one liblmdb per JVM: once a client of this JVM opened the bundled one, a client that asks for the
   * system's is refused before anything in its directory changes.
   */
  @Test
  void theOtherLibraryIsRefusedInAJvmThatLoadedOne() throws Exception {
    close(open(properties(tmp.resolve("first"))));
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("lmdb.library", "system");
    assertRefusedUntouched(p, "lmdb.library = system cannot apply: this JVM already runs the bundled liblmdb (the"
        + " liblmdb bundled in lmdbjava", "run it in a JVM of its own");
  }

  /**
   * lmdb.library=system in a JVM of its own: the system's liblmdb (Debian's liblmdb0, which lmdb-utils brings), named
   * in the start-up lines, writes an environment that the bundled library of another JVM reads back whole.
   */
  @Test
  void theSystemsLibraryWritesWhatTheBundledOneReads() throws Exception {
    Path dir = tmp.resolve("db");
    String[] written = ChildJvm.run(tmp, "system", Map.of(), CrashWriter.class, "-db", LmdbClient.class.getName(),
        "-p", "path=" + dir, "-p", "lmdb.library=system", "-p", "verbose=true", "-records", "300", "-valuesize", "100");
    assertEquals("0", written[0], written[2]);
    assertTrue(written[2].contains("(the system's liblmdb " + LmdbLibrary.findSystemFile() + " under lmdbjava "),
        written[2]);
    assertTrue(written[2].contains("lmdb.library = system (set)"), written[2]);
    assertEquals(300, written[1].lines().count(), written[1]);
    Path acked = Files.writeString(tmp.resolve("acked.txt"), written[1]);
    String[] verified = ChildJvm.run(tmp, "bundled", Map.of(), CrashVerifier.class, "-db", LmdbClient.class.getName(),
        "-p", "path=" + dir, "-p", "verbose=true", "-valuesize", "100", "-acked", acked.toString());
    assertTrue(verified[2].contains("(the liblmdb bundled in lmdbjava "), verified[2]);
    assertTrue(verified[1].contains("acknowledged=300\npresent=300\nlost=0\nwrong=0\nerrors=0\nopen=ok\n"),
        verified[1] + verified[2]);
  }

  private static LmdbHandle.Reader reader(DB db) {
    return ((LmdbClient) db).reader();
  }

  /**
   * Two clients of one environment, lmdb.readsnapshot={@code snapshot} (null: the default); the first has
   * inserted k = {f: v0} and read it back.
   */
  private DB[] twoClientsAfterARead(String snapshot) throws Exception {
    Properties p = properties(tmp.resolve("db"));
    if (snapshot != null) {
      p.setProperty("lmdb.readsnapshot", snapshot);
    }
    DB a = open(p);
    DB b = open(p);
    assertEquals(Status.OK, a.insert("usertable", "k", record("f", "v0")));
    assertEquals(Map.of("f", "v0"), read(a, "k", null));
    return new DB[] {a, b};
  }

  /**
   * A kept snapshot (lmdb.readsnapshot=client, the default) stays between reads, goes before the client's own
   * write, and is renewed at the next read after any client's write: each read sees every write acknowledged
   * before it.
   */
  @Test
  void aKeptSnapshotSeesItsOwnAndOtherClientsWritesAtTheNextRead() throws Exception {
    DB[] ab = twoClientsAfterARead(null);
    DB a = ab[0];
    DB b = ab[1];
    assertTrue(reader(a).holdsSnapshot(), "the snapshot is kept after a read");
    assertEquals(Status.OK, a.update("usertable", "k", record("g", "a1")));
    assertFalse(reader(a).holdsSnapshot(), "the snapshot goes before the client's own write");
    assertEquals(Map.of("f", "v0", "g", "a1"), read(a, "k", null));
    assertTrue(reader(a).holdsSnapshot());
    // another client's update, insert and delete while a keeps a snapshot from before them
    assertEquals(Status.OK, b.update("usertable", "k", record("f", "b1")));
    assertEquals(Status.OK, b.insert("usertable", "k2", record("f", "new")));
    assertEquals(Map.of("f", "b1", "g", "a1"), read(a, "k", null));
    assertEquals(Map.of("f", "new"), read(a, "k2", null));
    assertEquals(Status.OK, b.delete("usertable", "k2"));
    assertEquals(Status.NOT_FOUND, a.read("usertable", "k2", null, new HashMap<>()));
    assertEquals(Status.OK, b.insert("usertable", "k3", record("f", "three")));
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, a.scan("usertable", "k", 10, null, rows));
    assertEquals(List.of(Map.of("f", "b1", "g", "a1"), Map.of("f", "three")),
        rows.stream().map(KeyValueDbContract::strings).toList());
    assertTrue(reader(a).holdsSnapshot(), "a scan keeps its snapshot too");
    // a's read-merge-write update merges into b's latest write, not into the snapshot a kept
    assertEquals(Status.OK, b.update("usertable", "k", record("f", "b2")));
    assertEquals(Status.OK, a.update("usertable", "k", record("g", "a2")));
    assertEquals(Map.of("f", "b2", "g", "a2"), read(b, "k", null));
    assertEquals(Map.of("f", "b2", "g", "a2"), read(a, "k", null));
  }

  /**
   * With lmdb.readsnapshot=client a client takes its snapshot at its open (its first read then runs as every later
   * one does), and still sees a write another client acknowledged after that open; with operation it holds none.
   */
  @Test
  void aKeptSnapshotIsTakenAtTheOpenAndRenewedForALaterWrite() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    DB a = open(p);
    DB b = open(p);
    assertTrue(reader(a).holdsSnapshot(), "the snapshot is taken at the open");
    assertEquals(Status.OK, b.insert("usertable", "k", record("f", "after a's open")));
    assertEquals(Map.of("f", "after a's open"), read(a, "k", null));
    Properties op = properties(tmp.resolve("db2"));
    op.setProperty("lmdb.readsnapshot", "operation");
    assertFalse(reader(open(op)).holdsSnapshot());
  }

  /** lmdb.readsnapshot=operation: a snapshot per read or scan, none held between them, the same contents. */
  @Test
  void aSnapshotPerOperationIsHeldOnlyDuringTheRead() throws Exception {
    DB[] ab = twoClientsAfterARead("operation");
    DB a = ab[0];
    DB b = ab[1];
    assertFalse(reader(a).holdsSnapshot());
    assertEquals(Status.OK, b.update("usertable", "k", record("f", "b1")));
    assertEquals(Map.of("f", "b1"), read(a, "k", null));
    assertEquals(Status.OK, a.scan("usertable", "k", 10, null, new Vector<>()));
    assertFalse(reader(a).holdsSnapshot());
  }

  @Test
  void aReaderLeftOpenIsClosedWithTheEnvironment() throws Exception {
    DB db = open();
    assertEquals(Status.OK, db.insert("usertable", "k", record("f", "v")));
    LmdbHandle h = handle(db);
    LmdbHandle.Reader extra = h.reader(); // as a client that never reached cleanup would leave it
    close(db);
    assertEquals(0, SharedHandles.openCount());
    h.release(extra); // already ended by the close: releasing again does nothing
    DB again = open();
    assertEquals(Map.of("f", "v"), read(again, "k", null));
  }

  /** With a write map a full disk is a SIGBUS: the guard diskspacemargin=0 turns off is all that prevents it. */
  @Test
  void aWriteMapWithTheFreeSpaceGuardOffIsRefusedByName() throws Exception {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("lmdb.writemap", "true");
    p.setProperty("lmdb.mapsize", "16m");
    p.setProperty("diskspacemargin", "0");
    assertRefusedUntouched(tmp.resolve("db"), p, "property lmdb.writemap = 'true' is not allowed: expected false with"
        + " diskspacemargin (0)", "SIGBUS");
    assertFalse(Files.exists(tmp.resolve("db")));
    p.setProperty("diskspacemargin", "1m"); // any margin: the guard is on
    DB db = open(p);
    assertTrue(handle(db).options().writeMap());
    close(db);
  }

  /** LMDB keeps a lock file longer than it needs and counts its reader slots from its length. */
  @Test
  void aLockFileLeftWithMoreReaderSlotsIsCutToTheSlotsAskedFor() throws Exception {
    Properties many = properties(tmp.resolve("db"));
    many.setProperty("lmdb.maxreaders", "500");
    insertAndClose(many, "k", record("f", "v"));
    assertEquals(LmdbHandle.lockFileBytes(500), Files.size(tmp.resolve("db").resolve("lock.mdb")));
    Properties few = properties(tmp.resolve("db"));
    few.setProperty("lmdb.maxreaders", "40");
    DB db = open(few);
    assertEquals(40, handle(db).info().maxReaders);
    assertEquals(Map.of("f", "v"), read(db, "k", null));
    close(db);
    assertEquals(LmdbHandle.lockFileBytes(40), Files.size(tmp.resolve("db").resolve("lock.mdb")));
  }

  /**
   * A process outside the project (no directory lock) that has the environment open holds LMDB's lock on
   * lock.mdb's first byte: the binding does not overwrite its reader table, it refuses, changing nothing.
   * The other process is a python3 holding that lock as LMDB does (fcntl, shared, byte 0).
   */
  @Test
  void anEnvironmentAnotherProcessHoldsIsRefusedUntouched() throws Exception {
    Path dir = tmp.resolve("db");
    insertAndClose(properties(dir), "k", record("f", "v"));
    Process holder = new ProcessBuilder("python3", "-c", "import fcntl, sys, time\n"
        + "f = open(sys.argv[1], 'r+b')\nfcntl.lockf(f, fcntl.LOCK_SH, 1, 0)\nprint('held', flush=True)\n"
        + "time.sleep(120)", dir.resolve("lock.mdb").toString()).redirectErrorStream(true).start();
    try {
      String said = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream(),
          java.nio.charset.StandardCharsets.UTF_8)).readLine();
      assertEquals("held", said, "python3 holds the lock");
      assertRefusedUntouched(properties(dir), "another process has the LMDB environment in", "lock.mdb");
    } finally {
      holder.destroyForcibly().waitFor();
    }
    DB again = open();
    assertEquals(Map.of("f", "v"), read(again, "k", null));
  }

  /** 10,000 records of 100 bytes under shuffled keys in {@code dir}, one commit each, closed: depth 3. */
  private Map<String, String> loadTree(Path dir) throws Exception {
    Map<String, String> stored = new TreeMap<>();
    Random random = new Random(32);
    DB db = open(properties(dir));
    for (int i = 0; i < 10_000; i++) {
      String key = "user" + Long.toUnsignedString(random.nextLong());
      String value = Long.toHexString(random.nextLong()).repeat(8).substring(0, 100);
      assertEquals(Status.OK, db.insert("usertable", key, record("f", value)));
      stored.put(key, value);
    }
    close(db);
    return stored;
  }

  /** Writes 4,096 random bytes over page {@code pgno} of data.mdb (4,096-byte pages). */
  private static void overwritePage(Path dir, long pgno, long seed) throws Exception {
    byte[] junk = new byte[4096];
    new Random(seed).nextBytes(junk);
    try (FileChannel ch = FileChannel.open(dir.resolve("data.mdb"), StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(junk), pgno * 4096);
    }
  }

  /** The child that the first node of branch page {@code pgno} points at. */
  private static long firstChild(Path dir, long pgno) throws Exception {
    return child(page(dir, pgno), 0);
  }

  /** Page {@code pgno} of data.mdb (4,096-byte pages), little-endian. */
  private static ByteBuffer page(Path dir, long pgno) throws Exception {
    ByteBuffer page = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
    try (FileChannel ch = FileChannel.open(dir.resolve("data.mdb"))) {
      ch.read(page, pgno * 4096);
    }
    return page;
  }

  /** The nodes of a page: its lower bound (u16 at 12) less the 16-byte header, 2 bytes a node. */
  private static int nodes(ByteBuffer page) {
    return ((page.getShort(12) & 0xffff) - 16) / 2;
  }

  /** The child that node {@code i} of a branch page points at (its page number in the node's lo and hi u16). */
  private static long child(ByteBuffer page, int i) {
    int node = page.getShort(16 + 2 * i) & 0xffff;
    return (page.getShort(node) & 0xffffL) | (page.getShort(node + 2) & 0xffffL) << 16;
  }

  /** The keys of a leaf page: node i's key size is the u16 at 6, its key follows the 8-byte node header. */
  private static Set<String> leafKeys(ByteBuffer page) {
    Set<String> keys = new java.util.TreeSet<>();
    for (int i = 0; i < nodes(page); i++) {
      int node = page.getShort(16 + 2 * i) & 0xffff;
      byte[] key = new byte[page.getShort(node + 6) & 0xffff];
      page.get(node + 8, key);
      keys.add(new String(key, java.nio.charset.StandardCharsets.UTF_8));
    }
    return keys;
  }

  private static LmdbTree.Meta meta(Path dir) throws Exception {
    try (FileChannel ch = FileChannel.open(dir.resolve("data.mdb"))) {
      return LmdbTree.meta(ch);
    }
  }

  /**
   * LMDB keeps no page checksums: 4,096 random bytes over page 2 (the root here) opened
   * with every read NOT_FOUND. The binding walks the branch pages and refuses, naming the page, and changes
   * nothing; so for a branch page below the root; the same file undamaged opens and reads every record.
   */
  @Test
  void aTreeDamagedInsideIsRefusedNamingThePage() throws Exception {
    Path dir = tmp.resolve("db");
    Map<String, String> stored = loadTree(dir);
    LmdbTree.Meta meta = meta(dir);
    assertEquals(3, meta.main().depth(), "a root, a level of branch pages, the leaves");
    byte[] clean = Files.readAllBytes(dir.resolve("data.mdb"));

    overwritePage(dir, 2, 1);
    assertRefusedUntouched(properties(dir), "data.mdb is damaged: page 2 (", "LMDB keeps no page checksums");

    Files.write(dir.resolve("data.mdb"), clean);
    long branch = firstChild(dir, meta.main().root());
    overwritePage(dir, branch, 2);
    assertRefusedUntouched(properties(dir), "data.mdb is damaged: page " + branch + " (a branch page of the main"
        + " database, level 2 of 3)");

    Files.write(dir.resolve("data.mdb"), clean);
    DB db = open(properties(dir));
    stored.forEach((key, value) -> assertEquals(Map.of("f", value), read(db, key, null), key));
  }

  /**
   * One damaged leaf in the middle of the tree (the open reads only the branch pages and the first and last leaf)
   * costs the reads of the keys on it, each an ERROR, and no other: LMDB marks the read transaction failed at the
   * first (MDB_CORRUPTED for a zeroed page, MDB_PAGE_NOTFOUND for other bytes), and a client's kept snapshot then
   * refused every later read of that client ("Transaction must abort, has a child, or is invalid") until a write
   * committed. Every other key reads back its exact value, with a snapshot kept or one per read.
   */
  @Test
  void aDamagedLeafCostsTheReadsOfItsKeysAndNoOthers() throws Exception {
    Path dir = tmp.resolve("db");
    Map<String, String> stored = loadTree(dir);
    ByteBuffer root = page(dir, meta(dir).main().root());
    ByteBuffer branch = page(dir, child(root, nodes(root) / 2));
    long leaf = child(branch, nodes(branch) / 2);
    Set<String> onLeaf = leafKeys(page(dir, leaf));
    assertTrue(onLeaf.size() > 10 && stored.keySet().containsAll(onLeaf), onLeaf.toString());
    try (FileChannel ch = FileChannel.open(dir.resolve("data.mdb"), StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.allocate(4096), leaf * 4096);
    }
    for (String snapshot : List.of("client", "operation")) {
      Properties p = properties(dir);
      p.setProperty(LmdbOptions.READ_SNAPSHOT, snapshot);
      DB db = open(p);
      Set<String> failed = new java.util.TreeSet<>();
      try {
        for (Map.Entry<String, String> e : stored.entrySet()) { // in key order: the leaf's keys, then the rest
          Map<String, ByteIterator> row = new HashMap<>();
          Status s = db.read("usertable", e.getKey(), null, row);
          if (s == Status.OK) {
            assertEquals(e.getValue(), row.get("f").toString(), e.getKey());
          } else {
            assertEquals(Status.ERROR, s, e.getKey());
            failed.add(e.getKey());
          }
        }
      } finally {
        close(db);
      }
      assertEquals(onLeaf.size(), failed.size(), snapshot + ": reads failed of " + stored.size() + " against the"
          + " keys the leaf held");
      assertEquals(onLeaf, failed, snapshot);
    }
  }

  /**
   * A data.mdb older than the binding's last clean close (its newer meta page lost, an older copy put back) is
   * refused naming both transactions; one written after it without a clean close, as a killed writer leaves
   * it (the file copied while the environment is open: the OS has every committed page), opens and reads
   * every record committed before the copy.
   */
  @Test
  void anOlderTreeIsRefusedAndOneAKilledWriterLeftOpens() throws Exception {
    Path dir = tmp.resolve("db");
    Map<String, String> stored = loadTree(dir);
    Path older = tmp.resolve("older.mdb");
    Files.copy(dir.resolve("data.mdb"), older);
    DB db = open(properties(dir));
    assertEquals(Status.OK, db.insert("usertable", "later", record("f", "after the copy")));
    Path killed = Files.createDirectories(tmp.resolve("killed"));
    for (String name : List.of("data.mdb", DataLayout.FILE, LmdbTree.RECORD)) {
      Files.copy(dir.resolve(name), killed.resolve(name)); // the last clean close's record: an older transaction
    }
    close(db);

    DB reopened = open(properties(killed));
    assertEquals(Map.of("f", "after the copy"), read(reopened, "later", null));
    stored.forEach((key, value) -> assertEquals(Map.of("f", value), read(reopened, key, null), key));
    close(reopened);

    Files.copy(older, dir.resolve("data.mdb"), StandardCopyOption.REPLACE_EXISTING);
    assertRefusedUntouched(properties(dir), "LMDB would open it at transaction 10000, older than the 10001 the"
        + " binding closed it at");
  }

  /**
   * A write allocates lmdbjava's transaction (its Txn, the key and value structs it allocates, about 0.4 KB) and
   * nothing more: no stream from lmdbjava's flag masks (an empty flag array costs seven objects, 0.4 KB, per mask),
   * no array around the pair, and an update of a one-field record does not copy the stored value out of the map.
   */
  @Test
  void aWriteAllocatesOnlyLmdbjavasTransaction() throws Exception {
    double[] perWrite = oneFieldWriteAllocation(); // 417 and 417 here, a value's 24-byte wrapper included
    assertTrue(perWrite[0] < 500, perWrite[0] + " bytes per insert");
    assertTrue(perWrite[1] < 500, perWrite[1] + " bytes per update; a copy of the stored value would add 120");
  }
}
