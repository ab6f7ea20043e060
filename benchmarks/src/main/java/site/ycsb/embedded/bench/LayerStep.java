package site.ycsb.embedded.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.LongUnaryOperator;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.embedded.HandedOverBytes;
import site.ycsb.embedded.Keys;
import site.ycsb.embedded.Warmup;
import site.ycsb.embedded.workload.FullScanSink;
import site.ycsb.embedded.workload.CompressibleValues;
import site.ycsb.embedded.workload.KeyFormat;
import site.ycsb.embedded.workload.SplitMix64;

/**
 * One step of the layered benchmark in its own JVM: layer (b), the engine's Java library, or layer (c), the YCSB
 * binding, called directly for one shape on a fresh database, with the shape's workload files as tuning and data
 * (benchmarks/README.md). Only the loop is timed, as in the C floor, after an untimed warm-up ({@link #warmUp}).
 * Prints one line: "layer engine=E shape=S layer=L count=N us_per_op=X library=...".
 *
 * <p>Usage: LayerStep ENGINE[:name=value...] SHAPE direct|binding COUNT EMPTY_DIR WORKLOADS_DIR
 */
public final class LayerStep {

  private static final String TABLE = "usertable";
  private static final String FIELD = "field0";
  /** Operations of the untimed JIT warm-up on a scratch database before the measured loop. */
  static final int WARMUP_OPERATIONS = 20_000;
  /** A warm-up pass that compiled at most this many ms (with its quiet wait) ends the warm-up. */
  static final long SETTLED_PASS_MILLIS = 10;
  /** The most warm-up passes. */
  static final int MAX_WARMUP_PASSES = 8;
  /** The longest wait for a quiet JIT. */
  static final long QUIET_LIMIT_MILLIS = 5_000;
  /** Operations whose YCSB arguments (field and result maps) are made untimed before their calls are timed. */
  static final int CHUNK = 1024;

