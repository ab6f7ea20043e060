package site.ycsb.embedded.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.SplittableRandom;

import site.ycsb.embedded.workload.KeyFormat;

/**
 * Whether the binding's own time per read depends on what its ENGINE does, with the engine a stand-in whose work is
 * chosen: the control for the flat-cost benchmark, where RocksDB's binding took longer per read outside its engine
 * call at 2^22 records than at 2^18 while LMDB's did not. One JVM, the binding's shared read path
 * ({@link BindingCodeCost.NullEngineDB}: key encoding, record codec, result map, status) over a get that does one of:
 * <ul>
 *   <li>{@code nothing};</li>
 *   <li>{@code memory}: reads 8 KB at a random place of a 1 GB buffer outside the heap (what a block-cache hit
 *   touches, no system call);</li>
 *   <li>{@code pread}: one {@code pread} of 4 KB at a random 4 KB-aligned place of a 1 GB file in the page cache
 *   (what a block-cache miss does: RocksDB made 1.7 preads per read at 2^22 records and 0.2-0.5 at 2^18).</li>
 * </ul>
 * Each read's whole call and its engine call are timed as {@link FlatCost} times them ({@link EngineCalls}' clock
 * reads); the binding's own time is the whole minus the engine call. Rounds alternate the kinds; medians.
 *
 * <p>Usage: EngineWorkCost [--ops N] [--rounds R]
 */
public final class EngineWorkCost {

  static final String[] KINDS = {"nothing", "memory", "pread"};
  private static final int SPACE = 1 << 30;
  private static final int TOUCH = 8192;
  private static final int PAGE = 4096;

  private EngineWorkCost() {
  }

  /** The stand-in engine: its get does the chosen work, and times itself. */
  static final class WorkingEngineDB extends BindingCodeCost.NullEngineDB {
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

  public static void main(String[] args) throws Exception {
    int[] chosen = BindingCodeCost.opsAndRounds(args, 300_000, 5);
    int ops = chosen[0];
    int rounds = chosen[1];
    Path dir = Files.createTempDirectory("engine-work-cost");
    Path data = dir.resolve("pages");
    try (FileChannel file = FileChannel.open(data, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      ByteBuffer memory = ByteBuffer.allocateDirect(SPACE);
      ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
      for (long at = 0; at < SPACE; at += chunk.capacity()) {
        chunk.clear();
        file.write(chunk, at); // written through the page cache, where it stays: the reads are cached preads
      }
      String[] keys = new String[ops];
      KeyFormat format = KeyFormat.decimal(16);
      for (int i = 0; i < ops; i++) {
        keys[i] = format.key(i);
      }
      WorkingEngineDB db = new WorkingEngineDB(new byte[1024], memory, file);
      java.util.Properties p = new java.util.Properties();
      p.setProperty("path", dir.resolve("db").toString());
      p.setProperty("fieldcount", "1");
      db.setProperties(p);
      db.init();
      try {
        double[][] own = new double[KINDS.length][rounds];
        double[][] engine = new double[KINDS.length][rounds];
        for (int pass = 0; pass < BindingCodeCost.WARMUP_PASSES; pass++) {
          for (int k = 0; k < KINDS.length; k++) {
            db.kind = k;
            BindingCodeCost.timeReads(db, keys, 1024);
          }
        }
        for (int r = 0; r < rounds; r++) {
          for (int j = 0; j < KINDS.length; j++) {
            int k = (j + r) % KINDS.length; // each kind goes first in turn
            db.kind = k;
            db.engineNanos = 0;
            double whole = BindingCodeCost.timeReads(db, keys, 1024);
            engine[k][r] = db.engineNanos / (double) ops;
            own[k][r] = (whole - db.engineNanos) / ops;
          }
          System.out.printf(Locale.ROOT, "  round %d: own ns per read: nothing %.1f, memory %.1f, pread %.1f%n", r + 1,
              own[0][r], own[1][r], own[2][r]);
        }
        for (int k = 0; k < KINDS.length; k++) {
          System.out.printf(Locale.ROOT, "engine-work kind=%s ops=%d rounds=%d engine_ns=%.1f own_ns=%.1f%n", KINDS[k],
              ops, rounds, BindingOverhead.median(engine[k]), BindingOverhead.median(own[k]));
        }
        if (db.sink == 42) {
          System.out.print("");
        }
      } finally {
        db.cleanup();
      }
    } finally {
      Layers.deleteTree(dir);
    }
  }
}
