package site.ycsb.embedded.harness;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import site.ycsb.DB;
import site.ycsb.Utils;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;
import site.ycsb.embedded.ClientExitStatus;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.OncePerJvm;
import site.ycsb.embedded.Preflight;
import site.ycsb.embedded.Warmup;
import site.ycsb.measurements.Measurements;
import site.ycsb.measurements.exporter.MeasurementsExporter;
import site.ycsb.measurements.exporter.TextMeasurementsExporter;

/**
 * One measured step (a YCSB load or run) in this JVM, with YCSB 0.17 Client's semantics and output: the workload
 * made and initialised from the step's properties, one DB per client thread, the operations split among the
 * threads as Client splits them ({@code operationcount}, or {@code insertcount}, or {@code recordcount}), the
 * {@code -target} schedule, {@code maxexecutiontime}, the status line, then {@code [OVERALL]}, the GC lines and
 * every operation's measurements through the chosen exporter. The measurements are a {@code Measurements} of the
 * step's own, so that one JVM measures many steps. Where it differs from Client: the DBs open before the clock
 * starts and the warm-up runs between the open and the clock ({@link ClientLoop}), so that a refused open refuses
 * the step before anything is warmed or measured, and a step's GC lines count its own collections.
 */
final class Step {

  /** {@code true}: a stderr line after the step with the bytes its client threads allocated per operation. */
  static final String ALLOCATION_REPORT = "allocation.report";

  /** The step's exit status and why (null for 0). */
  record Outcome(int status, String reason) {
    static final Outcome OK = new Outcome(0, null);
  }

  private Step() {
  }