  private LayerStep() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 6 || !(args[2].equals("direct") || args[2].equals("binding"))) {
      throw new IllegalArgumentException(
          "usage: LayerStep ENGINE[:name=value...] SHAPE direct|binding COUNT DIR WORKLOADS");
    }
    String engine = args[0].split(":")[0];
    LayerShape shape = LayerShape.named(args[1]);
    boolean direct = args[2].equals("direct");
    int count = Integer.parseInt(args[3]);
    Path dir = Path.of(args[4]);
    Properties props = shape.properties(Path.of(args[5]));
    props.setProperty("recordcount", Integer.toString(count));
    props.setProperty("path", dir.toString());
    extras(args[0]).forEach(props::setProperty);
    Files.createDirectories(dir);
    long seed = Long.parseLong(props.getProperty("loadseed", "20110727"));
    Data data = new Data(shape, count, seed); // before the warm-up: its compiling is then over when the clock starts
    // -Dlayers.warmup=false times the step cold, as a fresh JVM under YCSB's client runs (a diagnosis).
    int passes = Boolean.parseBoolean(System.getProperty("layers.warmup", "true"))
        ? warmUp(engine, shape, direct, dir, props, seed) : 0;
    double micros = direct ? runDirect(engine, shape, dir, props, data) : runBinding(engine, shape, props, data);
    String library = direct ? Engines.named(engine).libraryVersion(props)
        : Engines.named(engine).binding().getClass().getName();
    System.out.printf(Locale.ROOT,
        "layer engine=%s shape=%s layer=%s count=%d us_per_op=%.4f warmup_passes=%d library=%s%n",
        args[0], shape.id, args[2], count, micros / (shape == LayerShape.READSEQ ? data.distinct : count), passes,
        library);
  }

  /** Keys (16-byte decimal: bytes, and YCSB's Strings) and values, made once before the clock starts, in order. */
  static class Entries {
    private static final KeyFormat FORMAT = KeyFormat.decimal(16);
    final byte[][] keys;
    final String[] keyStrings;
    final byte[][] values;

    /** {@code n} entries, entry i with key number {@code keyNumber(i)}; no values when {@code gen} is null. */
    Entries(int n, LongUnaryOperator keyNumber, CompressibleValues gen, int valueLength) {
      keys = new byte[n][];
      keyStrings = new String[n];
      values = new byte[n][];
      for (int i = 0; i < n; i++) {
        keyStrings[i] = FORMAT.key(keyNumber.applyAsLong(i));
        keys[i] = Keys.UTF8.bytes(keyStrings[i]);
        values[i] = gen == null ? null : gen.next(valueLength);
      }
    }
  }

  /** A shape's fill in write order; the reads' keys, and what the reads and a full pass must find. */
  static final class Data extends Entries {
    /** readrandom's keys, in read order (none for other shapes). */
    final Entries reads;
    /** Distinct keys the fill leaves: what a full pass must count. */
    final int distinct;
    /** Reads whose key the fill wrote: what readrandom must find. */
    final int readsFound;

    Data(LayerShape shape, int n, long seed) {
      super(n, i -> shape.loadKey(seed, (int) i, n), new CompressibleValues(0.5, seed), shape.valueLength);
      BitSet loaded = shape.loadedKeys(seed, n);
      distinct = loaded.cardinality();
      reads = new Entries(shape == LayerShape.READRANDOM ? n : 0, i -> SplitMix64.draw(seed + 1, i, n), null, 0);
      int hits = 0;
      for (int i = 0; i < reads.keys.length; i++) {
        hits += loaded.get((int) SplitMix64.draw(seed + 1, i, n)) ? 1 : 0;
      }
      readsFound = hits;
    }
  }

  /** Microseconds of the measured loop on the Java library. */
  static double runDirect(String engine, LayerShape shape, Path dir, Properties props, Data d) throws Exception {
    BenchEngine library = Engines.named(engine);
    long t0;
    long t1;
    try (LayerDirect db = library.openDirect(dir, props)) {
      t0 = System.nanoTime();
      if (shape.batch > 1) {
        for (int i = 0; i < d.keys.length; i += shape.batch) {
          db.putBatch(d.keys, d.values, i, Math.min(shape.batch, d.keys.length - i));
        }
      } else {
        for (int i = 0; i < d.keys.length; i++) {
          db.put(d.keys[i], d.values[i]);
        }
      }
      t1 = System.nanoTime();
    }
    if (!shape.isRead()) {
      return (t1 - t0) / 1e3;
    }
    try (LayerDirect db = library.openDirect(dir, props)) {
      long found = 0;
      t0 = System.nanoTime();
      if (shape == LayerShape.READRANDOM) {
        for (byte[] k : d.reads.keys) {
          byte[] v = db.get(k);
          if (v != null && v.length == shape.valueLength) {
            found++;
          }
        }
      } else {
        found = db.scanAll();
      }
      t1 = System.nanoTime();
      long expected = shape == LayerShape.READRANDOM ? d.readsFound : d.distinct;
      check(found == expected, engine + " " + shape.id + " direct found " + found + ", expected " + expected);
    }
    return (t1 - t0) / 1e3;
  }

  /**
   * Microseconds of the binding's calls, as YCSB's client would make them. YCSB's workload class builds each call's
   * field map (insert) or result map (read) outside the time it measures, so each chunk of {@value #CHUNK} operations
   * gets its maps untimed first; the binding filling a result map is inside the clock.
   */
  static double runBinding(String engine, LayerShape shape, Properties props, Data d) throws Exception {
    int n = d.keys.length;
    List<Map<String, ByteIterator>> maps = new ArrayList<>(Collections.nCopies(CHUNK, null));
    Status[] statuses = new Status[CHUNK];
    long nanos = 0;
    props.setProperty("dotransactions", "false"); // the load phase: destroy=load starts empty
    DB db = open(engine, props);
    try {
      for (int from = 0; from < n; from += CHUNK) {
        int size = Math.min(CHUNK, n - from);
        for (int j = 0; j < size; j++) {
          Map<String, ByteIterator> values = new HashMap<>();
          values.put(FIELD, new HandedOverBytes(d.values[from + j])); // the value type EmbeddedWorkload passes
          maps.set(j, values);
        }
        long t0 = System.nanoTime();
        for (int j = 0; j < size; j++) {
          statuses[j] = db.insert(TABLE, d.keyStrings[from + j], maps.get(j));
        }
        nanos += System.nanoTime() - t0;
        for (int j = 0; j < size; j++) {
          Status s = statuses[j];
          check(s == Status.OK || s == Status.BATCHED_OK, engine + " insert returned " + s);
        }
      }
    } finally {
      db.cleanup();
    }
    if (!shape.isRead()) {
      return nanos / 1e3;
    }
    nanos = 0;
    props.setProperty("dotransactions", "true");
    db = open(engine, props);
    try {
      long found = 0;
      if (shape == LayerShape.READRANDOM) {
        for (int from = 0; from < n; from += CHUNK) {
          int size = Math.min(CHUNK, n - from);
          for (int j = 0; j < size; j++) {
            maps.set(j, new HashMap<>()); // a fresh map per read, as YCSB's workload class makes
          }
          long t0 = System.nanoTime();
          for (int j = 0; j < size; j++) {
            statuses[j] = db.read(TABLE, d.reads.keyStrings[from + j], null, maps.get(j));
          }
          nanos += System.nanoTime() - t0;
          for (int j = 0; j < size; j++) {
            if (statuses[j] == Status.OK && maps.get(j).get(FIELD).bytesLeft() == shape.valueLength) {
              found++;
            } else {
              check(statuses[j] == Status.NOT_FOUND, engine + " read returned " + statuses[j]);
            }
          }
        }
      } else {
        FullScanSink rows = new FullScanSink();
        long t0 = System.nanoTime();
        check(db.scan(TABLE, "", Integer.MAX_VALUE, null, rows) == Status.OK, engine + " scan failed");
        nanos = System.nanoTime() - t0;
        found = rows.rows();
      }
      long expected = shape == LayerShape.READRANDOM ? d.readsFound : d.distinct;
      check(found == expected, engine + " " + shape.id + " binding found " + found + ", expected " + expected);
    } finally {
      db.cleanup();
    }
    return nanos / 1e3;
  }

  /**
   * Runs the step's own loop on min(count, {@value #WARMUP_OPERATIONS}) operations of a scratch database beside
   * {@code dir} (deleted after each pass), waits for the JIT to go quiet, and repeats until a pass and its wait
   * compiled at most {@value #SETTLED_PASS_MILLIS} ms (at most {@value #MAX_WARMUP_PASSES} passes): the binding's
   * longer path needs four to six passes before its measured loop compiles nothing, the direct loop two.
   *
   * @return the passes run
   */
  static int warmUp(String engine, LayerShape shape, boolean direct, Path dir, Properties props, long seed)
      throws Exception {
    int n = Math.min(Integer.parseInt(props.getProperty("recordcount")), WARMUP_OPERATIONS);
    Path scratch = dir.resolveSibling(dir.getFileName() + "-warmup");
    Properties p = new Properties();
    p.putAll(props);
    p.setProperty("recordcount", Integer.toString(n));
    p.setProperty("path", scratch.toString());
    Data data = new Data(shape, n, seed);
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
    for (int pass = 1; ; pass++) {
      long before = timed ? jit.getTotalCompilationTime() : 0;
      Files.createDirectories(scratch);
      try {
        if (direct) {
          runDirect(engine, shape, scratch, p, data);
        } else {
          runBinding(engine, shape, p, data);
        }
      } finally {
        Layers.deleteTree(scratch);
      }
      // The optimising compiler works through the queued compilations for up to half a second after a pass:
      // timed then, the loop would share the two cores with it, and (c)'s longer path queues more than (b)'s.
      if (timed) {
        Warmup.awaitQuietCompiler(jit, QUIET_LIMIT_MILLIS);
      }
      if (!timed || pass == MAX_WARMUP_PASSES || jit.getTotalCompilationTime() - before <= SETTLED_PASS_MILLIS) {
        return pass;
      }
    }
  }

  static DB open(String engine, Properties props) throws Exception {
    DB db = Engines.named(engine).binding();
    db.setProperties((Properties) props.clone());
    db.init();
    return db;
  }

  /** Stops the step with {@code message} unless {@code ok}: a wrong count is a failed step, not a figure. */
  static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalStateException(message);
    }
  }

  /** The binding properties of an engine spec "engine:name=value:name=value" (a variant's row). */
  static Map<String, String> extras(String spec) {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    String[] parts = spec.split(":");
    for (int i = 1; i < parts.length; i++) {
      String[] kv = parts[i].split("=", 2);
      m.put(kv[0], kv.length > 1 ? kv[1] : "");
    }
    return m;
  }
}
