package site.ycsb.embedded.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * client around {@link PairedOps}, each round a fresh JVM at -Xmx256m, then the same for uniform updates
 * ({@code scale/overwrite}). There each operation goes by a coin toss through the binding with its engine calls
 * timed ({@link EngineCalls}) or through {@link LibraryDB}'s (layer (d0), the thinnest: the key's bytes, the
 * library's get into the result map or the value's array to its put) on the same handle. Per path: the whole
 * operation, the engine calls inside it, and their difference, the path's own work; the binding's own work minus the
 * thin path's is what the binding adds, (d)-(d0), taken in one JVM on interleaved operations on the same data. Its
 * change between the largest and the smallest N says whether the binding's cost stays flat while the engine's own
 * cost grows. No memory budget: the data stays in the page cache, since the point is the binding's cost, not the
 * disk's.
 *
 * <p>This replaced (d)-(d0) taken as the difference of a JVM around the binding and one around {@link LibraryDB}:
 * from one pair of JVMs to the next that moved by ±0.9 us per read, and by ±30 ns with the engine call timed inside
 * each, against a binding cost of tens of nanoseconds.
 *
 * <p>The question flat-cost of {@link Bench}: [--engines rocksdb,lmdb] [--records 262144,4194304] [--rounds 3]
 * [--ops 600000] [--operations read,update] [--dir D] [--workloads DIR]. An engine may carry binding properties
 * ({@code leveldb:leveldb.library=system} also stacks {@code scale/leveldb-system}).
 */
public final class FlatCost {

  /** One LSM tree and one B-tree: the fastest of each to load, so that 2^22 records fit the run's minutes. */
  static final List<String> DEFAULT_ENGINES = List.of("rocksdb", "lmdb");
  /** The scale group's smallest and largest data sizes (analysis/scenarios.py SCALE_RECORDS). */
  static final List<Integer> DEFAULT_RECORDS = List.of(1 << 18, 1 << 22);
  static final int DEFAULT_ROUNDS = 3;
  /** The operations timed, each on its scale workload file, in this order (the updates change the data). */
  static final Map<String, String> WORKLOAD_OF = new LinkedHashMap<>(Map.of("read", "read-uniform"));

  static {
    WORKLOAD_OF.put("update", "overwrite");
  }

  static final List<String> DEFAULT_OPERATIONS = List.copyOf(WORKLOAD_OF.keySet());
  /** Operations per step, both paths together: the same at every N, so the JIT's share per operation is too. */
  static final int DEFAULT_OPS = 600_000;
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
  private final List<String> operations;
  private final PrintStream out;
  private final List<String> failures = new ArrayList<>();
  private int stepNumber;

  private FlatCost(Path workloads, Path base, int rounds, int ops, List<String> operations, PrintStream out) {
    this.workloads = workloads;
    this.base = base;
    this.rounds = rounds;
    this.ops = ops;
    this.operations = operations;
    this.out = out;
  }

  /** flat-cost: runs the benchmark, printing to {@code out}; the exit status: 0, or 1 when a step failed. */
  static int run(Bench.Options o, PrintStream out) throws Exception {
    List<String> engines = o.list("--engines");
    List<Integer> records = o.list("--records").stream().map(Integer::valueOf).sorted().toList();
    int rounds = o.integer("--rounds");
    int ops = o.integer("--ops");
    List<String> operations = o.list("--operations");
    for (String op : operations) {
      if (!WORKLOAD_OF.containsKey(op)) {
        throw new IllegalArgumentException("unknown operation " + op + "; there are: " + WORKLOAD_OF.keySet());
      }
    }
    for (String e : engines) {
      Engines.named(e.split(":")[0]); // an unknown engine stops here, before any step runs
    }
    if (records.isEmpty() || records.get(0) < 1 || rounds < 1 || ops < 1) {
      throw new IllegalArgumentException("--records, --rounds and --ops must be at least 1");
    }
    try (Bench.WorkDir dir = o.dir("flatcost")) {
      return new FlatCost(o.workloads(), dir.path(), rounds, ops, operations, out).run(engines, records);
    }
  }

