package site.ycsb.embedded.bench;

import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
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
      BindingOverhead.alternate(engines, rounds, base, new BindingOverhead.Side("on",
          (e, dir) -> BindingOverhead.runBinding(e, dir, w, new Properties())),
          new BindingOverhead.Side("off", (e, dir) -> BindingOverhead.runBinding(e, dir, w, off)), "on/off");
    } finally {
      try (java.util.stream.Stream<Path> files = Files.walk(base)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }
}
