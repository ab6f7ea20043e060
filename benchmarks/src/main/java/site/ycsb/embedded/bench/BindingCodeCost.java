package site.ycsb.embedded.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;

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
 * <p>The same shared read path over a stand-in engine that does chosen work is engine-work ({@link #engineWork}).
 * Both are questions of {@link Bench}: binding-cost [--ops N] [--rounds R], engine-work [--ops N] [--rounds R].
 */
public final class BindingCodeCost {

  private static final String TABLE = "usertable";
  private static final String FIELD = "field0";
  /** Untimed passes over every key before the first round. */
  static final int WARMUP_PASSES = 6;
  /** engine-work's stand-in engines, in the order of {@link WorkingEngineDB#kind}. */
  static final String[] KINDS = {"nothing", "memory", "pread"};
  private static final int SPACE = 1 << 30;
  private static final int TOUCH = 8192;
  private static final int PAGE = 4096;

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

  /**
   * engine-work's stand-in engine: its get does the chosen work ({@link #KINDS}), and times itself.
   * <ul>
   *   <li>{@code nothing};</li>
   *   <li>{@code memory}: reads 8 KB at a random place of a 1 GB buffer outside the heap (what a block-cache hit
   *   touches, no system call);</li>
   *   <li>{@code pread}: one {@code pread} of 4 KB at a random 4 KB-aligned place of a 1 GB file in the page cache
   *   (what a block-cache miss does: RocksDB made 1.7 preads per read at 2^22 records and 0.2-0.5 at 2^18).</li>
   * </ul>
   */
  static final class WorkingEngineDB extends NullEngineDB {
    private final ByteBuffer memory;
    private final FileChannel file;
    private final ByteBuffer page = ByteBuffer.allocateDirect(PAGE);
    private final SplittableRandom random = new SplittableRandom(42);
    int kind;
    long engineNanos;
    long sink;

    WorkingEngineDB(byte[] stored, ByteBuffer memory, FileChannel file) {
      super(stored);
      this.memory = memory;
      this.file = file;
    }

    @Override
    protected byte[] get(long[] db, byte[] key) {
      long t = System.nanoTime();
      byte[] v = super.get(db, key);
      if (kind == 1) {
        int at = random.nextInt(SPACE / TOUCH) * TOUCH;
        for (int i = 0; i < TOUCH; i += 64) {
          sink += memory.get(at + i);
        }
      } else if (kind == 2) {
        page.clear();
        try {
          sink += file.read(page, (long) random.nextInt(SPACE / PAGE) * PAGE);
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }
      engineNanos += System.nanoTime() - t;
      return v;
    }
  }

  /** binding-cost: the binding's shared insert and read over {@link NullEngineDB}, rounds of each in turn. */
  static int bindingCost(Bench.Options o, PrintStream out) throws Exception {
    int ops = o.integer("--ops");
    int rounds = o.integer("--rounds");
    try (Bench.WorkDir dir = o.dir("binding-code-cost")) {
      String[] keys = keys(ops);
      byte[][] values = new byte[ops][];
      for (int i = 0; i < ops; i++) {
        values[i] = new byte[100];
        values[i][i % 100] = (byte) i;
      }
      NullEngineDB db = open(dir.path(), values[0]);
      try {
        // Untimed: the JIT compiles the whole path first (three passes left the first two rounds 3-18x
        // slower), then the compiler's queue is waited out, as for layers (b) and (c).
        Map<String, double[][]> ns = new Alternation().untimed(WARMUP_PASSES).quietCompiler()
            .path("insert", r -> new double[] {timeInserts(db, keys, values) / ops})
            .path("read", r -> new double[] {timeReads(db, keys) / ops})
            .run(rounds, (r, f) -> out.printf(Locale.ROOT, "  round %d: insert %.1f ns, read %.1f ns per call%n", r + 1,
                f.get("insert")[0], f.get("read")[0]));
        out.printf(Locale.ROOT, "binding code over no engine (%s), %d calls, median of %d rounds: insert %.1f"
            + " ns, read %.1f ns per call%n", KeyValueDB.class.getName(), ops, rounds,
            Alternation.median(ns.get("insert"), 0), Alternation.median(ns.get("read"), 0));
      } finally {
        db.cleanup();
      }
    }
    return 0;
  }

  /**
   * engine-work: whether the binding's own time per read depends on what its ENGINE does, with the engine a
   * stand-in whose work is chosen ({@link WorkingEngineDB}): the control for the flat-cost benchmark, where RocksDB's
   * binding took longer per read outside its engine call at 2^22 records than at 2^18 while LMDB's did not. Each
   * read's whole call and its engine call are timed as flat-cost times them; the binding's own time is the whole
   * minus the engine call. The kinds alternate, each round starting at another; medians.
   */
  static int engineWork(Bench.Options o, PrintStream out) throws Exception {
    int ops = o.integer("--ops");
    int rounds = o.integer("--rounds");
    try (Bench.WorkDir dir = o.dir("engine-work-cost");
        FileChannel file = FileChannel.open(dir.path().resolve("pages"), StandardOpenOption.CREATE_NEW,
            StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer memory = ByteBuffer.allocateDirect(SPACE);
      ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
      for (long at = 0; at < SPACE; at += chunk.capacity()) {
        chunk.clear();
        file.write(chunk, at); // written through the page cache, where it stays: the reads are cached preads
      }
      String[] keys = keys(ops);
      WorkingEngineDB db = new WorkingEngineDB(new byte[1024], memory, file);
      Properties p = new Properties();
      p.setProperty("path", dir.path().resolve("db").toString());
      p.setProperty("fieldcount", "1");
      db.setProperties(p);
      db.init();
      try {
        Alternation kinds = new Alternation().untimed(WARMUP_PASSES).rotating();
        for (int k = 0; k < KINDS.length; k++) {
          int kind = k;
          kinds.path(KINDS[k], r -> {
            db.kind = kind;
            db.engineNanos = 0;
            double whole = timeReads(db, keys, 1024);
            return new double[] {db.engineNanos / (double) ops, (whole - db.engineNanos) / ops};
          });
        }
        Map<String, double[][]> ns = kinds.run(rounds, (r, f) -> out.printf(Locale.ROOT,
            "  round %d: own ns per read: nothing %.1f, memory %.1f, pread %.1f%n", r + 1, f.get("nothing")[1],
            f.get("memory")[1], f.get("pread")[1]));
        for (String kind : KINDS) {
          out.printf(Locale.ROOT, "engine-work kind=%s ops=%d rounds=%d engine_ns=%.1f own_ns=%.1f%n", kind, ops,
              rounds, Alternation.median(ns.get(kind), 0), Alternation.median(ns.get(kind), 1));
        }
        if (db.sink == 42) {
          out.print("");
        }
      } finally {
        db.cleanup();
      }
    }
    return 0;
  }

  /** 16-byte zero-padded decimal keys 0 to n - 1. */
  private static String[] keys(int n) {
    String[] keys = new String[n];
    KeyFormat format = KeyFormat.decimal(16);
    for (int i = 0; i < n; i++) {
      keys[i] = format.key(i);
    }
    return keys;
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