  private int run(List<String> engines, List<Integer> records) throws Exception {
    long start = System.nanoTime();
    out.printf(Locale.ROOT, "flat-cost: the binding's cost per operation as the data grows. Per engine and N: N"
        + " records of scale/base (16-byte keys, 1 KB values) loaded once in random order through the binding"
        + " (batches of %d), then per operation (%s) %d round(s) of %,d uniform operations (scale/read-uniform,"
        + " scale/overwrite) through YCSB's client around PairedOps, each a fresh JVM at -Xmx%s: each operation by a"
        + " coin toss through the binding with its engine calls timed or through LibraryDB's on the same handle;"
        + " per path the whole operation, the engine calls inside it, and the own work, their difference; no memory"
        + " budget (the data stays in the page cache)%n",
        LOAD_BATCH, String.join(", ", operations), rounds, ops, HEAP);
    Map<Row, Map<Integer, Cost>> costs = new LinkedHashMap<>();
    for (String spec : engines) {
      for (int n : records) {
        try {
          measure(spec, n).forEach((op, cost) -> costs.computeIfAbsent(new Row(spec, op),
              k -> new TreeMap<>()).put(n, cost));
        } catch (Layers.StepFailed f) {
          failures.add(f.getMessage());
          out.println("  " + spec + " N=" + n + ": FAILED: " + f.getMessage());
        } finally {
          Layers.deleteTree(base.resolve(dataDir(spec, n)));
        }
      }
    }
    out.println();
    printSummary(costs);
    out.printf(Locale.ROOT, "wall time: %.0f s%n", (System.nanoTime() - start) / 1e9);
    if (!failures.isEmpty()) {
      out.println("FAILED steps:");
      failures.forEach(f -> out.println("  " + f));
      return 1;
    }
    return 0;
  }

  /** One line of the summary: an engine row and an operation. */
  record Row(String spec, String op) {
  }

  /**
   * The medians of one engine, operation and N over the rounds, in ns per read: the binding's whole read inside YCSB's
   * client ({@link PairedOps}), the engine call inside it ({@link EngineCalls}), the rest (the binding's own work
   * and the inner clock), one {@code System.nanoTime()}; then the same rest of {@link LibraryDB}'s read, the
   * thinnest (its own work: the key's bytes and the result map), and the binding's own work over that, each
   * round's difference.
   */
  record Cost(int n, double whole, double engine, double own, double clock, double calls, double libraryOwn,
      double added) {
    Cost(int n, double whole, double engine, double own, double clock, double libraryOwn, double added) {
      this(n, whole, engine, own, clock, 1, libraryOwn, added);
    }

    /**
     * The binding's own work per operation: whole minus engine calls, minus the one clock read each timed engine
     * call adds.
     */
    double ownNet() {
      return own - clock * calls;
    }
  }

  /**
   * Whether what the binding adds over the thinnest read stays flat: its change from the smallest N to the largest,
   * against {@value #FLAT} of the binding's own work per read at the smallest N. The added cost itself is some
   * nanoseconds either side of 0, so a ratio of the two added costs would say nothing.
   */
  static boolean addedFlat(Cost small, Cost large) {
    return Math.abs(large.added() - small.added()) <= FLAT * small.ownNet();
  }

  /** The binding's own work at the largest N over that at the smallest; NaN when the smallest is not above 0. */
  static double ratio(Cost small, Cost large) {
    return small.ownNet() > 0 ? large.ownNet() / small.ownNet() : Double.NaN;
  }

  /**
   * One path's figures in one step, per read, over its {@code ops} reads: the whole read and the engine call
   * inside it (means over every read), one clock read, and the own work per read as {@link PairedOps} gives it,
   * the mean over the reads that met no pause of the JVM, their median, and how many did meet one.
   */
  record Round(long ops, double whole, double engine, double clock, double calls, double unpaused, long median,
      long paused) {
    Round(double whole, double engine, double clock) {
      this(0, whole, engine, clock, 1, Double.NaN, -1, 0);
    }

    /** The own work less the clock reads of its timed engine calls: comparable between paths that make more. */
    double ownNet() {
      return own() - clock * calls;
    }

    /** The own work per read: the mean over the reads without a pause when known, else whole minus engine. */
    double own() {
      return Double.isNaN(unpaused) ? ownAll() : unpaused;
    }

    /** Whole minus engine call, over every read, pauses of the JVM included. */
    double ownAll() {
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
      added[i] = binding.get(i).ownNet() - library.get(i).ownNet();
    }
    return new Cost(n, Alternation.median(binding.stream().mapToDouble(Round::whole).toArray()),
        Alternation.median(binding.stream().mapToDouble(Round::engine).toArray()),
        Alternation.median(binding.stream().mapToDouble(Round::own).toArray()),
        Alternation.median(binding.stream().mapToDouble(Round::clock).toArray()),
        Alternation.median(binding.stream().mapToDouble(Round::calls).toArray()),
        Alternation.median(library.stream().mapToDouble(Round::own).toArray()), Alternation.median(added));
  }

  private static String dataDir(String spec, int n) {
    return spec.replaceAll("[^A-Za-z0-9.=-]", "_") + "-" + n;
  }

