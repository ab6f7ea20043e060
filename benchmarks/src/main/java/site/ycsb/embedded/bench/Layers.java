package site.ycsb.embedded.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import site.ycsb.embedded.CheckedClient;
import site.ycsb.embedded.NanoTimedDB;
import site.ycsb.embedded.NothingDB;
import site.ycsb.embedded.Warmup;

/**
 * The layered benchmark (benchmarks/README.md), the question layers of {@link Bench}: for each engine and 2011 shape,
 * microseconds per operation at layers (a) to (e), each step in its own process on a fresh database, rounds
 * alternating the layers. Prints each step as it ends, then one table per engine with the medians, what each layer
 * adds and the share of the floor's throughput that (d0) and (d) reach. An engine may carry binding properties for a
 * variant row: {@code ENGINE:NAME=VALUE} passes {@code -p NAME=VALUE} to (c) and (d). Each engine's floors are its
 * row's ({@link BenchEngine}).
 */
public final class Layers {

  /** The median columns: (a) to (d0); (d) in-operation ({@link NanoTimedDB}), YCSB's figure, wall; (e), wall. */
  static final String[] COLUMNS = {"a", "a2", "b", "c", "d0", "d", "dyc", "dwall", "e", "ewall"};
  /** A step that takes longer than this is a hang, not a measurement. */
  private static final long STEP_TIMEOUT_MINUTES = 60;

  private final Path top;
  private final Path base;
  private final int records;
  private final PrintStream report;
  private final List<String> failures = new ArrayList<>();
  /** engine spec -> shape -> column -> one figure per round. */
  private final Map<String, Map<LayerShape, Map<String, List<Double>>>> figures = new LinkedHashMap<>();
  /** engine spec -> the floor's, the Java library's and (a')'s engine versions. */
  private final Map<String, String[]> versions = new HashMap<>();
  /** The warm-up's warmup.operations for the YCSB layers; null: the launcher's default. */
  private final String warmupOperations;

  Layers(Path top, Path base, int records, PrintStream report, String warmupOperations) {
    this.top = top;
    this.base = base;
    this.records = records;
    this.report = report;
    this.warmupOperations = warmupOperations;
  }

  /** The layered benchmark, printing to {@code out}; the exit status: 0, or 1 when a step failed. */
  static int run(Bench.Options o, PrintStream out) throws Exception {
    List<String> engines = o.list("--engines");
    List<LayerShape> shapes = o.list("--shapes").stream().map(LayerShape::named).toList();
    boolean smoke = o.flag("--smoke");
    int records = smoke ? 2000 : o.integer("--records");
    int rounds = smoke ? 1 : o.integer("--rounds");
    for (String e : engines) {
      Engines.named(e.split(":")[0]); // an unknown engine stops here, before any step runs
    }
    try (Bench.WorkDir dir = o.dir("layers")) {
      // --smoke: the warm-up's path runs, in a fraction of its seconds; else the launcher's default
      return new Layers(o.top(), dir.path(), records, out, smoke ? "2000" : null).run(engines, shapes, rounds);
    }
  }

  private int run(List<String> engines, List<LayerShape> shapes, int rounds) throws Exception {
    report.printf(Locale.ROOT, "layered benchmark: %d records of 16-byte keys and 100-byte values (100 KB fills:"
        + " %d values), the workload files' tuning, %d round(s), layers a-e alternating, each step in its own"
        + " process on a fresh database; (d0), (d), (e) after the launcher's warm-up (%s)%n", records,
        LayerShape.FILL100K.count(records), rounds,
        warmupOperations == null ? "its defaults" : Warmup.OPERATIONS + "=" + warmupOperations);
    for (int r = 1; r <= rounds; r++) {
      for (String e : engines) {
        for (LayerShape s : shapes) {
          round(r, e, s);
        }
      }
    }
    printTables(rounds);
    if (!failures.isEmpty()) {
      report.println("FAILED steps:");
      failures.forEach(f -> report.println("  " + f));
      return 1;
    }
    return 0;
  }

