package site.ycsb.embedded.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.htrace.core.HTraceConfiguration;
import org.apache.htrace.core.Tracer;

import site.ycsb.ClientThread;
import site.ycsb.DB;
import site.ycsb.DBFactory;
import site.ycsb.Workload;
import site.ycsb.embedded.NothingDB;
import site.ycsb.embedded.workload.EmbeddedWorkload;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * What YCSB's client itself costs per operation, and how much of it is the workload class: YCSB 0.17's own
 * {@code ClientThread} and {@code DBWrapper} (its per-operation measurement included) around {@link NothingDB},
 * once with upstream's {@code CoreWorkload} and once with the project's {@code EmbeddedWorkload} and the 2011
 * shape's workload files, in one JVM, the two alternating in each round. Each step's figure is the thread's
 * wall time over its operations; both workloads write one 100-byte field and read all fields.
 *
 * <p>The question client-cost of {@link Bench} [--ops N] [--rounds R]. Each step runs once untimed first (the JIT),
 * then R rounds ({@link Alternation}); the table gives the medians.
 */
public final class ClientCost {

  /** The steps: (name, project workload file, CoreWorkload's proportions). */
  private static final String[][] STEPS = {
    {"load", "randwrite", ""},
    {"read", "randread", "readproportion=1"},
  };
  private static final String[] WORKLOADS = {"core", "ours"};

  private ClientCost() {
  }

  /** client-cost: the table of medians after a line per round. */
  static int run(Bench.Options o, PrintStream out) throws Exception {
    int ops = o.integer("--ops");
    int rounds = o.integer("--rounds");
    out.printf(Locale.ROOT, "client cost: YCSB 0.17's ClientThread and DBWrapper around NothingDB, %,d"
        + " operations a step, %d round(s) after an untimed one, one JVM; ns per operation (thread wall time /"
        + " operations)%n  core = CoreWorkload, 1 field of 100 bytes, YCSB's hashed keys, uniform reads;"
        + " ours = EmbeddedWorkload with workloads/randwrite and randread (16-byte decimal keys drawn with"
        + " replacement, values compressible to 0.5)%n", ops, rounds);
    Map<String, double[]> medians = measure(o.workloads(), ops, rounds, out);
    out.printf(Locale.ROOT, "median of %d round(s), ns/op:%n  %-6s %12s %18s %12s%n", rounds, "step",
        "CoreWorkload", "EmbeddedWorkload", "ours - core");
    for (String[] step : STEPS) {
      double core = medians.get(step[0] + " core")[0];
      double ours = medians.get(step[0] + " ours")[0];
      out.printf(Locale.ROOT, "  %-6s %12.1f %18.1f %+12.1f%n", step[0], core, ours, ours - core);
    }
    return 0;
  }

  /**
   * "load core", "load ours", "read core", "read ours" -> {median ns/op, then each round's}, after one
   * untimed pass of each; a line per round on {@code out} unless it is null.
   */
  static Map<String, double[]> measure(Path workloads, int ops, int rounds, PrintStream out) throws Exception {
    Properties measurement = new Properties(); // YCSB's defaults: an HdrHistogram per operation
    Measurements.setProperties(measurement);
    Alternation steps = new Alternation().untimed(1);
    for (String[] step : STEPS) {
      for (String workload : WORKLOADS) {
        steps.path(step[0] + " " + workload, r -> new double[] {nanosPerOperation(properties(workloads, step, workload,
            ops), step[0].equals("read"), ops)});
      }
    }
    Map<String, double[][]> figures = steps.run(rounds, (r, f) -> {
      if (out != null) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  round %d:", r + 1));
        f.forEach((name, ns) -> line.append(String.format(Locale.ROOT, " %s %.1f", name, ns[0])));
        out.println(line);
      }
    });
    Map<String, double[]> medians = new LinkedHashMap<>();
    figures.forEach((name, rows) -> {
      double[] ns = Alternation.column(rows, 0);
      double[] row = new double[ns.length + 1];
      System.arraycopy(ns, 0, row, 1, ns.length);
      row[0] = Alternation.median(ns);
      medians.put(name, row);
    });
    return medians;
  }

  private static Properties properties(Path workloads, String[] step, String workload, int ops) throws IOException {
    Properties p = new Properties();
    if (workload.equals("ours")) {
      try (InputStream in = Files.newInputStream(workloads.resolve(step[1]))) {
        p.load(in);
      }
      p.setProperty("workload", EmbeddedWorkload.class.getName());
    } else {
      p.setProperty("workload", CoreWorkload.class.getName());
      for (String kv : List.of("fieldcount=1", "fieldlength=100", "readallfields=true", "writeallfields=true",
          "requestdistribution=uniform", "readproportion=0", "updateproportion=0", "scanproportion=0",
          "insertproportion=0", step[2])) {
        if (!kv.isEmpty()) {
          p.setProperty(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
      }
    }
    p.setProperty("recordcount", Integer.toString(ops));
    p.setProperty("operationcount", Integer.toString(ops));
    return p;
  }

  /** One step: a fresh workload instance, YCSB's ClientThread on the calling thread, wall time per operation. */
  private static double nanosPerOperation(Properties p, boolean run, int ops) throws Exception {
    Workload workload = (Workload) Class.forName(p.getProperty("workload")).getDeclaredConstructor().newInstance();
    workload.init(p);
    Tracer tracer = new Tracer.Builder("ClientCost").conf(HTraceConfiguration.EMPTY).build();
    DB db = DBFactory.newDB(NothingDB.class.getName(), p, tracer);
    ClientThread thread = new ClientThread(db, run, workload, p, ops, 0, new CountDownLatch(1));
    thread.setThreadId(0);
    thread.setThreadCount(1);
    long start = System.nanoTime();
    thread.run();
    long elapsed = System.nanoTime() - start;
    workload.cleanup();
    tracer.close();
    if (thread.getOpsDone() != ops) {
      throw new IllegalStateException(p.getProperty("workload") + " did " + thread.getOpsDone() + " of " + ops
          + " operations");
    }
    return (double) elapsed / ops;
  }
}
