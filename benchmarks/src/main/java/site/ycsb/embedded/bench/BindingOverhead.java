package site.ycsb.embedded.bench;

import static site.ycsb.embedded.bench.LayerStep.check;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.embedded.KeyValueDB;
import site.ycsb.embedded.workload.CompressibleValues;
import site.ycsb.embedded.workload.FullScanSink;
import site.ycsb.embedded.workload.Permutation;

/**
 * The side-by-side benchmark (benchmarks/README.md), the question side-by-side of {@link Bench}: what a binding costs
 * over its engine's Java library, the two sides alternating in one JVM ({@link Alternation}).
 */
public final class BindingOverhead {

  /** What each round measures: puts, then point gets, then one ordered pass (entries/sec). */
  static final String[] PHASES = {"put", "get", "scan"};

  private BindingOverhead() {
  }

  /** Per engine, rounds of the direct side then the binding side; a line per round, then the medians and ratios. */
  static int sideBySide(Bench.Options o, PrintStream out) throws Exception {
    int ops = o.integer("--ops");
    int rounds = o.integer("--rounds");
    try (Bench.WorkDir dir = o.dir("binding-overhead")) {
      Workload w = new Workload(ops);
      out.printf(Locale.ROOT, "binding overhead: %d puts then %d gets per side, 16-byte keys (random order),"
          + " 100-byte values, %d rounds alternating direct/binding%n", ops, ops, rounds);
      List<String> summary = new ArrayList<>();
      for (String name : o.list("--engines")) {
        BenchEngine e = Engines.named(name);
        Map<String, double[][]> sides = new Alternation()
            .path("direct", r -> runDirect(e, dir.path().resolve(name + "-direct-" + r), w))
            .path("binding", r -> runBinding(e, dir.path().resolve(name + "-binding-" + r), w))
            .run(rounds, (r, f) -> {
              StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-8s round %d:", name, r + 1));
              for (int k = 0; k < PHASES.length; k++) {
                line.append(String.format(Locale.ROOT, " %s direct %,.0f binding %,.0f;", PHASES[k],
                    f.get("direct")[k], f.get("binding")[k]));
              }
              out.println(line);
            });
        for (int k = 0; k < PHASES.length; k++) {
          double direct = Alternation.median(sides.get("direct"), k);
          double binding = Alternation.median(sides.get("binding"), k);
          summary.add(String.format(Locale.ROOT, "%-8s %-4s direct %,10.0f ops/s  binding %,10.0f ops/s"
              + "  binding/direct %.2f", name, PHASES[k], direct, binding, binding / direct));
        }
      }
      out.println("medians:");
      summary.forEach(line -> out.println("  " + line));
    }
    return 0;
  }

  /** Keys in random order and values made once, shared by both sides, and the gets' order. */
  static final class Workload extends LayerStep.Entries {
    final int[] readOrder = new int[keys.length];

    Workload(int n) {
      super(n, new Permutation(n, 1)::apply, new CompressibleValues(0.5, 3), 100);
      Permutation read = new Permutation(n, 2);
      Arrays.setAll(readOrder, i -> (int) read.apply(i));
    }
  }

  static double[] runDirect(BenchEngine e, Path dir, Workload w) throws Exception {
    Files.createDirectories(dir);
    try (LayerDirect d = e.openDirect(dir, properties(e, dir))) {
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

  /** The properties both sides open {@code e} with in {@code dir}. */
  private static Properties properties(BenchEngine e, Path dir) {
    Properties p = new Properties();
    p.setProperty("path", dir.toString());
    p.setProperty("fieldcount", "1"); // one field stored bare: the same 100 bytes as the direct side
    e.sideBySide(p);
    return p;
  }

  /** The binding side, opened with the direct side's properties. */
  static double[] runBinding(BenchEngine e, Path dir, Workload w) throws Exception {
    DB db = LayerStep.open(e.name(), properties(e, dir));
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
  static final class Counter implements KeyValueDB.ValueSink {
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
}
