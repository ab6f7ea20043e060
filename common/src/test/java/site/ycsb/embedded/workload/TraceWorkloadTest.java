package site.ycsb.embedded.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.WorkloadException;
import site.ycsb.embedded.Keys;

class TraceWorkloadTest {

  static final String TWITTER_TEN = TraceSamples.TWITTER_TEN;
  static final List<String> TWITTER_TEN_OPS = TraceSamples.TWITTER_TEN_OPS;

  /** Records every call in order, with the written value's size; updates of keys it never stored miss. */
  static final class RecordingDb extends DB {
    final List<String> ops = Collections.synchronizedList(new ArrayList<>());
    final Set<String> stored = Collections.synchronizedSet(new HashSet<>());

    @Override
    public Status read(String t, String key, Set<String> f, Map<String, ByteIterator> r) {
      ops.add("READ " + key);
      return stored.contains(key) ? Status.OK : Status.NOT_FOUND;
    }

    @Override
    public Status scan(String t, String start, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
      ops.add("SCAN " + start + " " + n);
      return Status.OK;
    }

    @Override
    public Status update(String t, String key, Map<String, ByteIterator> v) {
      ops.add("UPDATE " + key + " " + size(v));
      return stored.contains(key) ? Status.OK : Status.NOT_FOUND;
    }

    @Override
    public Status insert(String t, String key, Map<String, ByteIterator> v) {
      ops.add("INSERT " + key + " " + size(v));
      stored.add(key);
      return Status.OK;
    }

    @Override
    public Status delete(String t, String key) {
      ops.add("DELETE " + key);
      return stored.remove(key) ? Status.OK : Status.NOT_FOUND;
    }

    private static long size(Map<String, ByteIterator> v) {
      assertEquals(Set.of("field0"), v.keySet());
      return TraceSamples.size(v);
    }
  }

  @TempDir
  Path dir;

  Path write(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.write(p, text.getBytes(StandardCharsets.ISO_8859_1));
    return p;
  }

