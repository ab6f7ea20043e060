package site.ycsb.embedded.lmdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
import site.ycsb.embedded.EngineFiles;
import site.ycsb.embedded.KeyValueDbContract;
import site.ycsb.embedded.SharedHandles;

class LmdbClientTest extends KeyValueDbContract {

  @Override
  protected String engine() {
    return "lmdb";
  }

  @Override
  protected DB newClient() {
    return new LmdbClient();
  }

  @Override
  protected Class<?> optionsClass() {
    return LmdbOptions.class;
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
    assertTrue(printed.contains("MDB_NORDAHEAD|MDB_NOSYNC|MDB_NOTLS"), printed);
    assertTrue(Files.isRegularFile(tmp.resolve("db").resolve("data.mdb")));
    // the lock file the binding wrote before LMDB mapped it: LMDB kept it (neither grown nor its slots recounted)
    assertEquals(2 * 64 + 40 * 64, Files.size(tmp.resolve("db").resolve("lock.mdb")));
    assertEquals(List.of(EngineFiles.Engine.LMDB), List.copyOf(EngineFiles.identify(tmp.resolve("db")).keySet()));
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
    assertTrue(printed.contains("each commit fsynced before it returns"), printed);
    DB again = open(properties(tmp.resolve("db")));
    assertEquals(Map.of("f", "v"), read(again, "k", null));
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
}
