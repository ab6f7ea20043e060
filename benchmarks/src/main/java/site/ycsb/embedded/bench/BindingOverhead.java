package site.ycsb.embedded.bench;

import java.io.PrintStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.embedded.DiskSpaceGuard;
import site.ycsb.embedded.KeyValueDB;
import site.ycsb.embedded.Keys;
import site.ycsb.embedded.workload.CompressibleValues;
import site.ycsb.embedded.workload.FullScanSink;
import site.ycsb.embedded.workload.KeyFormat;
import site.ycsb.embedded.workload.Permutation;

/**
 * What a binding costs over its engine: the same puts and gets (db_bench's data shape: 16-byte
 * keys in random order, 100-byte half-compressible values) run directly on the engine's Java API
 * and through the YCSB binding, then one ordered pass over everything (db_bench's readseq),
 * alternating in one JVM, each on a fresh database. Prints ops/sec per round and the median ratio
 * binding/direct. The binding side includes what YCSB's API
 * imposes on any binding (a String key and a field map per call); YCSB's own client loop and
 * measurements are not included. The free-space check's cost (disk-guard) runs through the same rounds.
 *
 * <p>The questions side-by-side ({@link #sideBySide}) and disk-guard ({@link #diskGuard}) of {@link Bench}:
 * [--engines e,...] (default: every engine of {@link Engines#ALL}) [--ops N] [--rounds R], side-by-side also [--dir D].
 */
public final class BindingOverhead {

  /** What each round measures: puts, then point gets, then one ordered pass (entries/sec). */
  static final String[] PHASES = {"put", "get", "scan"};

  private BindingOverhead() {
  }

  /** An engine driven directly, opened with the values its binding reads from the same properties. */
  public interface Direct extends AutoCloseable {
    void put(byte[] key, byte[] value) throws Exception;

    byte[] get(byte[] key) throws Exception;

    /** Reads every record once in key order (db_bench's readseq); returns how many. */
    long scanAll() throws Exception;

    /** Closes the engine (named exceptions: a close that could be interrupted has no place in try-with-resources). */
    @Override
    void close() throws java.io.IOException, java.sql.SQLException;
  }

  /** side-by-side: direct and binding rounds alternating, per engine. */
  static int sideBySide(Bench.Options o, PrintStream out) throws Exception {
    int ops = o.integer("--ops");
    int rounds = o.integer("--rounds");
    try (Bench.WorkDir dir = o.dir("binding-overhead")) {
      Workload w = new Workload(ops);
      out.printf(Locale.ROOT, "binding overhead: %d puts then %d gets per side, 16-byte keys (random order),"
          + " 100-byte values, %d rounds alternating direct/binding%n", ops, ops, rounds);
      alternate(o.list("--engines"), rounds, dir.path(), new Side("direct", (e, d) -> runDirect(e, d, w)),
          new Side("binding", (e, d) -> runBinding(e, d, w)), "binding/direct", out);
    }
    return 0;
  }

