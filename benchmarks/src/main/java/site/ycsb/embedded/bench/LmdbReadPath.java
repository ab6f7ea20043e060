package site.ycsb.embedded.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;

import org.lmdbjava.ByteBufferProxy;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.Txn;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.lmdb.LmdbHandle;
import site.ycsb.embedded.lmdb.LmdbOptions;

/**
 * LMDB's warm point read in one JVM (issue 31, item 5): what a read costs beyond the C library, path by path,
 * the paths alternating in every round on the same keys, after untimed rounds that let the JIT compile them.
 *
 * <ul>
 *   <li>{@code operation}: {@link LmdbHandle#get} with lmdb.readsnapshot=operation, the read transaction renewed
 *       and reset around each get (two more JNR-FFI calls), keys and values through the binding's
 *       {@code HeldBytesProxy} (the key copied into native memory, the value into a new array);</li>
 *   <li>{@code client}: the same call with lmdb.readsnapshot=client, the snapshot kept between reads;</li>
 *   <li>{@code bytebuffer-copy}: lmdbjava's own {@code ByteBufferProxy} on a kept transaction, the key put into a
 *       direct buffer, the value copied out of the map into a new array (what the binding's codec needs);</li>
 *   <li>{@code bytebuffer-view}: the same, the value left in the map (a view read in place: the least any
 *       proxy can do).</li>
 * </ul>
 *
 * <p>Each path reads its own environment of the same records (one environment per directory per JVM), all
 * loaded before the first round; 16-byte zero-padded decimal keys as db_bench's and 100-byte values, every
 * read a hit. Per path and round: nanoseconds per read on the thread's CPU clock (the time the loop ran, not
 * the time it waited for one of the shared machine's cores) and on the wall clock; then the CPU clock's
 * medians. lmdbjava's ByteBuffer proxy needs {@code --add-opens java.base/java.nio=ALL-UNNAMED
 * --add-exports java.base/sun.nio.ch=ALL-UNNAMED} (run.sh passes them).
 *
 * <p>The question lmdb-read of {@link Bench} [--records 200000] [--reads 2000000] [--rounds 3] [--dir D]; the paths
 * alternate through {@link Alternation}.
 */
public final class LmdbReadPath {

  private LmdbReadPath() {
  }

  /** One way of reading a key, returning something of the value so the JIT keeps the read. */
  private interface ReadPath {
    long read(byte[] key);
  }

  /** lmdb-read: a line per path and round, then the CPU clock's medians. */
  static int run(Bench.Options o, PrintStream out) throws Exception {
    try (Bench.WorkDir dir = o.dir("lmdb-read-path")) {
      Map<String, List<Double>> cpu = measure(dir.path(), o.integer("--records"), o.integer("--reads"),
          o.integer("--rounds"), out);
      for (Map.Entry<String, List<Double>> e : cpu.entrySet()) {
        out.printf(Locale.ROOT, "median path=%s cpu_ns_per_read=%.1f%n", e.getKey(),
            Alternation.median(e.getValue()));
      }
    }
    return 0;
  }

