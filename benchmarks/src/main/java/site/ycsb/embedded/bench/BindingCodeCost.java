package site.ycsb.embedded.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.HandedOverBytes;
import site.ycsb.embedded.KeyValueDB;
import site.ycsb.embedded.workload.KeyFormat;

/**
 * What the binding's own Java code costs per call with the engine taken out: the shared path every
 * binding runs ({@link KeyValueDB}'s insert and read: the key's encoding, the record codec, the
 * free-space count, the write group, the status) over primitives that do nothing. No engine runs, so
 * nothing of an engine's background work, caches or I/O moves the figure, which is why it can
 * resolve the few tens of nanoseconds that layers (b) and (c), each a fresh JVM on a real engine, cannot.
 * It leaves out each binding's one-line primitive (the call into its library), which (b) makes too.
 *
 * <p>Each round times {@code ops} inserts (16-byte keys, 100-byte values handed over as
 * {@code EmbeddedWorkload} does), then as many reads, in one JVM after a warm-up, with YCSB's per-call
 * maps made before the clock, as {@link LayerStep} does for layer (c).
 *
 * <p>Usage: BindingCodeCost [--ops N] [--rounds R]
 */
public final class BindingCodeCost {

  private static final String TABLE = "usertable";
  private static final String FIELD = "field0";
  /** Untimed passes over every key before the first round. */
  static final int WARMUP_PASSES = 6;

  private BindingCodeCost() {
  }

  /** A binding whose engine does nothing: put and remove keep only a byte count, get hands back one record. */
  static class NullEngineDB extends KeyValueDB<long[]> {
    private final byte[] stored;

    NullEngineDB(byte[] stored) {
      this.stored = stored;
    }

    @Override
    protected String engineName() {
      return "nullengine";
    }

    @Override
    protected EngineOpener<long[]> configure(EngineProperties props, Path dir) {
      return new EngineOpener<>() {
        @Override
        public long[] open() {
          return new long[1];
        }

        @Override
        public void close(long[] handle) {
        }

        @Override
        public String describe(long[] handle) {
          return "no engine: the binding's own code only";
        }
      };
    }

    @Override
    protected byte[] get(long[] db, byte[] key) {
      db[0] += key.length;
      return stored;
    }

    @Override
    protected void put(long[] db, byte[] key, byte[] value) {
      db[0] += key.length + value.length;
    }

    @Override
    protected boolean remove(long[] db, byte[] key) {
      db[0] += key.length;
      return true;
    }

    @Override
    protected void scan(long[] db, byte[] start, int count, ValueSink sink) {
    }

    @Override
    protected void applyBatch(long[] db, byte[][] keys, byte[][] values, int count) {
      db[0] += count;
    }

    /** The bytes the primitives were handed: what a check that the calls happened reads. */
    long bytesSeen() {
      return handle()[0];
    }
  }