  /**
   * Runs the step {@code props} describe (YCSB's client properties: {@code YcsbArguments}); {@code warm}: whether
   * to run the warm-up before its clock starts. What YCSB prints goes to System.out and System.err as they are.
   */
  static Outcome run(Properties props, boolean warm) {
    OncePerJvm.forgetAll(); // a step of a cell says its own notes and warnings, as a JVM of its own would
    try { // before anything runs: a value YCSB cannot use, a name no part of the run reads
      for (String warning : Preflight.check(props, List.of(Progress.FILE, Progress.MILLIS), true)) {
        System.err.println("[ycsb-embedded] " + warning);
      }
    } catch (EngineProperties.BadPropertyException e) {
      return new Outcome(ClientExitStatus.REFUSED, "refused before anything ran: " + e.getMessage());
    }
    boolean status = Boolean.parseBoolean(props.getProperty("status", "false"));
    // seconds, as YCSB's; a fraction too (Preflight.check): a timed step of the suite's quick run lasts 2.3 s
    long maxExecutionMillis = Math.round(Double.parseDouble(props.getProperty("maxexecutiontime", "0")) * 1000);
    int threadcount = Integer.parseInt(props.getProperty("threadcount", "1"));
    String dbname = props.getProperty("db", "site.ycsb.BasicDB");
    double targetPerThreadPerMs = targetPerThreadPerMs(props, threadcount);
    boolean transactions = Boolean.parseBoolean(props.getProperty("dotransactions", "true"));

    Measurements.setProperties(props); // the workload's own measurements (CoreWorkload's read-modify-write)
    Workload workload;
    try {
      workload = (Workload) Class.forName(props.getProperty("workload")).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
      e.printStackTrace();
      e.printStackTrace(System.out);
      return new Outcome(ClientExitStatus.REFUSED, "the workload class " + props.getProperty("workload")
          + " cannot be made: " + e);
    }
    Measurements singleton = Measurements.getMeasurements();
    String singletonBefore = singleton.getSummary().trim();
    try {
      workload.init(props);
    } catch (WorkloadException | RuntimeException e) {
      e.printStackTrace();
      e.printStackTrace(System.out);
      return new Outcome(ClientExitStatus.REFUSED, "the workload refused to start: " + e.getMessage());
    }
    System.err.println("Starting test.");
    Measurements measurements = new Measurements(props);

    int opcount;
    if (transactions) {
      opcount = Integer.parseInt(props.getProperty("operationcount", "0"));
    } else if (props.containsKey("insertcount")) {
      opcount = Integer.parseInt(props.getProperty("insertcount", "0"));
    } else {
      opcount = Integer.parseInt(props.getProperty("recordcount", "0"));
    }
    if (threadcount > opcount && opcount > 0) {
      threadcount = opcount;
      System.out.println("Warning: the threadcount is bigger than recordcount, the threadcount will be recordcount!");
    }
    AtomicLong errors = new AtomicLong();
    CountDownLatch done = new CountDownLatch(threadcount);
    ClientLoop.Gate gate = new ClientLoop.Gate(threadcount);
    List<ClientLoop> clients = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int id = 0; id < threadcount; id++) {
      DB db;
      try {
        db = (DB) Class.forName(dbname).getDeclaredConstructor().newInstance();
      } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
        System.out.println("Unknown DB " + dbname);
        System.out.println("Error initializing datastore bindings.");
        gate.go(false);
        return new Outcome(ClientExitStatus.REFUSED, "unknown DB " + dbname + ": " + e);
      }
      db.setProperties(props);
      MeasuredDB measured = new MeasuredDB(db, measurements, errors);
      int share = opcount / threadcount + (id < opcount % threadcount ? 1 : 0);
      ClientLoop c = new ClientLoop(measured, transactions, workload, props, share, targetPerThreadPerMs, measurements,
          targetPerThreadPerMs > 0 ? singleton : null, id, threadcount, gate, done);
      clients.add(c);
      Thread t = new Thread(c, "client-" + id);
      threads.add(t);
      t.start();
    }
    Outcome refused = awaitOpened(gate, clients);
    if (refused == null && warm) {
      refused = warmUp(props);
    }
    if (refused != null) {
      gate.go(false);
      join(threads);
      cleanup(workload);
      return refused;
    }
    Map<String, Long[]> gcBefore = Utils.getGCStatst();
    Progress progress = new Progress(clients, done, measurements, props, status);
    progress.start(); // its first status line says "0 sec: 0 operations", as YCSB's does
    long st = System.currentTimeMillis();
    gate.go(true);
    Thread terminator = null;
    if (maxExecutionMillis > 0) {
      terminator = terminator(maxExecutionMillis, workload);
      terminator.start();
    }
    int opsDone = 0;
    join(threads);
    for (ClientLoop c : clients) {
      opsDone += c.opsDone();
    }
    long en = System.currentTimeMillis();
    if (terminator != null && !terminator.isInterrupted()) {
      terminator.interrupt();
    }
    join(List.of(progress));
    if (Boolean.parseBoolean(props.getProperty(ALLOCATION_REPORT, "false"))) {
      System.err.println(allocationLine(clients, opsDone));
    }
    Outcome cleaned = cleanup(workload);
    try {
      progress.writeIntervals();
      String singletonAfter = singleton.getSummary().trim();
      boolean ownMeasured = !singletonAfter.isEmpty() && !singletonAfter.equals(singletonBefore);
      if (ownMeasured && !singletonBefore.isEmpty()) {
        return new Outcome(ClientExitStatus.FAILED_OPERATIONS, "the workload measured its own operations ("
            + singletonAfter + ") into YCSB's figures, which an earlier step of this JVM measured into too: this"
            + " step's cannot be told apart; run it in a JVM of its own");
      }
      export(props, opsDone, en - st, measurements, ownMeasured ? singleton : null, progress, gcBefore);
    } catch (IOException e) {
      System.err.println("Could not export measurements, error: " + e.getMessage());
      e.printStackTrace();
      return new Outcome(ClientExitStatus.FAILED_OPERATIONS, "could not export the measurements: " + e);
    }
    for (ClientLoop c : clients) {
      if (c.failure() != null) {
        return new Outcome(ClientExitStatus.FAILED_OPERATIONS, "a client thread stopped on " + c.failure());
      }
    }
    if (cleaned != null) {
      return cleaned;
    }
    if (errors.get() > 0) {
      return new Outcome(ClientExitStatus.FAILED_OPERATIONS, errors.get() + " operation(s) returned ERROR (their"
          + " causes are printed above)");
    }
    return Outcome.OK;
  }

  /**
   * Each client thread's share of {@code target} (operations per second, all threads together) in operations per
   * millisecond, or -1 for none, as YCSB's Client computes it; the target may have a fraction (Preflight.check: a
   * rate of 1500.5 a second), where Client parses a whole number, whose share is the same here as there.
   */
  static double targetPerThreadPerMs(Properties props, int threadcount) {
    double target = Double.parseDouble(props.getProperty("target", "0"));
    return target > 0 ? target / threadcount / 1000.0 : -1;
  }

  /**
   * YCSB's {@code TerminatorThread} for a time in milliseconds: after it, the workload is asked to stop (the client
   * threads check between operations), with YCSB's words on stderr. The step joins the threads itself.
   */
  private static Thread terminator(long millis, Workload workload) {
    Thread t = new Thread(() -> {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        return; // the operations ended first
      }
      System.err.println("Maximum time elapsed. Requesting stop for the workload.");
      workload.requestStop();
      System.err.println("Stop requested for workload. Now Joining!");
    }, "terminator");
    t.setDaemon(true);
    return t;
  }

  /**
   * What the client threads allocated in their loops (workload, driver, binding and engine library together; not
   * the opens and closes), from the JVM's per-thread counters: a figure that does not depend on a quiet machine.
   */
  static String allocationLine(List<ClientLoop> clients, long ops) {
    long bytes = 0;
    for (ClientLoop c : clients) {
      if (c.allocatedBytes() < 0) {
        return "[ycsb-embedded] allocated: unknown (this JVM does not count each thread's allocated bytes)";
      }
      bytes += c.allocatedBytes();
    }
    long tenths = ops == 0 ? 0 : Math.round(bytes * 10.0 / ops);
    return "[ycsb-embedded] allocated: " + tenths / 10 + "." + tenths % 10 + " bytes per operation in the client"
        + " threads' operations (" + bytes + " bytes over " + ops + " operations)";
  }

  /** Waits until every client thread opened its DB: the first refusal, or null. */
  private static Outcome awaitOpened(ClientLoop.Gate gate, List<ClientLoop> clients) {
    try {
      gate.opened.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome(ClientExitStatus.REFUSED, "interrupted while the client threads opened the database");
    }
    for (ClientLoop c : clients) {
      if (c.refused() != null) {
        return new Outcome(ClientExitStatus.REFUSED, (c.refused() instanceof WorkloadException
            ? "the workload refused to start: " : "the binding refused to open: ") + c.refused().getMessage());
      }
    }
    return null;
  }

  /** The warm-up on a scratch database, its line on stderr; a refusal it meets, or null. */
  private static Outcome warmUp(Properties props) {
    try {
      System.err.println(Warmup.run(props));
      System.err.flush();
      return null;
    } catch (EngineProperties.BadPropertyException | Warmup.Failed e) {
      return new Outcome(ClientExitStatus.REFUSED, e.getMessage());
    }
  }

  private static Outcome cleanup(Workload workload) {
    try {
      workload.cleanup();
      return null;
    } catch (WorkloadException e) {
      e.printStackTrace();
      e.printStackTrace(System.out);
      return new Outcome(ClientExitStatus.FAILED_OPERATIONS, "the workload's cleanup failed: " + e.getMessage());
    }
  }

  private static void join(List<Thread> threads) {
    for (Thread t : threads) {
      boolean interrupted = false;
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** YCSB 0.17 Client's export: the overall figures, the step's GC lines, then every operation's measurements. */
  private static void export(Properties props, int opcount, long runtime, Measurements measurements,
      Measurements workloadOwn, Progress progress, Map<String, Long[]> gcBefore) throws IOException {
    MeasurementsExporter exporter = null;
    try {
      String exportFile = props.getProperty("exportfile");
      OutputStream out = exportFile == null ? System.out : new FileOutputStream(exportFile);
      String exporterName = props.getProperty("exporter", TextMeasurementsExporter.class.getName());
      try {
        exporter = (MeasurementsExporter) Class.forName(exporterName).getConstructor(OutputStream.class)
            .newInstance(out);
      } catch (Exception e) {
        System.err.println("Could not find exporter " + exporterName + ", will use default text reporter.");
        e.printStackTrace();
        exporter = new TextMeasurementsExporter(out);
      }
      exporter.write("OVERALL", "RunTime(ms)", runtime);
      exporter.write("OVERALL", "Throughput(ops/sec)", 1000.0 * opcount / runtime);
      long totalCount = 0;
      long totalTime = 0;
      for (Map.Entry<String, Long[]> e : Utils.getGCStatst().entrySet()) {
        Long[] before = gcBefore.getOrDefault(e.getKey(), new Long[] {0L, 0L});
        long count = e.getValue()[0] - before[0];
        long time = e.getValue()[1] - before[1];
        exporter.write("TOTAL_GCS_" + e.getKey(), "Count", count);
        exporter.write("TOTAL_GC_TIME_" + e.getKey(), "Time(ms)", time);
        exporter.write("TOTAL_GC_TIME_%_" + e.getKey(), "Time(%)", (double) time / runtime * 100);
        totalCount += count;
        totalTime += time;
      }
      exporter.write("TOTAL_GCs", "Count", totalCount);
      exporter.write("TOTAL_GC_TIME", "Time(ms)", totalTime);
      exporter.write("TOTAL_GC_TIME_%", "Time(%)", (double) totalTime / runtime * 100);
      if (progress.tracksJvm()) {
        exporter.write("MAX_MEM_USED", "MBs", progress.maxUsedMem());
        exporter.write("MIN_MEM_USED", "MBs", progress.minUsedMem());
        exporter.write("MAX_THREADS", "Count", progress.maxThreads());
        exporter.write("MIN_THREADS", "Count", progress.minThreads());
        exporter.write("MAX_SYS_LOAD_AVG", "Load", progress.maxLoadAvg());
        exporter.write("MIN_SYS_LOAD_AVG", "Load", progress.minLoadAvg());
      }
      measurements.exportMeasurements(exporter);
      if (workloadOwn != null) {
        workloadOwn.exportMeasurements(exporter);
      }
    } finally {
      if (exporter != null) {
        exporter.close();
      }
    }
  }
}