  private void round(int r, String spec, LayerShape shape) throws Exception {
    String engine = spec.split(":")[0];
    int count = shape.count(records);
    Map<String, List<Double>> cells = figures.computeIfAbsent(spec, k -> new LinkedHashMap<>())
        .computeIfAbsent(shape, k -> new HashMap<>());
    String where = spec + " " + shape.id + " round " + r;
    BenchEngine row = Engines.named(engine);
    try {
      versionsOf(spec)[0] = floor(where + " (a)", Engines.floor(row, BenchEngine.FLOOR), engine, shape, count, cells,
          "a");
      Optional<String> javaLibraryFloor = row.javaLibraryFloor();
      if (javaLibraryFloor.isPresent()) {
        versionsOf(spec)[2] = floor(where + " (a')", Engines.floor(row, javaLibraryFloor.get()), engine, shape, count,
            cells, "a2");
      }
      for (String layer : List.of("direct", "binding")) {
        List<String> cmd = java("1g");
        // The heap touched at start-up, untimed: the binding's YCSB maps and per-call arrays otherwise fault in
        // fresh heap pages inside its clock (LevelDB fill, 200,000 records: 55,000 minor faults, 15,000 direct).
        cmd.addAll(1, List.of("-Xms1g", "-XX:+AlwaysPreTouch"));
        cmd.addAll(List.of(LayerStep.class.getName(), spec, shape.id, layer, Integer.toString(count),
            freshDir(layer).toString(), top.resolve("workloads").toString()));
        Map<String, String> b = keyValues(step(where + (layer.equals("direct") ? " (b)" : " (c)"), cmd));
        add(cells, layer.equals("direct") ? "b" : "c", Double.parseDouble(b.get("us_per_op")));
        if (layer.equals("direct")) {
          versionsOf(spec)[1] = b.get("library");
        }
      }
      double[] d0 = ycsb(where + " (d0)", spec, shape, count, LibraryDB.class.getName());
      add(cells, "d0", d0[0]);
      double[] d = ycsb(where + " (d)", spec, shape, count, row.binding().getClass().getName());
      add(cells, "d", d[0]);
      add(cells, "dwall", d[1]);
      add(cells, "dyc", d[2]);
      double[] e = ycsb(where + " (e)", spec, shape, count, NothingDB.class.getName());
      add(cells, "e", e[0]);
      add(cells, "ewall", e[1]);
      report.printf(Locale.ROOT, "  %-8s %-14s round %d: a %.3f%s  b %.3f  c %.3f  d0 %.3f  d %.3f (ycsb %.3f,"
          + " wall %.3f)  e %.3f (wall %.3f) us/op%n", spec, shape.id, r, last(cells, "a"),
          cells.containsKey("a2") ? String.format(Locale.ROOT, "  a' %.3f", last(cells, "a2")) : "",
          last(cells, "b"), last(cells, "c"), d0[0], d[0], d[2], d[1], e[0], e[1]);
    } catch (StepFailed f) {
      failures.add(f.getMessage());
      report.println("  " + where + ": FAILED: " + f.getMessage());
    }
  }

  /** Runs one floor binary into column {@code column}; the engine version it names. */
  private String floor(String where, Path binary, String engine, LayerShape shape, int count,
      Map<String, List<Double>> cells, String column) throws Exception {
    Map<String, String> a = keyValues(step(where, List.of(binary.toString(), engine, shape.id,
        Integer.toString(count), freshDir(column).toString())));
    add(cells, column, Double.parseDouble(a.get("us_per_op")));
    return a.get("library");
  }

  private String[] versionsOf(String spec) {
    return versions.computeIfAbsent(spec, k -> new String[3]);
  }

