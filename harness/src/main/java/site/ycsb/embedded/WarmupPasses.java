package site.ycsb.embedded;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import site.ycsb.ClientThread;
import site.ycsb.DB;
import site.ycsb.Workload;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * The warm-up's operations on its scratch database ({@link ScratchDatabase}): a load's own inserts, pass after pass
 * on a fresh database, or a run's own transactions after loading up to {@value #RUN_RECORDS} records; each pass
 * opens one DB per client thread, as YCSB's client does, and runs them through YCSB's {@code ClientThread} around
 * {@link WarmupMeasured}'s views, or through the driver's own classes ({@link Warmup.Wrapper}).
 */
final class WarmupPasses {

  /**
   * The most records a run's warm-up loads into its scratch database before its transactions: enough for the
   * workload's keys to find records, few enough that the load is quick next to the transactions that it precedes.
   */
  static final int RUN_RECORDS = 2_000;
  /** How often the warm-up reads its own measurements' interval figures, as a status line would. */
  static final long READ_EVERY_MILLIS = 50;

  private WarmupPasses() {
  }

  /** Creates {@code where}'s scratch directory, runs the passes, deletes it; returns what ran. */
  static Ran run(ScratchDatabase where, Properties props, String dbClass, boolean nano, WarmupLimits limits)
      throws Exception {
    Properties base = where.baseProperties(props);
    noOwnMeasurements(base);
    Path root = where.create();
    Ran ran = new Ran(root);
    long time = (long) (limits.seconds() * 1e9); // of operations: each pass's clock starts after its open
    AtomicLong budget = new AtomicLong(limits.operations());
    boolean load = !Boolean.parseBoolean(props.getProperty("dotransactions", "true"));
    int threads = Math.max(1, Integer.parseInt(props.getProperty("threadcount", "1").trim()));
    long records = Math.max(1, Long.parseLong(props.getProperty("recordcount", "1000").trim()));
    try {
      if (load) {
        // the phase's own inserts, as many per pass as the real load makes, each pass on a fresh database
        for (int pass = 1; budget.get() > 0 && time > 0; pass++) {
          long start = System.nanoTime();
          Properties p = where.passProperties(base, root, pass, nano);
          long n = Math.min(records, budget.get());
          long[] done = pass(p, dbClass, threads, new Phase(sized(p, n, false), true, new AtomicLong(n), time),
              null);
          ran.inserted += done[0];
          ran.passes = pass;
          budget.addAndGet(-done[0]);
          if (root != null) {
            DirectoryListing.deleteTree(root.resolve("pass" + pass));
          }
          // the first open is not counted; every later pass's open, close and delete are, so that a small load
          // (many passes) stays within the time asked
          time -= pass == 1 ? done[2] : System.nanoTime() - start;
          if (done[0] < n) {
            break; // the time ran out first
          }
        }
      } else {
        // up to RUN_RECORDS records, loaded in at most a quarter of the time, then the run's own transactions for
        // the whole time (their clock starts after the load)
        Properties p = where.passProperties(base, root, 1, nano);
        long n = Math.min(records, RUN_RECORDS);
        // the records go in from one client: a run's set-up load is a step of its own, and concurrent writers
        // wait on each other's locks in some engines (SQLite's 4 threads: 10 s, then errors)
        long[] done = pass(p, dbClass, threads,
            new Phase(sized(p, n, false), true, new AtomicLong(n), time / 4, 1),
            new Phase(sized(p, n, true), false, budget, time));
        ran.loaded = done[0];
        ran.transactions = done[1];
        ran.transactionNanos = done[3];
        ran.passes = 1;
      }
      ran.stoppedBy = budget.get() <= 0 ? Warmup.OPERATIONS : Warmup.SECONDS;
    } finally {
      if (root != null) {
        DirectoryListing.deleteTree(root);
      }
    }
    ran.nanos = System.nanoTime() - ran.start;
    return ran;
  }

  /** What the warm-up ran. */
  static final class Ran {
    final long start = System.nanoTime();
    final Path root;
    long inserted;
    long loaded;
    long transactions;
    long transactionNanos;
    int passes;
    long nanos;
    String stoppedBy;

    Ran(Path root) {
      this.root = root;
    }