  /**
   * disk-guard: what the free-space check costs. One statvfs, the guard's amortised cost per write, and the binding's
   * puts, gets and ordered pass with the check on (the engine's margin) and off ({@code diskspacemargin=0}),
   * alternating rounds in one JVM, each on a fresh database.
   */
  static int diskGuard(Bench.Options o, PrintStream out) throws Exception {
    int ops = o.integer("--ops");
    int rounds = o.integer("--rounds");
    try (Bench.WorkDir dir = o.dir("disk-guard-cost")) {
      FileStore store = Files.getFileStore(dir.path());
      int calls = 200_000;
      long sink = 0;
      long t0 = System.nanoTime();
      for (int i = 0; i < calls; i++) {
        sink += store.getUsableSpace();
      }
      double statvfsNs = (System.nanoTime() - t0) / (double) calls;
      DiskSpaceGuard guard = DiskSpaceGuard.of(dir.path(), 1L << 20, 0);
      DiskSpaceGuard.Counter counter = guard.counter(); // what a client's writes go through
      long writes = 20_000_000;
      t0 = System.nanoTime();
      for (long i = 0; i < writes; i++) {
        counter.beforeWrite(116); // a 16-byte key and a 100-byte value
      }
      double perWriteNs = (System.nanoTime() - t0) / (double) writes;
      out.printf(Locale.ROOT, "one free-space look (FileStore.getUsableSpace, statvfs): %.0f ns (%d)%n"
          + "guard per 116-byte write through a client's counter, amortised (a look per %d bytes): %.1f ns%n",
          statvfsNs, sink & 1, DiskSpaceGuard.CHECK_EVERY_BYTES, perWriteNs);

      Workload w = new Workload(ops);
      Properties off = new Properties();
      off.setProperty(KeyValueDB.DISK_SPACE_MARGIN, "0");
      out.printf(Locale.ROOT, "binding with the check on (engine's margin) and off (diskspacemargin=0): %d puts,"
          + " gets, one ordered pass; %d rounds alternating%n", ops, rounds);
      alternate(o.list("--engines"), rounds, dir.path(), new Side("on", (e, d) -> runBinding(e, d, w,
          new Properties())), new Side("off", (e, d) -> runBinding(e, d, w, off)), "on/off", out);
    }
    return 0;
  }

  /** One round of one side on a fresh directory: entries per second of each of {@link #PHASES}. */
  interface Round {
    double[] run(Engines.Engine e, Path dir) throws Exception;
  }

  /** One side of a pairing of whole rounds: its label in the lines, and its round. */
  record Side(String label, Round round) {
  }

  /**
   * Side-by-side and disk-guard's rounds ({@link Alternation}): per engine, {@code rounds} rounds of side {@code a}
   * then side {@code b}, each on a fresh directory under {@code base}; a line per round, then the medians per phase
   * and their ratio, {@code b/a} when {@code ratio} is "b-label/a-label", else {@code a/b}.
   */
  static void alternate(List<String> engines, int rounds, Path base, Side a, Side b, String ratio, PrintStream out)
      throws Exception {
    boolean bOverA = ratio.equals(b.label() + "/" + a.label());
    List<String> summary = new ArrayList<>();
    for (String name : engines) {
      Engines.Engine e = Engines.named(name);
      Map<String, double[][]> sides = new Alternation()
          .path(a.label(), r -> a.round().run(e, base.resolve(name + "-" + a.label() + "-" + r)))
          .path(b.label(), r -> b.round().run(e, base.resolve(name + "-" + b.label() + "-" + r)))
          .run(rounds, (r, f) -> {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-8s round %d:", name, r + 1));
            for (int k = 0; k < PHASES.length; k++) {
              line.append(String.format(Locale.ROOT, " %s %s %,.0f %s %,.0f;", PHASES[k], a.label(),
                  f.get(a.label())[k], b.label(), f.get(b.label())[k]));
            }
            out.println(line);
          });
      for (int k = 0; k < PHASES.length; k++) {
        double am = Alternation.median(sides.get(a.label()), k);
        double bm = Alternation.median(sides.get(b.label()), k);
        summary.add(String.format(Locale.ROOT, "%-8s %-4s %s %,10.0f ops/s  %s %,10.0f ops/s  %s %.2f", name,
            PHASES[k], a.label(), am, b.label(), bm, ratio, bOverA ? bm / am : am / bm));
      }
    }
    out.println("medians:");
    summary.forEach(line -> out.println("  " + line));
  }

  /** Keys and values made once, shared by both sides. */
  static final class Workload {
    final byte[][] keys;
    final String[] keyStrings;
    final byte[][] values;
    final int[] readOrder;

    Workload(int n) {
      KeyFormat format = KeyFormat.decimal(16);
      Permutation load = new Permutation(n, 1);
      Permutation read = new Permutation(n, 2);
      CompressibleValues gen = new CompressibleValues(0.5, 3);
      keys = new byte[n][];
      keyStrings = new String[n];
      values = new byte[n][];
      readOrder = new int[n];
      for (int i = 0; i < n; i++) {
        keyStrings[i] = format.key(load.apply(i));
        keys[i] = Keys.UTF8.bytes(keyStrings[i]);
        values[i] = gen.next(100);
        readOrder[i] = (int) read.apply(i);
      }
    }
  }