  /**
   * Layers (d0), (d) and (e): YCSB's client in a child JVM with -Xmx256m (a 1M-record load fits in it). Read
   * shapes load first (untimed; not for the do-nothing DB, which keeps nothing). Per entry: {in-operation us
   * ({@link NanoTimedDB}), wall us (RunTime), YCSB's AverageLatency x Operations (whole microseconds per operation)}.
   */
  private double[] ycsb(String where, String spec, LayerShape shape, int count, String dbClass) throws Exception {
    boolean nothing = dbClass.equals(NothingDB.class.getName());
    Path dir = freshDir(nothing ? "e" : dbClass.equals(LibraryDB.class.getName()) ? "d0" : "d");
    if (shape.isRead() && !nothing) {
      checkYcsb(where + " load", ycsbFigures(step(where + " load",
          ycsbCommand(spec, dbClass, "-load", shape.loadFiles, count, dir))), "INSERT", count, true);
    }
    Map<String, String> out = ycsbFigures(step(where, ycsbCommand(spec, dbClass, shape.isRead() ? "-t" : "-load",
        shape.isRead() ? List.of(shape.runFile) : shape.loadFiles, count, dir)));
    String op = shape == LayerShape.READRANDOM ? "READ" : shape == LayerShape.READSEQ ? "SCAN" : "INSERT";
    // A fill that draws its keys leaves about 63 % of them: the pass counts those, and YCSB's uniform
    // reads miss the rest (NOT_FOUND), as db_bench's readrandom does.
    long seed = Long.parseLong(shape.properties(top.resolve("workloads")).getProperty("loadseed", "20110727"));
    int distinct = shape.isRead() ? shape.loadedKeys(seed, count).cardinality() : count;
    if (shape == LayerShape.READRANDOM && shape.drawsKeys && !nothing) {
      checkDrawnReads(where, out, count, distinct);
    } else {
      checkYcsb(where, out, op, shape == LayerShape.READSEQ ? 1 : count, !nothing);
    }
    if (shape == LayerShape.READSEQ && !nothing && !Integer.toString(distinct).equals(out.get("[READSEQ], Entries"))) {
      throw new StepFailed(where + ": the pass read " + out.get("[READSEQ], Entries") + " entries; the fill left "
          + distinct);
    }
    // YCSB measures an operation that did not return OK (a read's NOT_FOUND) under "[READ-FAILED]".
    // Per entry: a pass reads the distinct keys the fill left, the other shapes make count calls.
    int entries = shape == LayerShape.READSEQ ? distinct : count;
    double ycsbInop = (micros(out, op) + micros(out, op + "-FAILED")) / entries;
    long ycsbOps = operations(out, op) + operations(out, op + "-FAILED");
    String ops = out.get(NanoTimedDB.PREFIX + op + "], Operations");
    String nanos = out.get(NanoTimedDB.PREFIX + op + "], TotalTime(ns)");
    if (ops == null || nanos == null || Long.parseLong(ops) != ycsbOps) {
      throw new StepFailed(where + ": NanoTimedDB timed " + ops + " " + op + " operations, YCSB counted " + ycsbOps);
    }
    double inop = Double.parseDouble(nanos) / 1000 / entries;
    double wall = Double.parseDouble(out.get("[OVERALL], RunTime(ms)")) * 1000 / entries;
    return new double[] {inop, wall, ycsbInop};
  }

  /** YCSB's operations of one measurement name ("[READ]", "[READ-FAILED]"), 0 when it printed none. */
  private static long operations(Map<String, String> out, String name) {
    return Long.parseLong(out.getOrDefault("[" + name + "], Operations", "0"));
  }

  /** YCSB's AverageLatency(us) x Operations of one measurement name: its whole-microsecond total. */
  private static double micros(Map<String, String> out, String name) {
    long n = operations(out, name);
    return n == 0 ? 0 : Double.parseDouble(out.get("[" + name + "], AverageLatency(us)")) * n;
  }

