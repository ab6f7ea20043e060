package site.ycsb.embedded.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import site.ycsb.embedded.NanoTimedDB;

/**
 * The binding's own cost per operation as the data grows (issue 21, item 6): per engine and data size N,
 * N records of the scale group's shape ({@code scale/base}: 16-byte decimal keys, one 1 KB value, the
 * engines' tuning for a 1 GB budget) loaded ONCE in random order through the binding in batches of
 * {@value #LOAD_BATCH}, then rounds of point reads ({@code scale/read-uniform}) on that same data through YCSB's
 * client around the binding with its engine calls timed ({@link EngineCalls}), each round a fresh JVM at -Xmx256m.
 * Per read: the whole read inside the client ({@link NanoTimedDB}), the engine call inside it, and their
 * difference, the binding's own work, taken in one JVM on the same reads. Its ratio between the largest and the
 * smallest N says whether the binding's cost stays flat while the engine's own cost grows. Each round also runs
 * {@link LibraryDB} (layer (d0), the thinnest DB) with its library get timed the same way: its own work (the key's
 * bytes, the result map) shows what any DB pays outside the engine call at that N, and the binding's own work
 * over it is what the binding adds. No memory budget: the
 * data stays in the page cache, since the point is the binding's cost, not the disk's.
 *
 * <p>This replaced (d)-(d0), the difference of a JVM around the binding and one around {@link LibraryDB}: from
 * one pair of JVMs to the next that moved by ±0.9 us per read, against a binding cost of tens of nanoseconds.
 *
 * <p>Usage: FlatCost [--engines rocksdb,lmdb] [--records 262144,4194304] [--rounds 3] [--ops 300000]
 * [--dir D] [--workloads DIR]. An engine may carry binding properties ({@code leveldb:leveldb.library=system}
 * also stacks {@code scale/leveldb-system}).
 */
public final class FlatCost {

  /** One LSM tree and one B-tree: the fastest of each to load, so that 2^22 records fit the run's minutes. */
  static final List<String> DEFAULT_ENGINES = List.of("rocksdb", "lmdb");
  /** The scale group's smallest and largest data sizes (analysis/scenarios.py SCALE_RECORDS). */
  static final List<Integer> DEFAULT_RECORDS = List.of(1 << 18, 1 << 22);
  static final int DEFAULT_ROUNDS = 3;
  /** Point reads per step: the same at every N, so the JIT's share per read is the same too. */
  static final int DEFAULT_OPS = 300_000;
  /** Inserts per atomic batch of the load (the binding's batchsize). */
  static final int LOAD_BATCH = 1000;
  /** Every JVM, whatever N (the scale group's SCALE_HEAP). */
  static final String HEAP = "256m";
  /** A result within this share of the smallest N's counts as flat. */
  static final double FLAT = 0.10;
  /** Kyoto TreeDB: one hash bucket per 8 records, as the scale group's load sets it (KYOTO_RECORDS_PER_BUCKET). */
  static final int KYOTO_RECORDS_PER_BUCKET = 8;

  private final Path workloads;
  private final Path base;
  private final int rounds;
  private final int ops;
  private final PrintStream out;
  private final List<String> failures = new ArrayList<>();
  private int stepNumber;