  /** {ops, rounds} from {@code [--ops N] [--rounds R]}, the defaults where not given. */
  static int[] opsAndRounds(String[] args, int ops, int rounds) {
    int[] chosen = {ops, rounds};
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--ops" -> chosen[0] = Integer.parseInt(args[++i]);
        case "--rounds" -> chosen[1] = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + "; usage: [--ops N] [--rounds R]");
      }
    }
    return chosen;
  }

  public static void main(String[] args) throws Exception {
    int[] chosen = opsAndRounds(args, 1_000_000, 5);
    int ops = chosen[0];
    int rounds = chosen[1];
    Path dir = Files.createTempDirectory("binding-code-cost");
    try {
      String[] keys = new String[ops];
      byte[][] values = new byte[ops][];
      KeyFormat format = KeyFormat.decimal(16);
      for (int i = 0; i < ops; i++) {
        keys[i] = format.key(i);
        values[i] = new byte[100];
        values[i][i % 100] = (byte) i;
      }
      NullEngineDB db = open(dir, values[0]);
      try {
        // Untimed: the JIT compiles the whole path first (three passes left the first two rounds 3-18x
        // slower), then the compiler's queue is waited out, as for layers (b) and (c).
        for (int pass = 0; pass < WARMUP_PASSES; pass++) {
          timeInserts(db, keys, values);
          timeReads(db, keys);
        }
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        LayerStep.awaitQuietCompiler(jit, jit != null && jit.isCompilationTimeMonitoringSupported());
        double[] inserts = new double[rounds];
        double[] reads = new double[rounds];
        for (int r = 0; r < rounds; r++) {
          inserts[r] = timeInserts(db, keys, values) / ops;
          reads[r] = timeReads(db, keys) / ops;
          System.out.printf(Locale.ROOT, "  round %d: insert %.1f ns, read %.1f ns per call%n", r + 1, inserts[r],
              reads[r]);
        }
        System.out.printf(Locale.ROOT, "binding code over no engine (%s), %d calls, median of %d rounds: insert %.1f"
            + " ns, read %.1f ns per call%n", KeyValueDB.class.getName(), ops, rounds, BindingOverhead.median(inserts),
            BindingOverhead.median(reads));
      } finally {
        db.cleanup();
      }
    } finally {
      Layers.deleteTree(dir);
    }
  }

  static NullEngineDB open(Path dir, byte[] stored) throws DBException {
    Properties p = new Properties();
    p.setProperty("path", dir.toString());
    p.setProperty("fieldcount", "1"); // the bare layout: one 100-byte field stored as it is, as the 2011 shapes
    NullEngineDB db = new NullEngineDB(stored);
    db.setProperties(p);
    db.init();
    return db;
  }

  /** Nanoseconds of the inserts' calls; the maps are made per chunk before the clock. */
  static double timeInserts(DB db, String[] keys, byte[][] values) {
    List<Map<String, ByteIterator>> maps = new ArrayList<>(LayerStep.CHUNK);
    long nanos = 0;
    for (int from = 0; from < keys.length; from += LayerStep.CHUNK) {
      int size = Math.min(LayerStep.CHUNK, keys.length - from);
      maps.clear();
      for (int j = 0; j < size; j++) {
        Map<String, ByteIterator> m = new HashMap<>();
        m.put(FIELD, new HandedOverBytes(values[from + j]));
        maps.add(m);
      }
      long t0 = System.nanoTime();
      for (int j = 0; j < size; j++) {
        check(db.insert(TABLE, keys[from + j], maps.get(j)) == Status.OK, "insert");
      }
      nanos += System.nanoTime() - t0;
    }
    return nanos;
  }

  /** Nanoseconds of the reads' calls, each into a fresh result map made before the clock. */
  static double timeReads(DB db, String[] keys) {
    return timeReads(db, keys, 100);
  }

  /** As {@link #timeReads(DB, String[])}, each read handing back {@code length} stored bytes. */
  static double timeReads(DB db, String[] keys, int length) {
    List<Map<String, ByteIterator>> maps = new ArrayList<>(LayerStep.CHUNK);
    long nanos = 0;
    long found = 0;
    for (int from = 0; from < keys.length; from += LayerStep.CHUNK) {
      int size = Math.min(LayerStep.CHUNK, keys.length - from);
      maps.clear();
      for (int j = 0; j < size; j++) {
        maps.add(new HashMap<>());
      }
      long t0 = System.nanoTime();
      for (int j = 0; j < size; j++) {
        check(db.read(TABLE, keys[from + j], null, maps.get(j)) == Status.OK, "read");
      }
      nanos += System.nanoTime() - t0;
      for (Map<String, ByteIterator> m : maps) {
        found += m.get(FIELD).bytesLeft();
      }
    }
    check(found == (long) length * keys.length, "every read hands back the stored bytes");
    return nanos;
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException(what + " failed");
    }
  }
}
