package site.ycsb.embedded.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.Keys;
import site.ycsb.embedded.workload.FullScanSink;
import site.ycsb.embedded.workload.CompressibleValues;
import site.ycsb.embedded.workload.KeyFormat;
import site.ycsb.embedded.workload.Permutation;

/**
 * One step of the layered benchmark in its own JVM: layer (b), the engine's Java library called
 * directly, or layer (c), the YCSB binding called directly (no YCSB client), for one shape on a
 * fresh database, with the shape's workload files as tuning. Prints one line:
 * "layer engine=E shape=S layer=L count=N us_per_op=X library=...".
 *
 * <p>Usage: LayerStep ENGINE[:name=value...] SHAPE direct|binding COUNT EMPTY_DIR WORKLOADS_DIR
 *
 * <p>Data: the workload class's own generators (16-byte decimal keys, CompressibleValues at 0.5,
 * the load permutation with {@code loadseed}); reads visit every key once in a second permutation.
 * Read shapes fill (untimed), close, reopen, then time, like a YCSB load then run. Only the loop
 * is timed, as in the C floor.
 */
public final class LayerStep {

  private static final String TABLE = "usertable";
  private static final String FIELD = "field0";

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
    Data data = new Data(shape, count, Long.parseLong(props.getProperty("loadseed", "20110727")));
    double micros = direct ? runDirect(engine, shape, dir, props, data) : runBinding(engine, shape, props, data);
    String library = direct ? LayerEngines.libraryVersion(engine)
        : Engines.named(engine).newClient().getClass().getName();
    System.out.printf(Locale.ROOT, "layer engine=%s shape=%s layer=%s count=%d us_per_op=%.4f library=%s%n",
        args[0], shape.id, args[2], count, micros / count, library);
  }

  /** Keys and values made once before the clock starts, in write order. */
  static final class Data {
    final byte[][] keys;
    final String[] keyStrings;
    final byte[][] values;
    final int[] readOrder;

    Data(LayerShape shape, int n, long seed) {
      KeyFormat format = KeyFormat.decimal(16);
      Permutation load = new Permutation(n, seed);
      Permutation read = new Permutation(n, seed + 1);
      CompressibleValues gen = new CompressibleValues(0.5, seed);
      keys = new byte[n][];
      keyStrings = new String[n];
      values = new byte[n][];
      readOrder = new int[n];
      for (int i = 0; i < n; i++) {
        keyStrings[i] = format.key(shape.randomOrder ? load.apply(i) : i);
        keys[i] = Keys.UTF8.bytes(keyStrings[i]);
        values[i] = gen.next(shape.valueLength);
        readOrder[i] = (int) read.apply(i);
      }
    }
  }

  /** Microseconds of the measured loop on the Java library. */
  static double runDirect(String engine, LayerShape shape, Path dir, Properties props, Data d) throws Exception {
    EngineProperties tuning = new EngineProperties(props, engine);
    long t0;
    long t1;
    try (LayerDirect db = LayerEngines.open(engine, dir, tuning)) {
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
    try (LayerDirect db = LayerEngines.open(engine, dir, tuning)) {
      long found = 0;
      t0 = System.nanoTime();
      if (shape == LayerShape.READRANDOM) {
        for (int i : d.readOrder) {
          byte[] v = db.get(d.keys[i]);
          if (v != null && v.length == shape.valueLength) {
            found++;
          }
        }
      } else {
        found = db.scanAll();
      }
      t1 = System.nanoTime();
      check(found == d.keys.length, engine + " " + shape.id + " direct found " + found + " of " + d.keys.length);
    }
    return (t1 - t0) / 1e3;
  }

  /** Microseconds of the measured loop through the binding, as YCSB's client would call it. */
  static double runBinding(String engine, LayerShape shape, Properties props, Data d) throws Exception {
    props.setProperty("dotransactions", "false"); // the load phase: destroy=load starts empty
    DB db = open(engine, props);
    long t0;
    long t1;
    try {
      t0 = System.nanoTime();
      for (int i = 0; i < d.keys.length; i++) {
        HashMap<String, ByteIterator> values = new HashMap<>();
        values.put(FIELD, new ByteArrayByteIterator(d.values[i]));
        Status s = db.insert(TABLE, d.keyStrings[i], values);
        check(s == Status.OK || s == Status.BATCHED_OK, engine + " insert returned " + s);
      }
      t1 = System.nanoTime();
    } finally {
      db.cleanup();
    }
    if (!shape.isRead()) {
      return (t1 - t0) / 1e3;
    }
    props.setProperty("dotransactions", "true");
    db = open(engine, props);
    try {
      long found = 0;
      t0 = System.nanoTime();
      if (shape == LayerShape.READRANDOM) {
        HashMap<String, ByteIterator> result = new HashMap<>();
        for (int i : d.readOrder) {
          result.clear();
          if (db.read(TABLE, d.keyStrings[i], null, result) == Status.OK
              && result.get(FIELD).bytesLeft() == shape.valueLength) {
            found++;
          }
        }
      } else {
        FullScanSink rows = new FullScanSink();
        check(db.scan(TABLE, "", Integer.MAX_VALUE, null, rows) == Status.OK, engine + " scan failed");
        found = rows.rows();
      }
      t1 = System.nanoTime();
      check(found == d.keys.length, engine + " " + shape.id + " binding found " + found + " of " + d.keys.length);
    } finally {
      db.cleanup();
    }
    return (t1 - t0) / 1e3;
  }

  private static DB open(String engine, Properties props) throws Exception {
    DB db = Engines.named(engine).newClient();
    Properties copy = new Properties();
    copy.putAll(props);
    db.setProperties(copy);
    db.init();
    return db;
  }

  private static void check(boolean ok, String message) {
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