  private FlatCost(Path workloads, Path base, int rounds, int ops, PrintStream out) {
    this.workloads = workloads;
    this.base = base;
    this.rounds = rounds;
    this.ops = ops;
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out));
  }

  /** Runs the benchmark, printing to {@code out}; the exit status: 0, or 1 when a step failed. */
  static int run(String[] args, PrintStream out) throws Exception {
    List<String> engines = DEFAULT_ENGINES;
    List<Integer> records = DEFAULT_RECORDS;
    int rounds = DEFAULT_ROUNDS;
    int ops = DEFAULT_OPS;
    Path base = null;
    Path top = Path.of(System.getProperty("layers.top", ".")).toAbsolutePath().normalize();
    Path workloads = top.resolve("workloads");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--engines" -> engines = Arrays.asList(args[++i].split(","));
        case "--records" -> records = Arrays.stream(args[++i].split(",")).map(Integer::valueOf).sorted().toList();
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--ops" -> ops = Integer.parseInt(args[++i]);
        case "--dir" -> base = Path.of(args[++i]);
        case "--workloads" -> workloads = Path.of(args[++i]).toAbsolutePath();
        default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; usage: [--engines e,...]"
            + " [--records N,...] [--rounds R] [--ops N] [--dir D] [--workloads DIR]");
      }
    }
    for (String e : engines) {
      Engines.named(e.split(":")[0]); // an unknown engine stops here, before any step runs
    }
    if (records.isEmpty() || records.get(0) < 1 || rounds < 1 || ops < 1) {
      throw new IllegalArgumentException("--records, --rounds and --ops must be at least 1");
    }
    boolean ownBase = base == null;
    base = ownBase ? Files.createTempDirectory("flatcost") : Files.createDirectories(base);
    FlatCost bench = new FlatCost(workloads, base, rounds, ops, out);
    long start = System.nanoTime();
    out.printf(Locale.ROOT, "flat-cost: the binding's cost per point read as the data grows. Per engine and N: N"
        + " records of scale/base (16-byte keys, 1 KB values) loaded once in random order through the binding"
        + " (batches of %d), then %d round(s) of %,d uniform point reads (scale/read-uniform) through YCSB's"
        + " client around the binding with its engine calls timed and around LibraryDB timed the same way, each a"
        + " fresh JVM at -Xmx%s; per read the whole read (NanoTimedDB), the engine call inside it, and the own"
        + " work, their difference; no memory budget (the data stays in the page cache)%n",
        LOAD_BATCH, rounds, ops, HEAP);
    Map<String, Map<Integer, Cost>> costs = new LinkedHashMap<>();
    for (String spec : engines) {
      for (int n : records) {
        try {
          costs.computeIfAbsent(spec, k -> new TreeMap<>()).put(n, bench.measure(spec, n));
        } catch (Layers.StepFailed f) {
          bench.failures.add(f.getMessage());
          out.println("  " + spec + " N=" + n + ": FAILED: " + f.getMessage());
        } finally {
          Layers.deleteTree(base.resolve(dataDir(spec, n)));
        }
      }
    }
    out.println();
    bench.printSummary(costs);
    out.printf(Locale.ROOT, "wall time: %.0f s%n", (System.nanoTime() - start) / 1e9);
    if (ownBase) {
      Layers.deleteTree(base);
    }
    if (!bench.failures.isEmpty()) {
      out.println("FAILED steps:");
      bench.failures.forEach(f -> out.println("  " + f));
      return 1;
    }
    return 0;
  }

  /**
   * The medians of one engine and N over the rounds, in ns per read: the whole read inside YCSB's client
   * ({@code NanoTimedDB}), the engine call inside it ({@link EngineCalls}), the rest (the binding's own work and
   * the inner clock), one {@code System.nanoTime()}; then the same rest around {@link LibraryDB}, the thinnest DB
   * (its own work: the key's bytes and the result map), and the binding's own work over that, each round's
   * difference.
   */
  record Cost(int n, double whole, double engine, double own, double clock, double libraryOwn, double added) {
    /** The binding's own work per read: whole minus engine call, minus the one clock read the inner timing adds. */
    double ownNet() {
      return own - clock;
    }
  }

  /** The binding's own work at the largest N over that at the smallest; NaN when the smallest is not above 0. */
  static double ratio(Cost small, Cost large) {
    return small.ownNet() > 0 ? large.ownNet() / small.ownNet() : Double.NaN;
  }

  /** One step's figures, per read. */
  record Round(double whole, double engine, double clock) {
    double own() {
      return whole - engine;
    }
  }

  /**
   * The medians over the rounds; the own works are the medians of each round's whole minus engine, and what the
   * binding adds over {@link LibraryDB} the median of each round's difference of the two.
   */
  static Cost summarise(int n, List<Round> binding, List<Round> library) {
    if (binding.size() != library.size() || binding.isEmpty()) {
      throw new IllegalArgumentException("one binding and one LibraryDB step per round: " + binding.size() + " and "
          + library.size());
    }
    double[] added = new double[binding.size()];
    for (int i = 0; i < added.length; i++) {
      added[i] = binding.get(i).own() - library.get(i).own();
    }
    return new Cost(n, median(binding.stream().mapToDouble(Round::whole).toArray()),
        median(binding.stream().mapToDouble(Round::engine).toArray()),
        median(binding.stream().mapToDouble(Round::own).toArray()),
        median(binding.stream().mapToDouble(Round::clock).toArray()),
        median(library.stream().mapToDouble(Round::own).toArray()), median(added));
  }

  private static String dataDir(String spec, int n) {
    return spec.replaceAll("[^A-Za-z0-9.=-]", "_") + "-" + n;
  }

  private Cost measure(String spec, int n) throws Exception {
    String engine = spec.split(":")[0];
    Path dir = base.resolve(dataDir(spec, n));
    Layers.deleteTree(dir);
    Files.createDirectories(dir);
    String binding = Engines.named(engine).newClient().getClass().getName();
    long t0 = System.nanoTime();
    List<String> load = client(spec, n, dir, binding, "-load", "load");
    load.addAll(List.of("-p", "batchsize=" + LOAD_BATCH));
    if (engine.equals("kyoto")) {
      load.addAll(List.of("-p", "kyoto.buckets=" + Math.max(1, n / KYOTO_RECORDS_PER_BUCKET)));
    }
    String where = spec + " N=" + n;
    Map<String, String> loaded = Layers.ycsbFigures(step(where + " load", load));
    Layers.checkYcsb(where + " load", loaded, "INSERT", n, true);
    double seconds = (System.nanoTime() - t0) / 1e9;
    out.printf(Locale.ROOT, "  %s N=%d: loaded in %.1f s (%,.0f records/s, JVM start and close included)%n",
        spec, n, seconds, n / seconds);
    String timed = EngineCalls.timedClassOf(binding);
    List<Round> done = new ArrayList<>();
    List<Round> library = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      // Odd rounds run the binding first, even rounds LibraryDB first: neither always meets the data first.
      for (String layer : r % 2 == 0 ? List.of("d", "d0") : List.of("d0", "d")) {
        boolean lib = layer.equals("d0");
        String db = lib ? LibraryDB.class.getName() : timed;
        Round round = reads(spec, n, dir, db, where + " round " + (r + 1) + " (" + layer + ")");
        (lib ? library : done).add(round);
        out.printf(Locale.ROOT, "step engine=%s records=%d round=%d layer=%s db=%s ops=%d whole_ns=%.1f engine_ns=%.1f"
            + " own_ns=%.1f clock_ns=%.2f%n", spec, n, r + 1, layer, db, ops, round.whole(), round.engine(),
            round.own(), round.clock());
      }
    }
    Cost cost = summarise(n, done, library);
    out.printf(Locale.ROOT, "flatcost engine=%s records=%d rounds=%d whole_ns=%.1f engine_ns=%.1f own_ns=%.1f"
        + " clock_ns=%.2f own_net_ns=%.1f library_own_ns=%.1f added_ns=%.1f%n", spec, n, rounds, cost.whole(),
        cost.engine(), cost.own(), cost.clock(), cost.ownNet(), cost.libraryOwn(), cost.added());
    return cost;
  }

  /** One step: the binding with its engine calls timed, in YCSB's client; every read of a loaded key found. */
  private Round reads(String spec, int n, Path dir, String db, String where) throws Exception {
    List<String> cmd = client(spec, n, dir, db, "-t", "read-uniform");
    cmd.addAll(List.of("-p", "operationcount=" + ops));
    Map<String, String> figures = Layers.ycsbFigures(step(where, cmd));
    Layers.checkYcsb(where, figures, "READ", ops, true);
    long whole = count(figures, NanoTimedDB.PREFIX + "READ]", where);
    long engine = count(figures, EngineCalls.PREFIX + "GET]", where);
    String clock = figures.get(EngineCalls.PREFIX + "CLOCK], ns per nanoTime");
    if (clock == null) {
      throw new Layers.StepFailed(where + ": the engine-timed binding printed no clock line");
    }
    return new Round(whole / (double) ops, engine / (double) ops, Double.parseDouble(clock));
  }

  /** The summed nanoseconds of {@code section}'s lines, which must count exactly the step's reads. */
  private long count(Map<String, String> figures, String section, String where) {
    String timed = figures.get(section + ", Operations");
    String nanos = figures.get(section + ", TotalTime(ns)");
    if (timed == null || nanos == null || Long.parseLong(timed) != ops) {
      throw new Layers.StepFailed(where + ": " + section + " timed " + timed + " reads, expected " + ops);
    }
    return Long.parseLong(nanos);
  }

  /** YCSB's client at -Xmx256m around NanoTimedDB around {@code db}, on scale/base and one scale workload file. */
  private List<String> client(String spec, int n, Path dir, String db, String phase, String workload) {
    List<String> cmd = Layers.java(HEAP);
    cmd.addAll(List.of("site.ycsb.Client", "-db", NanoTimedDB.class.getName(), "-p", NanoTimedDB.WRAPPED + "=" + db,
        phase, "-P", workloads.resolve("scale/base").toString()));
    Map<String, String> extras = LayerStep.extras(spec);
    if ("system".equals(extras.get("leveldb.library"))) {
      cmd.addAll(List.of("-P", workloads.resolve("scale/leveldb-system").toString()));
    }
    cmd.addAll(List.of("-P", workloads.resolve("scale/" + workload).toString()));
    if (db.equals(LibraryDB.class.getName())) {
      cmd.addAll(List.of("-p", LibraryDB.ENGINE + "=" + spec.split(":")[0], "-p", LibraryDB.TIMED + "=true"));
    }
    // No HdrHistogram log files: YCSB would write them into the working directory.
    cmd.addAll(List.of("-p", "recordcount=" + n, "-p", "path=" + dir, "-p", "hdrhistogram.fileoutput=false"));
    extras.forEach((k, v) -> cmd.addAll(List.of("-p", k + "=" + v)));
    return cmd;
  }

  private String step(String where, List<String> cmd) throws Exception {
    return Layers.runStep(where, cmd, base.resolve(String.format(Locale.ROOT, "step-%04d.stderr", ++stepNumber)));
  }

  private static double median(double[] xs) {
    return BindingOverhead.median(xs);
  }

  private void printSummary(Map<String, Map<Integer, Cost>> costs) {
    out.printf(Locale.ROOT, "%-32s %10s %12s %12s %12s %12s %12s %12s%n", "engine", "N", "whole ns/op",
        "engine ns/op", "own ns/op", "own - clock", "LibraryDB", "added");
    for (Map.Entry<String, Map<Integer, Cost>> e : costs.entrySet()) {
      for (Cost c : e.getValue().values()) {
        out.printf(Locale.ROOT, "%-32s %10d %12.1f %12.1f %12.1f %12.1f %12.1f %12.1f%n", e.getKey(), c.n(), c.whole(),
            c.engine(), c.own(), c.ownNet(), c.libraryOwn(), c.added());
      }
    }
    out.println();
    for (Map.Entry<String, Map<Integer, Cost>> e : costs.entrySet()) {
      List<Cost> sizes = new ArrayList<>(e.getValue().values());
      if (sizes.size() < 2) {
        continue;
      }
      Cost small = sizes.get(0);
      Cost large = sizes.get(sizes.size() - 1);
      double ratio = ratio(small, large);
      // One word per value: the line is parsed as name=value words (undefined: no ratio, see the note below).
      String verdict = Double.isNaN(ratio) ? "undefined" : Math.abs(ratio - 1) <= FLAT ? "yes" : "no";
      out.printf(Locale.ROOT, "flatcost engine=%s small=%d large=%d binding_ratio=%s within_10_percent=%s"
          + " engine_ratio=%.2f library_own_ratio=%.2f added_small_ns=%.1f added_large_ns=%.1f%n", e.getKey(),
          small.n(), large.n(), Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio), verdict,
          large.engine() / small.engine(), large.libraryOwn() / small.libraryOwn(), small.added(), large.added());
    }
    out.println("binding_ratio = the binding's own work per read (the whole read in YCSB's client minus its engine"
        + " call, timed in the same JVM on the same reads, minus one clock read) at the largest N over the smallest;"
        + " engine_ratio = the engine call's time per read at the largest N over the smallest, which may grow;"
        + " binding_ratio=- and within_10_percent=undefined: the own work at the smallest N was not above 0;"
        + " library_own_ratio = the same own work of LibraryDB, the thinnest DB (the key's bytes, the result map),"
        + " timed the same way; added = the binding's own work minus LibraryDB's, the median of the rounds'"
        + " differences.");
  }
}