  /** The command of one YCSB step ((d0), (d), (e)): a fresh JVM around the given DB inside NanoTimedDB. */
  List<String> ycsbCommand(String spec, String dbClass, String phase, List<String> files, int count, Path dir) {
    List<String> cmd = java("256m");
    // The launcher's client, as bin/ycsb and the suite run YCSB: its warm-up (the launcher's defaults) runs the
    // phase's own code on a scratch database before YCSB's clock starts, so (d0), (d) and (e) time warm code
    cmd.addAll(List.of(CheckedClient.class.getName(), "-db", NanoTimedDB.class.getName(),
        "-p", NanoTimedDB.WRAPPED + "=" + dbClass, phase));
    if (dbClass.equals(LibraryDB.class.getName())) {
      cmd.addAll(List.of("-p", LibraryDB.ENGINE + "=" + spec.split(":")[0], "-p", Warmup.PATH_PROPERTY + "=path"));
    }
    if (warmupOperations != null) {
      cmd.addAll(List.of("-p", Warmup.OPERATIONS + "=" + warmupOperations));
    }
    for (String f : files) {
      cmd.addAll(List.of("-P", top.resolve("workloads").resolve(f).toString()));
    }
    cmd.addAll(List.of("-p", "recordcount=" + count, "-p", "path=" + dir));
    if (!files.contains("seqread")) {
      cmd.addAll(List.of("-p", "operationcount=" + count));
    }
    LayerStep.extras(spec).forEach((k, v) -> cmd.addAll(List.of("-p", k + "=" + v)));
    return cmd;
  }

  /** YCSB's "[SECTION], Name, value" lines of a step's stdout as "[SECTION], Name" -> "value". */
  static Map<String, String> ycsbFigures(String stdout) {
    Map<String, String> out = new HashMap<>();
    for (String line : stdout.split("\n")) {
      int comma = line.lastIndexOf(", ");
      if (line.startsWith("[") && comma > 0) {
        out.put(line.substring(0, comma), line.substring(comma + 2).trim());
      }
    }
    return out;
  }

  /**
   * YCSB's uniform reads over a fill that drew its keys: each read finds one of the {@code distinct} keys with
   * probability distinct/count, so the found count is binomial; 6 standard deviations off means something went wrong.
   */
  private static void checkDrawnReads(String where, Map<String, String> out, int count, int distinct) {
    checkReturns(where, out, "[READ], Return=NOT_FOUND");
    long found = Long.parseLong(out.getOrDefault("[READ], Return=OK", "0"));
    long missed = Long.parseLong(out.getOrDefault("[READ], Return=NOT_FOUND", "0"));
    double p = (double) distinct / count;
    double spread = 6 * Math.sqrt(count * p * (1 - p)) + 1;
    if (found + missed != count || Math.abs(found - count * p) > spread) {
      throw new StepFailed(String.format(Locale.ROOT, "%s: %d of %d reads found, %d missed; the fill left %d keys,"
          + " so about %.0f should be found", where, found, count, missed, distinct, count * p));
    }
  }

  /** YCSB 0.17 exits 0 even when init() failed: check that every operation was done and none failed. */
  private static void checkYcsb(String where, Map<String, String> out, String op, int expected, boolean mustFind) {
    checkReturns(where, out, "Return=BATCHED_OK");
    long done = Long.parseLong(out.getOrDefault("[" + op + "], Return=OK", "0"))
        + Long.parseLong(out.getOrDefault("[" + op + "], Return=BATCHED_OK", "0"));
    if (mustFind && done != expected) {
      throw new StepFailed(where + ": " + done + " of " + expected + " " + op + " operations returned OK");
    }
  }

  /** YCSB printed its [OVERALL] line, and every Return= line is OK or ends with {@code allowed}. */
  private static void checkReturns(String where, Map<String, String> out, String allowed) {
    if (!out.containsKey("[OVERALL], RunTime(ms)")) {
      throw new StepFailed(where + ": YCSB printed no [OVERALL] line");
    }
    for (String k : out.keySet()) {
      if (k.contains("Return=") && !k.endsWith("Return=OK") && !k.endsWith(allowed)) {
        throw new StepFailed(where + ": " + k + ", " + out.get(k));
      }
    }
  }