  /**
   * Loads {@code records} records into one environment per path under {@code top}, then times {@code rounds}
   * rounds of {@code reads} reads per path (after two untimed rounds); returns each path's nanoseconds per read
   * on the thread's CPU clock, round by round. A line per path and round on {@code out} unless it is null.
   */
  static Map<String, List<Double>> measure(Path top, int records, int reads, int rounds, PrintStream out)
      throws Exception {
    byte[][] keys = new byte[records][];
    byte[][] values = new byte[records][];
    SplittableRandom random = new SplittableRandom(20110727);
    for (int i = 0; i < records; i++) {
      keys[i] = String.format(Locale.ROOT, "%016d", i).getBytes(StandardCharsets.US_ASCII);
      values[i] = new byte[100];
      for (int j = 0; j < 100; j++) {
        values[i][j] = (byte) ('a' + random.nextInt(26));
      }
    }
    byte[][] order = new byte[reads][];
    for (int i = 0; i < reads; i++) {
      order[i] = keys[random.nextInt(records)];
    }

    LmdbHandle operation = open(top.resolve("operation"), "operation");
    LmdbHandle client = open(top.resolve("client"), "client");
    Path bbDir = Files.createDirectories(top.resolve("bytebuffer"));
    Env<ByteBuffer> bbEnv = Env.create(ByteBufferProxy.PROXY_OPTIMAL).setMapSize(LmdbOptions.MAP_SIZE_DEFAULT)
        .setMaxDbs(1).open(bbDir.toFile(), EnvFlags.MDB_NOTLS, EnvFlags.MDB_NOSYNC);
    try {
      Dbi<ByteBuffer> bbDbi = bbEnv.openDbi((byte[]) null, DbiFlags.MDB_CREATE);
      for (int from = 0; from < records; from += 1000) {
        int n = Math.min(1000, records - from);
        byte[][] k = Arrays.copyOfRange(keys, from, from + n);
        byte[][] v = Arrays.copyOfRange(values, from, from + n);
        operation.putAll(k, v, n);
        client.putAll(k, v, n);
        try (Txn<ByteBuffer> txn = bbEnv.txnWrite()) {
          for (int i = 0; i < n; i++) {
            bbDbi.put(txn, direct(k[i]), direct(v[i]));
          }
          txn.commit();
        }
      }
      LmdbHandle.Reader opReader = operation.reader();
      LmdbHandle.Reader clientReader = client.reader();
      Txn<ByteBuffer> bbTxn = bbEnv.txnRead();
      ByteBuffer keyBuf = ByteBuffer.allocateDirect(511);
      Map<String, ReadPath> paths = new LinkedHashMap<>();
      paths.put("operation", k -> operation.get(opReader, k).length);
      paths.put("client", k -> client.get(clientReader, k).length);
      paths.put("bytebuffer-copy", k -> {
        keyBuf.clear();
        keyBuf.put(k).flip();
        ByteBuffer v = bbDbi.get(bbTxn, keyBuf);
        byte[] copy = new byte[v.remaining()];
        v.get(copy);
        return copy.length;
      });
      paths.put("bytebuffer-view", k -> {
        keyBuf.clear();
        keyBuf.put(k).flip();
        ByteBuffer v = bbDbi.get(bbTxn, keyBuf);
        return v.remaining() + v.get(v.position());
      });

      if (out != null) {
        out.printf(Locale.ROOT, "lmdb-read-path records=%d reads=%d rounds=%d (%s, %s)%n", records, reads, rounds,
            LmdbHandle.libraryVersion(), Runtime.version());
      }
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      // two untimed rounds first: the JIT compiles every path; each round starts at another path
      Alternation alternation = new Alternation().untimed(2).rotating();
      paths.forEach((name, path) -> alternation.path(name, round -> {
        long sum = 0;
        long c0 = threads.getCurrentThreadCpuTime();
        long w0 = System.nanoTime();
        for (byte[] k : order) {
          sum += path.read(k);
        }
        double wallNs = (System.nanoTime() - w0) / (double) reads;
        double cpuNs = (threads.getCurrentThreadCpuTime() - c0) / (double) reads;
        if (sum < 100L * reads) {
          throw new IllegalStateException(name + " read back " + sum + " value bytes, fewer than every key's");
        }
        return new double[] {cpuNs, wallNs};
      }));
      Map<String, double[][]> figures = alternation.run(rounds, (round, f) -> f.forEach((name, ns) -> {
        if (out != null) {
          out.printf(Locale.ROOT, "round=%d path=%s cpu_ns_per_read=%.1f wall_ns_per_read=%.1f%n", round, name, ns[0],
              ns[1]);
        }
      }));
      bbTxn.close();
      operation.release(opReader);
      client.release(clientReader);
      Map<String, List<Double>> cpu = new LinkedHashMap<>(); // the paths as the class comment lists them
      figures.forEach((name, rows) -> cpu.put(name, Arrays.stream(Alternation.column(rows, 0)).boxed().toList()));
      return cpu;
    } finally {
      operation.close();
      client.close();
      bbEnv.close();
    }
  }

  private static LmdbHandle open(Path dir, String snapshot) throws IOException {
    Properties p = new Properties();
    p.setProperty(LmdbOptions.READ_SNAPSHOT, snapshot);
    return LmdbHandle.open(LmdbOptions.read(new EngineProperties(p, "lmdb")), Files.createDirectories(dir));
  }

  private static ByteBuffer direct(byte[] bytes) {
    ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
    b.put(bytes).flip();
    return b;
  }
}