  static double[] runDirect(Engines.Engine e, Path dir, Workload w) throws Exception {
    Files.createDirectories(dir);
    try (Direct d = e.openDirect(dir, properties(e, dir))) {
      long t0 = System.nanoTime();
      for (int i = 0; i < w.keys.length; i++) {
        d.put(w.keys[i], w.values[i]);
      }
      long t1 = System.nanoTime();
      long found = 0;
      for (int i : w.readOrder) {
        if (d.get(w.keys[i]) != null) {
          found++;
        }
      }
      long t2 = System.nanoTime();
      check(found == w.keys.length, e.name() + " direct found " + found + " of " + w.keys.length);
      long scanned = d.scanAll();
      long t3 = System.nanoTime();
      check(scanned == w.keys.length, e.name() + " direct scan saw " + scanned + " of " + w.keys.length);
      return new double[] {rate(w.keys.length, t1 - t0), rate(w.keys.length, t2 - t1), rate(w.keys.length, t3 - t2)};
    }
  }

  static double[] runBinding(Engines.Engine e, Path dir, Workload w) throws Exception {
    return runBinding(e, dir, w, new Properties());
  }

  /** The properties both sides open {@code e} with in {@code dir}. */
  private static Properties properties(Engines.Engine e, Path dir) {
    Properties p = new Properties();
    p.setProperty("path", dir.toString());
    p.setProperty("fieldcount", "1"); // one field stored bare: the same 100 bytes as the direct side
    e.configure(p);
    return p;
  }

  /** The binding side with {@code extra} properties on top of the direct side's options. */
  static double[] runBinding(Engines.Engine e, Path dir, Workload w, Properties extra) throws Exception {
    Properties p = properties(e, dir);
    p.putAll(extra);
    DB db = e.newClient();
    db.setProperties(p);
    db.init();
    try {
      long t0 = System.nanoTime();
      for (int i = 0; i < w.keys.length; i++) {
        HashMap<String, ByteIterator> values = new HashMap<>();
        values.put("field0", new ByteArrayByteIterator(w.values[i]));
        check(db.insert("usertable", w.keyStrings[i], values) == Status.OK, "insert failed");
      }
      long t1 = System.nanoTime();
      long found = 0;
      HashMap<String, ByteIterator> result = new HashMap<>();
      for (int i : w.readOrder) {
        result.clear();
        if (db.read("usertable", w.keyStrings[i], null, result) == Status.OK) {
          found++;
        }
      }
      long t2 = System.nanoTime();
      check(found == w.keys.length, e.name() + " binding found " + found + " of " + w.keys.length);
      FullScanSink rows = new FullScanSink();
      check(db.scan("usertable", "", Integer.MAX_VALUE, null, rows) == Status.OK, "scan failed");
      long t3 = System.nanoTime();
      touched += rows.bytes();
      check(rows.rows() == w.keys.length, e.name() + " binding scan saw " + rows.rows() + " of " + w.keys.length);
      return new double[] {rate(w.keys.length, t1 - t0), rate(w.keys.length, t2 - t1), rate(w.keys.length, t3 - t2)};
    } finally {
      db.cleanup();
    }
  }

  /** Where scans put the bytes they read, so that the JIT cannot skip reading them. */
  private static volatile long touched;

  /** Uses a value read by a direct scan (as the binding side's decode uses it). */
  public static void touch(byte[] value) {
    touched += value.length;
  }

  /** A scan's sink that touches every value and counts them (a direct side's full pass). */
  static final class Counter implements site.ycsb.embedded.KeyValueDB.ValueSink {
    long count;

    @Override
    public void accept(byte[] value) {
      touch(value);
      count++;
    }
  }

  private static double rate(int n, long nanos) {
    return n / (nanos / 1e9);
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalStateException(message);
    }
  }
}