  /** Loads N records, then the rounds of each operation on them: the medians per operation. */
  private Map<String, Cost> measure(String spec, int n) throws Exception {
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
    String timed = Engines.named(engine).timedClass();
    Map<String, Cost> costs = new LinkedHashMap<>();
    for (String op : operations) {
      List<Round> done = new ArrayList<>();
      List<Round> library = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        Round[] paths = paired(spec, n, dir, timed, op, where + " " + op + " round " + (r + 1));
        done.add(paths[0]);
        library.add(paths[1]);
        for (int p = 0; p < 2; p++) {
          Round x = paths[p];
          out.printf(Locale.ROOT, "step engine=%s op=%s records=%d round=%d layer=%s db=%s ops=%d whole_ns=%.1f"
              + " engine_ns=%.1f engine_calls=%.3f own_all_ns=%.1f own_ns=%.1f own_median_ns=%d paused=%d"
              + " clock_ns=%.2f%n", spec, op, n, r + 1, p == 0 ? "d" : "d0",
              p == 0 ? timed : LibraryDB.class.getName(), x.ops(), x.whole(), x.engine(), x.calls(), x.ownAll(),
              x.own(), x.median(), x.paused(), x.clock());
        }
      }
      Cost cost = summarise(n, done, library);
      out.printf(Locale.ROOT, "flatcost engine=%s op=%s records=%d rounds=%d whole_ns=%.1f engine_ns=%.1f"
          + " engine_calls=%.3f own_ns=%.1f clock_ns=%.2f own_net_ns=%.1f library_own_ns=%.1f added_ns=%.1f%n", spec,
          op, n, rounds, cost.whole(), cost.engine(), cost.calls(), cost.own(), cost.clock(), cost.ownNet(),
          cost.libraryOwn(), cost.added());
      costs.put(op, cost);
    }
    return costs;
  }

  /**
   * One step: YCSB's client around {@link PairedOps} around the engine-timed binding {@code timed}; every read of a
   * loaded key found. The binding's path and the thin path's, in that order.
   */
  private Round[] paired(String spec, int n, Path dir, String timed, String op, String where) throws Exception {
    List<String> cmd = client(spec, n, dir, PairedOps.class.getName(), "-t", WORKLOAD_OF.get(op));
    cmd.addAll(List.of("-p", PairedOps.BINDING + "=" + timed, "-p", "operationcount=" + ops));
    Map<String, String> figures = Layers.ycsbFigures(step(where, cmd));
    String section = op.toUpperCase(Locale.ROOT);
    Layers.checkYcsb(where, figures, section, ops, true);
    // Every read gets once; every update puts once (and may read first).
    String engineKind = op.equals("read") ? "GET" : "PUT";
    String engineCalls = figures.get(EngineCalls.PREFIX + engineKind + "], Operations");
    if (engineCalls == null || Long.parseLong(engineCalls) != ops) {
      throw new Layers.StepFailed(where + ": the engine-timed binding timed " + engineCalls + " " + engineKind
          + " calls, expected " + ops);
    }
    String clock = figures.get(EngineCalls.PREFIX + "CLOCK], ns per nanoTime");
    if (clock == null) {
      throw new Layers.StepFailed(where + ": the engine-timed binding printed no clock line");
    }
    Round[] paths = new Round[PairedOps.PATHS.length];
    long total = 0;
    for (int p = 0; p < paths.length; p++) {
      String at = PairedOps.PREFIX + section + "-" + PairedOps.PATHS[p] + "], ";
      String count = figures.get(at + "Operations");
      String whole = figures.get(at + "WholeTime(ns)");
      String engine = figures.get(at + "EngineTime(ns)");
      String calls = figures.get(at + "EngineCalls");
      String unpaused = figures.get(at + "OwnMeanUnpaused(ns)");
      String median = figures.get(at + "OwnMedian(ns)");
      String paused = figures.get(at + "PausedOperations");
      if (count == null || whole == null || engine == null || calls == null || unpaused == null || median == null
          || paused == null || Long.parseLong(count) == 0) {
        throw new Layers.StepFailed(where + ": PairedOps timed no " + op + " of path " + PairedOps.PATHS[p]);
      }
      long c = Long.parseLong(count);
      total += c;
      paths[p] = new Round(c, Long.parseLong(whole) / (double) c, Long.parseLong(engine) / (double) c,
          Double.parseDouble(clock), Long.parseLong(calls) / (double) c, Double.parseDouble(unpaused),
          Long.parseLong(median), Long.parseLong(paused));
    }
    if (total != ops) {
      throw new Layers.StepFailed(where + ": PairedOps timed " + total + " operations, expected " + ops);
    }
    return paths;
  }

  /**
   * YCSB's client at -Xmx256m around NanoTimedDB around {@code db} (around {@code db} alone when it is
   * {@link PairedOps}, which times itself), on scale/base and one scale workload file.
   */
  private List<String> client(String spec, int n, Path dir, String db, String phase, String workload) {
    List<String> cmd = Layers.java(HEAP);
    if (db.equals(PairedOps.class.getName())) {
      cmd.addAll(List.of("site.ycsb.Client", "-db", db));
    } else {
      cmd.addAll(List.of("site.ycsb.Client", "-db", NanoTimedDB.class.getName(), "-p", NanoTimedDB.WRAPPED + "=" + db));
    }
    cmd.addAll(List.of(phase, "-P", workloads.resolve("scale/base").toString()));
    Map<String, String> extras = LayerStep.extras(spec);
    if ("system".equals(extras.get("leveldb.library"))) {
      cmd.addAll(List.of("-P", workloads.resolve("scale/leveldb-system").toString()));
    }
    cmd.addAll(List.of("-P", workloads.resolve("scale/" + workload).toString()));
    // No HdrHistogram log files: YCSB would write them into the working directory.
    cmd.addAll(List.of("-p", "recordcount=" + n, "-p", "path=" + dir, "-p", "hdrhistogram.fileoutput=false"));
    extras.forEach((k, v) -> cmd.addAll(List.of("-p", k + "=" + v)));
    return cmd;
  }

  private String step(String where, List<String> cmd) throws Exception {
    return Layers.runStep(where, cmd, base.resolve(String.format(Locale.ROOT, "step-%04d.stderr", ++stepNumber)));
  }

  private void printSummary(Map<Row, Map<Integer, Cost>> costs) {
    out.printf(Locale.ROOT, "%-32s %-7s %10s %12s %12s %12s %12s %12s %12s%n", "engine", "op", "N", "whole ns/op",
        "engine ns/op", "own ns/op", "own - clock", "LibraryDB", "added");
    for (Map.Entry<Row, Map<Integer, Cost>> e : costs.entrySet()) {
      for (Cost c : e.getValue().values()) {
        out.printf(Locale.ROOT, "%-32s %-7s %10d %12.1f %12.1f %12.1f %12.1f %12.1f %12.1f%n", e.getKey().spec(),
            e.getKey().op(), c.n(), c.whole(), c.engine(), c.own(), c.ownNet(), c.libraryOwn(), c.added());
      }
    }
    out.println();
    for (Map.Entry<Row, Map<Integer, Cost>> e : costs.entrySet()) {
      List<Cost> sizes = new ArrayList<>(e.getValue().values());
      if (sizes.size() < 2) {
        continue;
      }
      Cost small = sizes.get(0);
      Cost large = sizes.get(sizes.size() - 1);
      double ratio = ratio(small, large);
      // One word per value: the line is parsed as name=value words (undefined: no ratio, see the note below).
      String verdict = Double.isNaN(ratio) ? "undefined" : Math.abs(ratio - 1) <= FLAT ? "yes" : "no";
      out.printf(Locale.ROOT, "flatcost engine=%s op=%s small=%d large=%d binding_ratio=%s within_10_percent=%s"
          + " engine_ratio=%.2f library_own_ratio=%.2f added_small_ns=%.1f added_large_ns=%.1f added_change_ns=%.1f"
          + " added_flat=%s%n", e.getKey().spec(), e.getKey().op(), small.n(), large.n(),
          Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio), verdict,
          large.engine() / small.engine(), large.libraryOwn() / small.libraryOwn(), small.added(), large.added(),
          large.added() - small.added(), addedFlat(small, large) ? "yes" : "no");
    }
    out.println("own work = an operation's time outside its engine calls, the mean over the operations that met no"
        + " pause of the JVM (own work under " + PairedOps.PAUSE_NS + " ns); binding_ratio = the binding's own work"
        + " per operation (minus one clock read per timed engine call) at the largest N over the smallest;"
        + " engine_ratio = the engine calls' time per operation at the largest N over the smallest, which may grow;"
        + " binding_ratio=- and within_10_percent=undefined: the own work at the smallest N was not above 0;"
        + " library_own_ratio = the same own work of LibraryDB's read or put, the thinnest (the key's bytes, the"
        + " value's array), on the same handle in the same JVM, its operations interleaved with the binding's at"
        + " random; added = the binding's own work minus LibraryDB's, each less its clock reads, (d)-(d0), the median"
        + " of the rounds' differences; added_flat = yes when added changes from the smallest N to the largest by at"
        + " most " + Math.round(FLAT * 100) + " % of the binding's own work at the smallest N.");
  }
}