  Path gzip(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
      out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    }
    return p;
  }

  static TraceWorkload workload(Path trace, String... kv) throws WorkloadException {
    Properties p = new Properties();
    p.setProperty(TraceWorkload.FILE, trace.toString());
    p.setProperty(TraceWorkload.FILTER_BYTES, "1m");
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    TraceWorkload w = new TraceWorkload();
    w.init(p);
    return w;
  }

  /** Runs the transaction phase on one thread to the end of the trace; returns the stderr block. */
  static String replay(TraceWorkload w, DB db) throws Exception {
    return stderrOf(() -> {
      int n = 0;
      while (w.doTransaction(db, null)) {
        n++;
        assertTrue(n < 10_000_000);
      }
      assertFalse(w.doTransaction(db, null), "the end of the trace stays the end");
      w.cleanup();
    });
  }

  static String load(TraceWorkload w, DB db) throws Exception {
    return stderrOf(() -> TraceSamples.loadAll(w, db));
  }

  interface Body {
    void run() throws Exception;
  }

  static String stderrOf(Body body) throws Exception {
    PrintStream saved = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      body.run();
    } finally {
      System.setErr(saved);
    }
    String out = buf.toString(StandardCharsets.UTF_8);
    saved.print(out);
    return out;
  }

  /** The [TRACE] line's fields by name. */
  static Map<String, String> block(String stderr) {
    String line = stderr.lines().filter(l -> l.startsWith("[TRACE] ")).reduce((a, b) -> b).orElseThrow();
    Map<String, String> m = new HashMap<>();
    for (String item : line.substring("[TRACE] ".length()).split(", ")) {
      int eq = item.indexOf('=');
      m.put(item.substring(0, eq), item.substring(eq + 1));
    }
    return m;
  }

  /** Asserts that {@code block} holds each name=value of {@code namesAndValues} (it may hold other fields too). */
  static void assertFields(Map<String, String> block, String... namesAndValues) {
    Map<String, String> expected = new TreeMap<>();
    Map<String, String> found = new TreeMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      expected.put(namesAndValues[i], namesAndValues[i + 1]);
      found.put(namesAndValues[i], block.get(namesAndValues[i]));
    }
    assertEquals(expected, found);
  }

  @Test
  void aTenLineTwitterTraceReplaysExactlyItsTenOperationsInOrder() throws Exception {
    Path trace = write("ten.csv", TWITTER_TEN);
    RecordingDb db = new RecordingDb();
    String loadOut = load(workload(trace), db);
    // the load inserts the keys read or deleted before any write: a1 (get first) and c3 (delete first)
    assertEquals(TraceSamples.TWITTER_TEN_LOAD, db.ops);
    assertFields(block(loadOut), "phase", "load", "lines", "10", "loaded", "2");

    db.ops.clear();
    Map<String, String> b = block(replay(workload(trace), db));
    assertEquals(TWITTER_TEN_OPS, db.ops);
    assertFields(b, "phase", "run", "format", "twitter", "lines", "10", "replayed", "10", "distinct_keys~", "5",
        "span_s", "9.000", "mix", "delete:1,insert:3,read:3,update:3",
        "trace_ops", "add:1,append:1,delete:1,get:2,gets:1,incr:1,replace:1,set:2",
        "valuesize", "min:0,p50:100,p90:200,p99:300,max:300,mean:111.8",
        "keysize", "min:20,p50:20,p90:21,p99:22,max:22,mean:20.3", "updates_inserted", "0");
  }

  @Test
  void withoutALoadTheFirstWritesInsertAndAnUpdateThatMissesBecomesAnInsert() throws Exception {
    Path trace = write("ten.csv", TWITTER_TEN);
    assertFalse(workload(trace, TraceWorkload.LOAD, "none").doInsert(new RecordingDb(), null));
    RecordingDb db = new RecordingDb();
    Map<String, String> b = block(replay(workload(trace, TraceWorkload.LOAD, "none"), db));
    // a1 was not loaded, so its update misses and is sent again as an insert
    List<String> expected = new ArrayList<>(TWITTER_TEN_OPS);
    expected.add(3, "INSERT nz:u:a1 110");
    assertEquals(expected, db.ops);
    assertEquals("1", b.get("updates_inserted"));
  }

  @Test
  void gzipReplaysExactlyAsPlain() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 500; i++) {
      sb.append(i / 10).append(",k").append(i * 7919 % 97).append(",4,").append(i % 13 + 1).append(",1,")
          .append(i % 3 == 0 ? "set" : i % 7 == 0 ? "delete" : "get").append(",0\n");
    }
    RecordingDb plain = new RecordingDb();
    String plainOut = replay(workload(write("t.csv", sb.toString())), plain);
    RecordingDb gz = new RecordingDb();
    String gzOut = replay(workload(gzip("t.csv.gz", sb.toString())), gz);
    assertEquals("500", block(plainOut).get("replayed"));
    assertEquals(plain.ops, gz.ops);
    assertEquals(block(plainOut), block(gzOut));
  }

  @Test
  void kvtraceHeaderNamesItsColumnsInAnyOrderAndSkipsWhatItCannotReplay() throws Exception {
    String text = "# a comment\n"
        + "op\tvaluesize\tkey\ttime\n"
        + "insert\t10\tk1\t0.5\n"
        + "read\t0\tk1\t0.75\n"
        + "scan\t25\tk0\t1.0\n"
        + "touch\t0\tk1\t1.5\n"
        + "update\tten\tk1\t2\n" // malformed size: skipped and counted
        + "read\t0\t\t2.2\n" // no key: skipped and counted
        + "\n"
        + "update\t12\tk1\t2.5\n";
    RecordingDb db = new RecordingDb();
    Map<String, String> b = block(replay(workload(write("t.tsv", text)), db));
    assertEquals(List.of("INSERT k1 10", "READ k1", "SCAN k0 25", "UPDATE k1 12"), db.ops);
    assertFields(b, "format", "kvtrace", "lines", "5", "malformed", "2", "span_s", "2.000",
        "mix", "insert:1,read:1,scan:1,skip:1,update:1");
  }

  @Test
  void distinctTraceKeysStayDistinctEngineKeysEvenWhenTheyLookAlike() throws Exception {
    // keys that a trimming, case-folding, UTF-8-decoding or comma-splitting reader would merge
    String[] keys = {"a", "a ", " a", "A", "a\t", "a,b", "a,b,", "\u00e9", "\u00c3\u00a9", "a\u0000", "aa"};
    StringBuilder sb = new StringBuilder();
    for (String k : keys) {
      sb.append("0,").append(k).append(",12,5,1,set,0\n");
    }
    Path trace = write("alike.csv", sb.toString());
    for (String mode : new String[] {"asis", "padded"}) {
      RecordingDb db = new RecordingDb();
      replay(workload(trace, TraceWorkload.KEYS, mode, TraceWorkload.LOAD, "none"), db);
      assertEquals(keys.length, db.ops.size(), mode);
      Set<String> engineKeys = new HashSet<>();
      Set<String> engineBytes = new HashSet<>();
      for (int i = 0; i < keys.length; i++) {
        String op = db.ops.get(i);
        assertTrue(op.startsWith("INSERT "), mode + ": every key is new: " + op);
        String key = op.substring("INSERT ".length(), op.lastIndexOf(' '));
        // the trace key comes back from the engine key: no two trace keys share one
        assertEquals(keys[i], mode.equals("padded") ? key.split("\n", 2)[0] : key, mode);
        if (mode.equals("padded")) {
          assertEquals(12, key.length());
        }
        engineKeys.add(key);
        engineBytes.add(new String(Keys.UTF8.bytes(key), StandardCharsets.ISO_8859_1));
      }
      assertEquals(keys.length, engineKeys.size(), mode);
      assertEquals(keys.length, engineBytes.size(), mode);
    }
  }

  @Test
  void theTraceSpeedPacesByTheTimeColumn() throws Exception {
    String text = "time,key,op\n10,a,read\n11,b,read\n12.5,c,read\n12.5,d,read\n";
    Path trace = write("paced.csv", text);
    for (double speed : new double[] {0, 1, 2}) {
      List<Long> waits = new ArrayList<>();
      TraceWorkload w = workload(trace, TraceWorkload.SPEED, Double.toString(speed));
      w.useClock(new PaceClock() {
        @Override
        public long nanoTime() {
          return 1_000_000L;
        }

        @Override
        public void sleepUntil(long nanos) {
          waits.add(nanos - 1_000_000L);
        }
      });
      replay(w, new RecordingDb());
      List<Long> expected = speed == 0 ? List.of()
          : List.of(0L, (long) (1e9 / speed), (long) (2.5e9 / speed), (long) (2.5e9 / speed));
      assertEquals(expected, waits, "speed " + speed);
    }
  }

  @Test
  void refusesBeforeAnythingRuns() throws Exception {
    assertRefused("no readable file", dir.resolve("missing.csv"));
    Path zstd = dir.resolve("t.zst");
    Files.write(zstd, new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0, 0});
    assertRefused("zstd -d", zstd);
    assertRefused("kvtrace file starts with a header", write("nohead.csv", "1,a,b\n"), TraceWorkload.FORMAT,
        "kvtrace");
    assertRefused("nor a Twitter", write("junk.csv", "hello world\n"));
    assertRefused("has none", write("untimed.csv", "key,op\na,get\n"), TraceWorkload.SPEED, "1");
    assertRefused("holds no trace line", write("empty.csv", "# nothing\n"));
  }

  static void assertRefused(String why, Path trace, String... kv) {
    WorkloadException e = org.junit.jupiter.api.Assertions.assertThrows(WorkloadException.class,
        () -> workload(trace, kv));
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }

  @Test
  void threadsShareOneReaderAndReplayEveryLineOnce() throws Exception {
    StringBuilder sb = new StringBuilder("time,key,valuesize,op\n");
    for (int i = 0; i < 2000; i++) {
      sb.append(i).append(",k").append(i).append(",").append(i % 50 + 1).append(",set\n");
    }
    TraceWorkload w = workload(write("many.csv", sb.toString()));
    RecordingDb db = new RecordingDb();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      threads.add(new Thread(() -> {
        while (w.doTransaction(db, null)) {
          continue;
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(2000, db.ops.size());
    Set<String> distinct = new HashSet<>(db.ops);
    for (int i = 0; i < 2000; i++) {
      assertTrue(distinct.contains("INSERT k" + i + " " + (i % 50 + 1)), "line " + i);
    }
  }

  /**
   * A million-line trace replays in a JVM of 24 MB heap, where the trace's lines (over 30 MB of text, twice that
   * as Java strings) cannot all be held; its distinct keys are estimated within 3 %.
   */
  @Test
  void aMillionLineTraceStreamsThroughASmallHeap() throws Exception {
    Path trace = dir.resolve("million.csv");
    try (PrintStream out = new PrintStream(new java.io.BufferedOutputStream(Files.newOutputStream(trace), 1 << 16),
        false, StandardCharsets.ISO_8859_1)) {
      for (int i = 0; i < 1_000_000; i++) {
        out.print(i / 1000 + ",nz:u:anonymised-key-" + (i * 7919L % 100_000) + ",30,100,1,"
            + (i % 4 == 0 ? "set" : "get") + ",0\n");
      }
    }
    assertTrue(Files.size(trace) > 30_000_000L);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-Xmx24m", "-cp", System.getProperty("java.class.path"),
        TraceReplayMain.class.getName(), trace.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    Map<String, String> b = block(out);
    assertEquals("1000000", b.get("lines"), out);
    assertEquals("1000000", b.get("replayed"), out);
    long distinct = Long.parseLong(b.get("distinct_keys~"));
    assertTrue(Math.abs(distinct - 100_000) < 3_000, "distinct keys estimated " + distinct);
  }
}