    String describe(Properties props, String target, ScratchDatabase where, WarmupLimits limits) {
      int threads = Integer.parseInt(props.getProperty("threadcount", "1").trim());
      String what = transactions > 0 || loaded > 0
          ? transactions + " transactions in " + Warmup.decimal(transactionNanos / 1e9) + " s after loading " + loaded
              + " records"
          : inserted + " inserts" + (passes > 1 ? " in " + passes + " passes on fresh databases" : "");
      String on = root == null ? "on " + target + " itself (it keeps no data)"
          : "on a scratch " + where.engine + " database in " + root + " (deleted)";
      return what + " with " + threads + " thread" + (threads == 1 ? "" : "s") + " of "
          + props.getProperty("workload") + " " + on + ", " + Warmup.decimal(nanos / 1e9) + " s with the opens"
          + " (stopped by " + stoppedBy + "; " + limits.describe() + ")";
    }
  }

  /** A phase of a pass: its workload and operations; {@code clients}: at most this many of the pass's DBs run it. */
  record Phase(Workload workload, boolean insert, AtomicLong budget, long nanos, int clients) {
    Phase(Workload workload, boolean insert, AtomicLong budget, long nanos) {
      this(workload, insert, budget, nanos, Integer.MAX_VALUE);
    }
  }

