package site.ycsb.embedded.bench;

import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

import site.ycsb.embedded.DiskSpaceGuard;
import site.ycsb.embedded.KeyValueDB;

/**
 * What the free-space check costs: one statvfs, the guard's amortised cost per write, and the
 * binding's puts, gets and ordered pass with the check on (the engine's margin) and off
 * ({@code diskspacemargin=0}), alternating rounds in one JVM, each on a fresh database.
 *
 * <p>Usage: DiskGuardCost [--engines leveldb,kyoto] [--ops N] [--rounds R]
 */
public final class DiskGuardCost {

  private DiskGuardCost() {
  }

  public static void main(String[] args) throws Exception {
    List<String> engines = List.of("leveldb", "rocksdb", "sqlite", "kyoto");
    int ops = 200_000;
    int rounds = 3;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--engines" -> engines = Arrays.asList(args[++i].split(","));
        case "--ops" -> ops = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    Path base = Files.createTempDirectory("disk-guard-cost");
    try {
      FileStore store = Files.getFileStore(base);
      int calls = 200_000;
      long sink = 0;
      long t0 = System.nanoTime();
      for (int i = 0; i < calls; i++) {
        sink += store.getUsableSpace();
      }
      double statvfsNs = (System.nanoTime() - t0) / (double) calls;
      DiskSpaceGuard guard = DiskSpaceGuard.of(base, 1L << 20, 0);
      DiskSpaceGuard.Counter counter = guard.counter(); // what a client's writes go through
      long writes = 20_000_000;
      t0 = System.nanoTime();
      for (long i = 0; i < writes; i++) {
        counter.beforeWrite(116); // a 16-byte key and a 100-byte value
      }
      double perWriteNs = (System.nanoTime() - t0) / (double) writes;
      System.out.printf(Locale.ROOT, "one free-space look (FileStore.getUsableSpace, statvfs): %.0f ns (%d)%n"
          + "guard per 116-byte write through a client's counter, amortised (a look per %d bytes): %.1f ns%n",
          statvfsNs, sink & 1, DiskSpaceGuard.CHECK_EVERY_BYTES, perWriteNs);

      BindingOverhead.Workload w = new BindingOverhead.Workload(ops);
      Properties off = new Properties();
      off.setProperty(KeyValueDB.DISK_SPACE_MARGIN, "0");
      System.out.printf(Locale.ROOT, "binding with the check on (engine's margin) and off (diskspacemargin=0): %d puts,"
          + " gets, one ordered pass; %d rounds alternating%n", ops, rounds);
      List<String> summary = new ArrayList<>();
      for (String name : engines) {
        BindingOverhead.Engine e = Engines.named(name);
        double[][] on = new double[3][rounds];
        double[][] without = new double[3][rounds];
        for (int r = 0; r < rounds; r++) {
          double[] a = BindingOverhead.runBinding(e, base.resolve(name + "-on-" + r), w, new Properties());
          double[] b = BindingOverhead.runBinding(e, base.resolve(name + "-off-" + r), w, off);
          for (int k = 0; k < 3; k++) {
            on[k][r] = a[k];
            without[k][r] = b[k];
          }
          System.out.printf(Locale.ROOT, "  %-8s round %d: put on %,.0f off %,.0f; get on %,.0f off %,.0f%n",
              name, r + 1, a[0], b[0], a[1], b[1]);
        }
        String[] phases = {"put", "get", "scan"};
        for (int k = 0; k < 3; k++) {
          double m1 = BindingOverhead.median(on[k]);
          double m0 = BindingOverhead.median(without[k]);
          summary.add(String.format(Locale.ROOT, "%-8s %-4s on %,10.0f ops/s  off %,10.0f ops/s  on/off %.2f",
              name, phases[k], m1, m0, m1 / m0));
        }
      }
      System.out.println("medians:");
      summary.forEach(s -> System.out.println("  " + s));
    } finally {
      try (java.util.stream.Stream<Path> files = Files.walk(base)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }
}