  /** A child JVM's command up to its main class: this JVM's java, class path and library path, the heap. */
  static List<String> java(String heap) {
    return new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + heap, "--enable-native-access=ALL-UNNAMED",
        "-Djava.library.path=" + System.getProperty("java.library.path"),
        "-cp", System.getProperty("java.class.path")));
  }

  private int stepNumber;

  private Path freshDir(String layer) throws IOException {
    cleanStepData();
    return Files.createDirectories(base.resolve(String.format(Locale.ROOT, "step-%04d-%s", ++stepNumber, layer)));
  }

  /** Runs one child process, its stderr to a file beside its data; its stdout, or StepFailed on a hang or an exit. */
  private String step(String where, List<String> cmd) throws Exception {
    Path err = base.resolve(String.format(Locale.ROOT, "step-%04d.stderr", stepNumber));
    Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(STEP_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new StepFailed(where + ": no end after " + STEP_TIMEOUT_MINUTES + " minutes");
    }
    String stdout = new String(out, StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      List<String> lines = Files.readAllLines(err);
      throw new StepFailed(where + ": exit " + p.exitValue() + ": "
          + String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size())) + " (" + cmd + ")");
    }
    return stdout;
  }

  /** The previous step's database goes before the next one starts: the disk holds one at a time. */
  private void cleanStepData() throws IOException {
    try (java.util.stream.Stream<Path> dirs = Files.list(base)) {
      for (Path d : (Iterable<Path>) dirs.filter(Files::isDirectory)::iterator) {
        deleteTree(d);
      }
    }
  }

  /** "name=value" words of a step's line; the last one, library=, runs to the end of the line. */
  private static Map<String, String> keyValues(String stdout) {
    String line = stdout.strip();
    line = line.substring(line.lastIndexOf('\n') + 1);
    Map<String, String> m = new HashMap<>();
    int lib = line.indexOf(" library=");
    if (lib >= 0) {
      m.put("library", line.substring(lib + " library=".length()));
      line = line.substring(0, lib);
    }
    for (String w : line.split(" ")) {
      int eq = w.indexOf('=');
      if (eq > 0) {
        m.put(w.substring(0, eq), w.substring(eq + 1));
      }
    }
    if (!m.containsKey("us_per_op")) {
      throw new StepFailed("no us_per_op in the step's output: " + stdout);
    }
    return m;
  }

  private static void add(Map<String, List<Double>> cells, String column, double v) {
    cells.computeIfAbsent(column, k -> new ArrayList<>()).add(v);
  }

  private static double last(Map<String, List<Double>> cells, String column) {
    List<Double> v = cells.get(column);
    return v.get(v.size() - 1);
  }

  private void printTables(int rounds) {
    for (Map.Entry<String, Map<LayerShape, Map<String, List<Double>>>> e : figures.entrySet()) {
      String[] v = versionsOf(e.getKey());
      report.println();
      report.printf(Locale.ROOT, "%s: us/op, median of %d round(s)%n", e.getKey(), rounds);
      report.printf(Locale.ROOT, "  (a) floor: %s%n", v[0]);
      if (v[2] != null) {
        report.printf(Locale.ROOT, "  (a') floor over the Java library's own engine build: %s%n", v[2]);
      }
      report.printf(Locale.ROOT, "  (b) Java library: %s%n", v[1]);
      if (v[0] != null && v[1] != null && !engineVersion(v[0]).equals(engineVersion(v[1]))) {
        report.printf(Locale.ROOT, "  NOTE: the floor runs %s, the Java library %s: (b)-(a) includes the"
            + " difference between the engine versions%s%n", engineVersion(v[0]), engineVersion(v[1]),
            v[2] != null ? "; (a')/(a) is that difference alone (the same C loop over both builds), and (a')/(d)"
                + " is the ratio to judge the binding by" : "");
      }
      if (v[0] != null && v[0].contains("assertions")) {
        report.println("  WARNING: Debian's librocksdb is built with assertions on: (a) is slower than a release"
            + " build would be, and (a)/(d) flatters the upper layers");
      }
      report.printf(Locale.ROOT, "  %-14s" + " %8s".repeat(19) + "%n",
          "shape", "(a) C", "(a') C", "(b) lib", "(c) bind", "(d0) lib", "(d) ycsb", "(d) yc-us", "(d) wall",
          "(e) null", "(e) wall", "(b)-(a)", "(c)-(b)", "(d0)-(b)", "(d)-(d0)", "(a)/(d0)", "(a)/(d)", "(a')/(a)",
          "(a')/(d0)", "(a')/(d)");
      for (Map.Entry<LayerShape, Map<String, List<Double>>> row : e.getValue().entrySet()) {
        Map<String, Double> m = new HashMap<>();
        for (String c : COLUMNS) {
          m.put(c, Alternation.median(row.getValue().get(c)));
        }
        report.printf(Locale.ROOT, "  %-14s" + " %s".repeat(19) + "%n", row.getKey().id,
            cell(m.get("a")), cell(m.get("a2")), cell(m.get("b")), cell(m.get("c")), cell(m.get("d0")),
            cell(m.get("d")), cell(m.get("dyc")), cell(m.get("dwall")), cell(m.get("e")), cell(m.get("ewall")),
            cell(m.get("b") - m.get("a")), cell(m.get("c") - m.get("b")), cell(m.get("d0") - m.get("b")),
            cell(m.get("d") - m.get("d0")), ratio(m.get("a") / m.get("d0")), ratio(m.get("a") / m.get("d")),
            ratio(m.get("a2") / m.get("a")), ratio(m.get("a2") / m.get("d0")), ratio(m.get("a2") / m.get("d")));
      }
    }
    report.println();
    report.println("(d0) lib = YCSB's client around LibraryDB, which makes only layer (b)'s library calls,"
        + " in-operation ns / entries: (a)/(d0) is the most a binding making the library's own calls reaches"
        + " through YCSB here, (d)-(d0) the binding's cost inside YCSB's client; (d) ycsb = the measured"
        + " operation's time inside the binding, in ns (NanoTimedDB around it in YCSB's client) / entries;"
        + " (d) yc-us = YCSB's AverageLatency(us) x Operations / entries, which counts each operation in whole"
        + " microseconds (0.3-0.4 us low per 100-byte operation); (d) wall = [OVERALL] RunTime / entries (open"
        + " and close included); (a)/(d) = the share of the floor's throughput that (d) reaches; (a')/(a) = the"
        + " C loop's time on the Java library's engine build over its time on the system library's. readseq is"
        + " one pass: per entry.");
  }

  private static String engineVersion(String library) {
    String[] w = library.split(" ");
    return w.length > 1 ? w[0] + " " + w[1] : library;
  }

  private static String ratio(double r) {
    return Double.isNaN(r) ? String.format(Locale.ROOT, "%8s", "-") : String.format(Locale.ROOT, "%8.2f", r);
  }

  private static String cell(double us) {
    if (Double.isNaN(us)) {
      return String.format(Locale.ROOT, "%8s", "-");
    }
    return String.format(Locale.ROOT, Math.abs(us) >= 100 ? "%8.0f" : Math.abs(us) >= 10 ? "%8.1f" : "%8.3f", us);
  }

  /** Deletes a directory tree, if there is one. */
  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (java.util.stream.Stream<Path> files = Files.walk(root)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  /** A step that failed: the run goes on, and ends with exit status 1. */
  static final class StepFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StepFailed(String message) {
      super(message);
    }
  }
}