  /**
   * YCSB's client threads ran no operation on the scratch database: the workload gave none (a trace whose load
   * has no key to insert, a stream already at its end), or the scratch open failed, which the real open then
   * meets and reports itself. Neither is the measured phase's failure: it runs cold.
   */
  static final class NoOperation extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoOperation() {
      super("YCSB's client threads ran no operation on the scratch database (the workload gave none, or the"
          + " scratch open failed, which the real open would meet too); the scratch directory is deleted and the"
          + " measured phase runs without a warm-up");
    }
  }

  /**
   * Operations returned ERROR on the scratch database (a disk filling up, say): the warm-up stops there, and the
   * measured phase meets whatever is real about it on its own.
   */
  static final class ScratchErrors extends Exception {
    private static final long serialVersionUID = 1L;
    final long count;

    ScratchErrors(long count) {
      super(count + " operation(s) returned ERROR on the scratch database");
      this.count = count;
    }
  }

  /**
   * Runs one pass: opens one DB per thread (as YCSB's client threads do), runs the {@code first} phase, then the
   * {@code then} phase when it is not null (its time counted from its own start), and closes them. Returns each
   * phase's count of operations, the nanoseconds from the last open to the last operation, and the {@code then}
   * phase's own nanoseconds.
   */
  private static long[] pass(Properties p, String dbClass, int threads, Phase first, Phase then) throws Exception {
    Measurements own = ownMeasurements(p);
    AtomicLong errors = new AtomicLong();
    List<DB> opened = new ArrayList<>();
    long[] done = new long[4];
    Exception failure = null;
    try {
      for (int t = 0; t < threads; t++) {
        DB db = newDb(dbClass);
        Properties mine = new Properties();
        mine.putAll(p);
        db.setProperties(mine);
        db.init();
        opened.add(db);
      }
      long t0 = System.nanoTime(); // the time limit counts operations, not opens
      done[0] = phase(first, opened, own, errors, p, t0);
      if (then != null) {
        long t1 = System.nanoTime();
        done[1] = phase(then, opened, own, errors, p, t1);
        done[3] = System.nanoTime() - t1;
      }
      done[2] = System.nanoTime() - t0;
    } catch (Exception e) {
      failure = e;
    } finally {
      for (DB db : opened) {
        try {
          db.cleanup();
        } catch (Exception e) {
          if (failure == null) {
            failure = e;
          } else {
            failure.addSuppressed(e);
          }
        }
      }
    }
    first.workload.cleanup();
    if (then != null) {
      then.workload.cleanup();
    }
    if (failure != null) {
      throw failure;
    }
    if (errors.get() > 0) {
      throw new ScratchErrors(errors.get());
    }
    return done;
  }

  /**
   * One phase's operations through YCSB's own {@code ClientThread} (public; it measures nothing itself, so its
   * loop is compiled without a warm-up operation reaching YCSB's figures), one per open DB, in rounds: each
   * round hands the workload the next class of {@link WarmupMeasured#view}. Stops at the phase's budget or deadline
   * (the workload's stop request, which YCSB's client threads check between operations).
   */
  private static long phase(Phase phase, List<DB> dbs, Measurements own, AtomicLong errors, Properties p, long t0)
      throws InterruptedException {
    long deadline = t0 + phase.nanos;
    long done = 0;
    Warmup.Wrapper wrap = Warmup.wrapper();
    int views = wrap == null ? WarmupMeasured.VIEWS : 1; // a driver's own wrapper is the measured phase's class itself
    for (int view = 0; view < views && !phase.workload.isStopRequested(); view++) {
      long round = Math.min(Integer.MAX_VALUE, phase.budget.get() / (views - view));
      int n = (int) Math.min(Math.min(dbs.size(), phase.clients()), round);
      if (n <= 0 || System.nanoTime() - deadline >= 0) {
        continue;
      }
      CountDownLatch latch = new CountDownLatch(n);
      List<Warmup.Client> clients = new ArrayList<>();
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        // YCSB's own split of the operations among its threads; never 0, which ClientThread takes as no limit
        int ops = (int) (round / n + (i < round % n ? 1 : 0));
        Warmup.Client c;
        if (wrap == null) {
          ClientThread y = new ClientThread(WarmupMeasured.view(view, dbs.get(i), own, errors, phase.workload),
              !phase.insert, phase.workload, p, ops, -1, latch);
          y.setThreadId(i);
          y.setThreadCount(n);
          c = new Warmup.Client() {
            @Override
            public void run() {
              y.run();
            }

            @Override
            public int opsDone() {
              return y.getOpsDone();
            }
          };
        } else {
          c = wrap.client(wrap.wrap(dbs.get(i), own, errors, phase.workload), !phase.insert, phase.workload, p, ops, i,
              n, latch);
        }
        clients.add(c);
        Thread t = new Thread(c, "warmup-" + i);
        threads.add(t);
        t.start();
      }
      if (!awaitReading(latch, deadline, own)) {
        phase.workload.requestStop();
      }
      for (Thread t : threads) {
        t.join();
      }
      long ran = 0;
      for (Warmup.Client c : clients) {
        ran += c.opsDone();
      }
      if (ran == 0 && !phase.workload.isStopRequested()) {
        throw new NoOperation();
      }
      done += ran;
      phase.budget.addAndGet(-ran);
    }
    return done;
  }

  /**
   * Waits for {@code latch} until {@code deadline} (System.nanoTime), reading {@code own}'s interval figures every
   * {@value #READ_EVERY_MILLIS} ms as the status line reads the measured phase's: each read flips the histograms'
   * writer phase, whose other branch a client thread would otherwise first take at the measured phase's first
   * status line (a deoptimisation of the measuring code at the clock's start). True when the latch reached zero.
   */
  private static boolean awaitReading(CountDownLatch latch, long deadline, Measurements own)
      throws InterruptedException {
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return latch.getCount() == 0;
      }
      if (latch.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(READ_EVERY_MILLIS)), TimeUnit.NANOSECONDS)) {
        return true;
      }
      own.getSummary();
    }
  }

  /** A fresh instance of the workload class, initialised for {@code records} records. */
  private static Workload sized(Properties base, long records, boolean transactions) throws Exception {
    Properties p = new Properties();
    p.putAll(base);
    p.setProperty("recordcount", Long.toString(records));
    p.setProperty(Workload.INSERT_START_PROPERTY, "0");
    p.setProperty(Workload.INSERT_COUNT_PROPERTY, Long.toString(records));
    p.setProperty("dotransactions", Boolean.toString(transactions));
    Workload w = (Workload) Class.forName(p.getProperty("workload")).getDeclaredConstructor().newInstance();
    w.init(p);
    return w;
  }

  /**
   * Read-modify-write's share goes to reads and updates, and the data-integrity check is off: CoreWorkload
   * (and EmbeddedWorkload) measure both into YCSB's own figures, which the warm-up must leave empty.
   */
  static void noOwnMeasurements(Properties p) {
    double rmw = Double.parseDouble(p.getProperty(CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY,
        CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY_DEFAULT));
    if (rmw > 0) {
      double read = Double.parseDouble(p.getProperty(CoreWorkload.READ_PROPORTION_PROPERTY,
          CoreWorkload.READ_PROPORTION_PROPERTY_DEFAULT));
      double update = Double.parseDouble(p.getProperty(CoreWorkload.UPDATE_PROPORTION_PROPERTY,
          CoreWorkload.UPDATE_PROPORTION_PROPERTY_DEFAULT));
      p.setProperty(CoreWorkload.READ_PROPORTION_PROPERTY, Double.toString(read + rmw));
      p.setProperty(CoreWorkload.UPDATE_PROPORTION_PROPERTY, Double.toString(update + rmw));
      p.setProperty(CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY, "0");
    }
    p.setProperty(CoreWorkload.DATA_INTEGRITY_PROPERTY, "false");
  }

  /** A Measurements of the warm-up's own, of the run's kind, writing no histogram log. */
  private static Measurements ownMeasurements(Properties p) {
    Properties m = new Properties();
    m.putAll(p);
    m.setProperty("hdrhistogram.fileoutput", "false");
    return new Measurements(m);
  }

  static DB newDb(String name) throws ReflectiveOperationException {
    return (DB) Class.forName(name).getDeclaredConstructor().newInstance();
  }
}
