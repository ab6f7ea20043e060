package site.ycsb.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import site.ycsb.ByteIterator;
import site.ycsb.ClientThread;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.Workload;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * The JIT's warm-up before YCSB's client measures anything: {@link CheckedClient} runs it in the JVM of
 * {@code bin/ycsb load|run}, before it hands the command line to {@code site.ycsb.Client}, whose clock starts
 * as it starts its client threads, each of which opens the database inside that clock.
 *
 * <p>It runs the phase's own code on a scratch database of the same engine, with the same properties, the
 * same workload class and the same number of threads, beside the real data directory (same filesystem,
 * never inside it) and deletes it after: a load warms up with inserts, a run with its own transactions
 * after loading up to {@value #RUN_RECORDS} records (in at most a quarter of the time; the transactions then have
 * the whole time of their own, so that a slow load, such as large records in a cold JVM, does not leave the
 * transactions too few calls for the JIT to compile them before the clock starts). The real database is neither
 * opened nor touched (the shared handle registry is keyed by path: the scratch path has a handle of its own, closed
 * before the measured phase opens the real one), so a load's warm-up adds no record to it and a run's changes
 * nothing.
 * It stops after {@code warmup.operations} operations or {@code warmup.seconds} seconds, whichever comes
 * first, then waits (up to {@value #QUIET_LIMIT_MILLIS} ms) until the JIT has compiled nothing for
 * {@value #QUIET_MILLIS} ms, so that the measured phase does not share the cores with the compiler.
 *
 * <p>What is warmed: YCSB's {@code ClientThread} (the operations run through it), the workload class, the
 * binding and its engine's native path (or the DB named by {@code nanotimed.db} inside {@link NanoTimedDB}),
 * and the per-operation calls YCSB's {@code DBWrapper} makes into its measurements ({@link Measured} makes
 * the same calls into a {@code Measurements} of its own). What stays cold: {@code DBWrapper} itself, which
 * measures into YCSB's singleton (private state, no reset): no warm-up operation may land in the measured
 * figures. The workload's own
 * measurement (CoreWorkload's read-modify-write, its data-integrity check) would, so the warm-up runs
 * read-modify-write's share as reads and updates and checks no integrity; a workload class of another
 * project that measures on its own is found after the warm-up and said in a warning.
 *
 * <p>What the scratch database and the engine print goes nowhere unless the warm-up fails: the start-up
 * lines of the measured phase are then the real database's alone, followed by this class's one line.
 */
public final class Warmup {

  /** At most this many operations: inserts in a load, transactions in a run; 0 turns the warm-up off. */
  public static final String OPERATIONS = "warmup.operations";
  /** At most this many seconds (a decimal number) of operations; 0 turns the warm-up off. */
  public static final String SECONDS = "warmup.seconds";
  /**
   * For a DB class that is not one of this project's bindings and keeps its data in a local directory: the
   * property naming that directory ({@code rocksdb.dir} for upstream's RocksDB binding), so that the warm-up
   * can put a scratch one beside it. Without it such a DB is not warmed.
   */
  public static final String PATH_PROPERTY = "warmup.pathproperty";

  static final long OPERATIONS_DEFAULT = 200_000;
  static final double SECONDS_DEFAULT = 2;
  /**
   * The most records a run's warm-up loads into its scratch database before its transactions: enough for the
   * workload's keys to find records, few enough that the load is quick next to the transactions that it precedes.
   */
  static final int RUN_RECORDS = 2_000;
  /** How long the JIT must have compiled nothing before the measured phase starts. */
  static final long QUIET_MILLIS = 100;
  /** How often the warm-up reads its own measurements' interval figures, as a status line would. */
  static final long READ_EVERY_MILLIS = 50;
  /** The longest wait for a quiet JIT. */
  static final long QUIET_LIMIT_MILLIS = 1_000;

  static final String TAG = "[ycsb-embedded] warm-up: ";

  /**
   * A driver of the project's own (harness/): the class it measures each operation with and the loop its client
   * threads run. Given, the warm-up runs those very classes around each scratch DB, already open, so that the
   * workload's calls and the loop are compiled as the measured phase runs them and the JIT throws nothing away
   * when the clock starts. Without one (YCSB's Client, whose DBWrapper the warm-up cannot make), it runs YCSB's
   * ClientThread and hands three classes of {@link Measured} in turn.
   */
  public interface Wrapper {
    /**
     * {@code db}, opened, measured into {@code m}; an operation that returns ERROR is counted in {@code errors} and
     * stops {@code workload}. Its init and cleanup must leave {@code db} as it is.
     */
    DB wrap(DB db, Measurements m, AtomicLong errors, Workload workload);

    /** A client thread's loop of {@code ops} operations on {@code db} (as wrapped), counting down {@code done}. */
    Client client(DB db, boolean transactions, Workload workload, Properties p, int ops, int id, int count,
        CountDownLatch done);
  }

  /** One client thread of the warm-up: its loop, and how many operations it ran. */
  public interface Client extends Runnable {
    int opsDone();
  }

  private static volatile Wrapper wrapper;

  /** Sets the driver's wrapper for every later warm-up of this JVM ({@link Wrapper}). */
  public static void measuredBy(Wrapper w) {
    wrapper = w;
  }

  private Warmup() {
  }

  /** The two limits; the warm-up runs only when both are above 0. */
  record Limits(long operations, double seconds, String bound) {
    Limits(long operations, double seconds) {
      this(operations, seconds, null);
    }

    boolean on() {
      return operations > 0 && seconds > 0;
    }

    String describe() {
      return OPERATIONS + "=" + operations + (bound == null ? "" : " (" + bound + ")") + ", " + SECONDS + "="
          + decimal(seconds);
    }
  }

  /**
   * The limits the properties ask for; a value that is not one is refused with the property's name. The default
   * operation count is bounded by the phase it warms: no more warm-up operations than the phase has (its insertcount
   * or recordcount in a load, its operationcount in a run), so that a short phase does not wait seconds for it.
   */
  static Limits limits(Properties p) {
    EngineProperties props = new EngineProperties(p, "warmup");
    long operations = props.integer(OPERATIONS, OPERATIONS_DEFAULT, 0L, Long.MAX_VALUE);
    double seconds = props.decimal(SECONDS, SECONDS_DEFAULT, 0, 3600);
    long phase = phaseOperations(p);
    if (props.isSet(OPERATIONS) || phase <= 0 || phase >= operations) {
      return new Limits(operations, seconds);
    }
    return new Limits(phase, seconds, "the default " + OPERATIONS_DEFAULT + " bounded by the phase's " + phase
        + " operations");
  }

  /** Whether {@code p} asks for a warm-up (both limits above 0); a value that is not a number is refused. */
  public static boolean isOn(Properties p) {
    return limits(p).on();
  }

  /** The operations of the phase a warm-up warms, as YCSB's client counts them; 0 when unbounded or unreadable. */
  static long phaseOperations(Properties p) {
    boolean run = Boolean.parseBoolean(p.getProperty("dotransactions", "true"));
    String count = run ? p.getProperty("operationcount", "0")
        : p.getProperty("insertcount", p.getProperty("recordcount", "0"));
    try {
      return Math.max(0, Long.parseLong(count.trim()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** No scratch directory could be made: the warm-up is skipped, and the real open meets the same directory. */
  static final class NoRoot extends Exception {
    private static final long serialVersionUID = 1L;

    NoRoot(String message) {
      super(message);
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

  /** A warm-up that could not run: the measured phase must not start without a word. */
  public static final class Failed extends Exception {
    private static final long serialVersionUID = 1L;

    Failed(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Runs the warm-up that {@code props} (YCSB's client properties, {@link YcsbArguments}) ask for and returns
   * the start-up line that says what it ran; what the scratch database printed is printed only on a failure.
   */
  public static String run(Properties props) throws Failed {
    Limits limits = limits(props);
    if (!limits.on()) {
      return TAG + "off (" + limits.describe() + ")";
    }
    String dbClass = props.getProperty("db", "site.ycsb.BasicDB");
    boolean nano = dbClass.equals(NanoTimedDB.class.getName());
    String target = nano ? props.getProperty(NanoTimedDB.WRAPPED, "") : dbClass;
    DB probe;
    try {
      probe = newDb(target);
    } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
      return TAG + "skipped: cannot make a " + target + " (" + e + "); YCSB says more below";
    }
    Scratch where = Scratch.of(probe, target, props);
    if (where.skipped != null) {
      return TAG + "skipped: " + where.skipped;
    }
    // The workload class takes YCSB's measurements as it is made: set up as Client sets them up, from the same
    // properties, which Client sets again (the same) before it makes its own workload.
    Measurements.setProperties(props);
    try {
      // YCSB's DBWrapper, another DB class: compiled code that assumed it knew every DB class would be thrown
      // away when Client loads it as its clock starts
      Class.forName("site.ycsb.DBWrapper");
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("YCSB's core is not on the class path", e);
    }
    Held held = Held.install();
    // YCSB's client thread exits the JVM (status 0) when the workload throws: not without a word, nor 0
    Thread exiting = new Thread(() -> {
      held.release(true);
      where.deleteRoot();
      String why = "the warm-up stopped the JVM: YCSB's client thread exits when the workload throws (above);"
          + " set " + OPERATIONS + "=0 to run without it";
      System.err.println("[ycsb-embedded] " + why);
      ClientExitStatus.refusedWarmup(why);
      Runtime.getRuntime().halt(ClientExitStatus.REFUSED);
    }, "ycsb-embedded-warmup-exit");
    Runtime.getRuntime().addShutdownHook(exiting);
    long cpu0 = processCpuNanos();
    long written0 = writtenBytes();
    try {
      long began = System.nanoTime();
      Ran ran = where.run(props, dbClass, nano, limits);
      long quiet = System.nanoTime();
      // a wait for the compiler no longer than the warm-up itself ran: a short phase's warm-up stays short
      awaitQuietCompiler(ManagementFactory.getCompilationMXBean(),
          Math.min(QUIET_LIMIT_MILLIS, Math.max(QUIET_MILLIS, (quiet - began) / 1_000_000)));
      held.release(false);
      String leaked = Measurements.getMeasurements().getSummary().trim();
      long cpu = processCpuNanos();
      long written = writtenBytes();
      return TAG + ran.describe(props, target, where, limits) + ", JIT quiet after " + seconds(quiet) + " s more"
          + "; it used " + (cpu0 < 0 || cpu < 0 ? "?" : decimal((cpu - cpu0) / 1e9)) + " s of CPU and wrote "
          + (written0 < 0 || written < 0 ? "?" : Long.toString(written - written0)) + " bytes (in this JVM's totals)"
          + (leaked.isEmpty() ? "" : System.lineSeparator() + TAG + "WARNING: the workload class measured its own "
          + "operations into YCSB's figures during the warm-up (" + leaked + "): they are counted in this run");
    } catch (NoRoot e) {
      held.release(false);
      return TAG + "skipped: " + e.getMessage();
    } catch (NoOperation e) {
      held.release(false);
      return TAG + "stopped: " + e.getMessage();
    } catch (ScratchErrors e) {
      held.release(false);
      KeyValueDB.forgetErrors(); // the measured phase prints its own first errors
      return TAG + "stopped: " + e.getMessage() + ", whose messages are held back (the measured phase prints"
          + " its own); the scratch directory is deleted";
    } catch (Exception | LinkageError e) {
      Throwable cause = e instanceof java.lang.reflect.InvocationTargetException && e.getCause() != null
          ? e.getCause() : e;
      if (cause instanceof site.ycsb.WorkloadException) { // YCSB's Client makes the same workload next, and says why
        held.release(false);
        return TAG + "skipped: the workload did not start (YCSB says why below)";
      }
      if (cause instanceof site.ycsb.DBException) {
        // the scratch's open or close refused (a disk another process filled, or one the scratch filled itself):
        // the scratch is not the run's data, so the measured phase starts cold and its own open says whether the
        // real database is refused too (a bad property is, with its own message)
        held.release(false); // the launcher then forgets the scratch's refusal (ClientExitStatus.warmupOver)
        return TAG + "skipped: the scratch " + where.engine + " database failed (" + cause.getMessage()
            + "); the measured phase runs without a warm-up";
      }
      held.release(true);
      throw new Failed("the warm-up on a scratch database failed (its output is above): " + cause
          + "; set " + OPERATIONS + "=0 to run without it", e);
    } finally {
      held.release(true);
      Runtime.getRuntime().removeShutdownHook(exiting);
    }
  }

  /** Where the warm-up's database goes, and how its properties are made from the real run's. */
  static final class Scratch {
    /** Why there is no warm-up, or null. */
    final String skipped;
    /** The real data directory, or null for a DB that keeps no data ({@link NothingDB}). */
    final Path real;
    /** The engine's name for the line ("lmdb"). */
    final String engine;
    /** The properties that name the data directory, each set to the scratch one. */
    final List<String> pathNames;
    /** The properties that would delete the directory first, each set to false. */
    final List<String> destroyNames;
    /** The properties that let a run open an empty database, each set to true. */
    final List<String> allowNames;
    /** The scratch root once made: what a JVM exiting inside the warm-up deletes. */
    private volatile Path root;

    private Scratch(String skipped, Path real, String engine, List<String> pathNames, List<String> destroyNames,
        List<String> allowNames) {
      this.skipped = skipped;
      this.real = real;
      this.engine = engine;
      this.pathNames = pathNames;
      this.destroyNames = destroyNames;
      this.allowNames = allowNames;
    }

    static Scratch of(DB probe, String target, Properties props) {
      if (probe instanceof KeyValueDB<?> kv) {
        String engine = kv.engineName();
        Path dir = new EngineProperties(props, engine).directory(EngineProperties.PATH, "data/" + engine);
        List<String> names = new ArrayList<>(List.of(EngineProperties.PATH, engine + "." + EngineProperties.PATH));
        EngineProperties.upstreamAliases(engine).forEach((upstream, ours) -> {
          if (ours.equals(engine + "." + EngineProperties.PATH)) {
            names.add(upstream);
          }
        });
        return new Scratch(null, dir, engine, names,
            List.of(EngineProperties.DESTROY, engine + "." + EngineProperties.DESTROY),
            // the scratch database opens empty for the run's warm-up, which loads it first
            List.of(KeyValueDB.ALLOW_EMPTY_RUN, engine + "." + KeyValueDB.ALLOW_EMPTY_RUN));
      }
      String named = props.getProperty(PATH_PROPERTY);
      if (named != null) {
        if (props.getProperty(named) == null) {
          throw new EngineProperties.BadPropertyException(PATH_PROPERTY + "=" + named + " names a property that is"
              + " not set: it must name the property that holds " + target + "'s data directory");
        }
        Path dir = new EngineProperties(props, "warmup").directory(named, null);
        return new Scratch(null, dir, target, List.of(named), List.of(), List.of());
      }
      if (probe instanceof NothingDB) {
        return new Scratch(null, null, target, List.of(), List.of(), List.of());
      }
      return new Scratch(target + " is not one of this project's bindings: a DB that keeps its data in a local"
          + " directory is warmed on a scratch one when " + PATH_PROPERTY + " names the property that holds it;"
          + " a remote store is not warmed, its data having no scratch copy", null, null, List.of(), List.of(),
          List.of());
    }

    /** Creates the scratch directory, runs the passes, deletes it; returns what ran. */
    Ran run(Properties props, String dbClass, boolean nano, Limits limits) throws Exception {
      Properties base = new Properties();
      base.putAll(props);
      noOwnMeasurements(base);
      for (String name : destroyNames) {
        base.setProperty(name, "false");
      }
      for (String name : allowNames) {
        base.setProperty(name, "true");
      }
      Path root = real == null ? null : createRoot(real.toAbsolutePath().normalize());
      this.root = root;
      Ran ran = new Ran(root);
      long time = (long) (limits.seconds * 1e9); // of operations: each pass's clock starts after its open
      AtomicLong budget = new AtomicLong(limits.operations);
      boolean load = !Boolean.parseBoolean(props.getProperty("dotransactions", "true"));
      int threads = Math.max(1, Integer.parseInt(props.getProperty("threadcount", "1").trim()));
      long records = Math.max(1, Long.parseLong(props.getProperty("recordcount", "1000").trim()));
      try {
        if (load) {
          // the phase's own inserts, as many per pass as the real load makes, each pass on a fresh database
          for (int pass = 1; budget.get() > 0 && time > 0; pass++) {
            long start = System.nanoTime();
            Properties p = passProperties(base, root, pass, nano);
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
          Properties p = passProperties(base, root, 1, nano);
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
        ran.stoppedBy = budget.get() <= 0 ? OPERATIONS : SECONDS;
      } finally {
        if (root != null) {
          DirectoryListing.deleteTree(root);
        }
      }
      ran.nanos = System.nanoTime() - ran.start;
      return ran;
    }

    /** One pass's properties: its own scratch directory, and NanoTimedDB's figures kept inside it. */
    private Properties passProperties(Properties base, Path root, int pass, boolean nano) {
      Properties p = new Properties();
      p.putAll(base);
      if (root != null) {
        String dir = root.resolve("pass" + pass).resolve(real.getFileName().toString()).toString();
        for (String name : pathNames) {
          p.setProperty(name, dir);
        }
      }
      if (nano) {
        // NanoTimedDB writes its figures at its last close: into the scratch directory, never the step's file;
        // without one, on stdout, which the warm-up holds and drops
        if (root != null) {
          p.setProperty(NanoTimedDB.FILE, root.resolve("nanotimed-" + pass + ".json").toString());
        } else {
          p.remove(NanoTimedDB.FILE);
        }
      }
      return p;
    }

    /** Deletes the scratch root, if any is left (a JVM exiting inside the warm-up). */
    void deleteRoot() {
      Path r = root;
      if (r != null && Files.exists(r)) {
        try {
          DirectoryListing.deleteTree(r);
        } catch (IOException e) {
          System.err.println("[ycsb-embedded] the warm-up's scratch directory " + r + " was not deleted: " + e);
        }
      }
    }

    /**
     * The scratch root: a hidden sibling of the real directory, made new for this process; a {@link NoRoot} when
     * none can be made (the real open then says what is wrong with the directory).
     */
    private static Path createRoot(Path real) throws NoRoot {
      try {
        return makeRoot(real);
      } catch (IOException e) {
        throw new NoRoot("cannot make a scratch directory beside " + real + " (" + e + ")");
      }
    }

    private static Path makeRoot(Path real) throws IOException {
      Path parent = real.getParent();
      if (parent == null) {
        throw new IOException("the data directory " + real + " has no parent to hold a scratch database beside it");
      }
      Files.createDirectories(parent);
      String name = "." + real.getFileName() + ".warmup-" + ProcessHandle.current().pid();
      for (int n = 0; ; n++) {
        Path root = parent.resolve(n == 0 ? name : name + "-" + n);
        try {
          return Files.createDirectory(root);
        } catch (FileAlreadyExistsException e) {
          if (n == 100) {
            throw e;
          }
        }
      }
    }
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

    String describe(Properties props, String target, Scratch where, Limits limits) {
      int threads = Integer.parseInt(props.getProperty("threadcount", "1").trim());
      String what = transactions > 0 || loaded > 0
          ? transactions + " transactions in " + decimal(transactionNanos / 1e9) + " s after loading " + loaded
              + " records"
          : inserted + " inserts" + (passes > 1 ? " in " + passes + " passes on fresh databases" : "");
      String on = root == null ? "on " + target + " itself (it keeps no data)"
          : "on a scratch " + where.engine + " database in " + root + " (deleted)";
      return what + " with " + threads + " thread" + (threads == 1 ? "" : "s") + " of "
          + props.getProperty("workload") + " " + on + ", " + decimal(nanos / 1e9) + " s with the opens (stopped by "
          + stoppedBy + "; " + limits.describe() + ")";
    }
  }

  /**
   * A workload's operations until its budget runs out or {@code nanos} have passed since the pass's databases
   * were open: inserts, or transactions.
   */
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
   * round hands the workload the next class of {@link Measured#view}. Stops at the phase's budget or deadline
   * (the workload's stop request, which YCSB's client threads check between operations).
   */
  private static long phase(Phase phase, List<DB> dbs, Measurements own, AtomicLong errors, Properties p, long t0)
      throws InterruptedException {
    long deadline = t0 + phase.nanos;
    long done = 0;
    Wrapper wrap = wrapper;
    int views = wrap == null ? Measured.VIEWS : 1; // a driver's own wrapper is the measured phase's class itself
    for (int view = 0; view < views && !phase.workload.isStopRequested(); view++) {
      long round = Math.min(Integer.MAX_VALUE, phase.budget.get() / (views - view));
      int n = (int) Math.min(Math.min(dbs.size(), phase.clients()), round);
      if (n <= 0 || System.nanoTime() - deadline >= 0) {
        continue;
      }
      CountDownLatch latch = new CountDownLatch(n);
      List<Client> clients = new ArrayList<>();
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        // YCSB's own split of the operations among its threads; never 0, which ClientThread takes as no limit
        int ops = (int) (round / n + (i < round % n ? 1 : 0));
        Client c;
        if (wrap == null) {
          ClientThread y = new ClientThread(Measured.view(view, dbs.get(i), own, errors, phase.workload),
              !phase.insert, phase.workload, p, ops, -1, latch);
          y.setThreadId(i);
          y.setThreadCount(n);
          c = new Client() {
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
      for (Client c : clients) {
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

  private static DB newDb(String name) throws ReflectiveOperationException {
    return (DB) Class.forName(name).getDeclaredConstructor().newInstance();
  }

  /**
   * Waits until the JIT has compiled nothing for {@value #QUIET_MILLIS} ms, at most {@code limitMillis}: a
   * warm-up queues the compilations of the code it ran, and the optimising compiler works through that queue
   * on one of the cores for a while after the warm-up returns. The JVM's compilation time grows only when a
   * compilation ends, and C2 can take half a second on one method (CoreWorkload's doTransaction, on a 2-core
   * EPYC): quiet is also the compiler threads' own time on a core standing still ({@link CompilerThreads}, on
   * Linux). Nothing when the JVM cannot tell.
   */
  public static void awaitQuietCompiler(CompilationMXBean jit, long limitMillis) throws InterruptedException {
    awaitQuietCompiler(jit, CompilerThreads::onCpuNanos, limitMillis);
  }

  /** {@link #awaitQuietCompiler(CompilationMXBean, long)}, the compiler threads' time read by {@code onCpuNanos}. */
  static void awaitQuietCompiler(CompilationMXBean jit, LongSupplier onCpuNanos, long limitMillis)
      throws InterruptedException {
    if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
      return;
    }
    long deadline = System.nanoTime() + limitMillis * 1_000_000L;
    long last = jit.getTotalCompilationTime();
    long lastOnCpu = onCpuNanos.getAsLong();
    long quietSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      Thread.sleep(10);
      long now = jit.getTotalCompilationTime();
      long onCpu = onCpuNanos.getAsLong();
      // a compiler thread that ran for more than a tenth of the 10 ms is compiling
      if (now != last || onCpu - lastOnCpu > 1_000_000L) {
        quietSince = System.nanoTime();
      } else if (System.nanoTime() - quietSince >= QUIET_MILLIS * 1_000_000L) {
        return;
      }
      last = now;
      lastOnCpu = onCpu;
    }
  }

  /** The JVM's CPU time so far in nanoseconds, or -1 when it cannot tell. */
  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime() : -1;
  }

  /** The bytes this process has had written to storage so far ({@code /proc/self/io}), or -1 when unreadable. */
  private static long writtenBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
        if (line.startsWith("write_bytes:")) {
          return Long.parseLong(line.substring("write_bytes:".length()).trim());
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }

  private static String seconds(long since) {
    return decimal((System.nanoTime() - since) / 1e9);
  }

  private static String decimal(double v) {
    return String.format(Locale.ROOT, "%.2f", v).replaceAll("\\.?0+$", "");
  }

  /**
   * The calls YCSB's {@code DBWrapper} makes around each operation (the intended start, two clock reads, a
   * latency and an intended latency into the measurements, the status count), into a Measurements of the
   * warm-up's own: so that the measurement classes the measured phase calls are compiled, while its own
   * figures (YCSB's singleton) stay empty. Counts the operations that returned ERROR.
   *
   * <p>The workload calls the DB it is handed; in the measured phase that is YCSB's {@code DBWrapper}, a class
   * the warm-up cannot hand it. Had the warm-up handed one class, the JIT would have compiled the workload's
   * calls for that class alone, and the measured phase's first call would throw that code away (the
   * workload's {@code doTransaction} and {@code doTransactionRead} "made not entrant" as the clock starts,
   * recompiled inside it). The warm-up hands three classes of {@link #view} in turn, so that the compiled
   * workload makes a virtual call that takes any class, DBWrapper too.
   */
  static class Measured extends DB {
    private final DB db;
    private final Measurements m;
    private final AtomicLong errors;
    /** Stopped at the first ERROR: no warm-up goes on against a failing engine (a full disk). */
    private final Workload workload;

    Measured(DB db, Measurements m, AtomicLong errors, Workload workload) {
      this.db = db;
      this.m = m;
      this.errors = errors;
      this.workload = workload;
    }

    /** How many classes of view there are ({@link #view}). */
    static final int VIEWS = 3;

    /** View {@code which} (0 to {@value #VIEWS} - 1) of {@code db}, each number of its own class. */
    static DB view(int which, DB db, Measurements m, AtomicLong errors, Workload workload) {
      return switch (which) {
        case 0 -> new Measured(db, m, errors, workload);
        case 1 -> new Second(db, m, errors, workload);
        default -> new Third(db, m, errors, workload);
      };
    }

    /** A second class of view (see {@link #view}). */
    private static final class Second extends Measured {
      Second(DB db, Measurements m, AtomicLong errors, Workload workload) {
        super(db, m, errors, workload);
      }
    }

    /** A third class of view (see {@link #view}). */
    private static final class Third extends Measured {
      Third(DB db, Measurements m, AtomicLong errors, Workload workload) {
        super(db, m, errors, workload);
      }
    }

    /** Nothing: the warm-up opens the DB once for every round of views ({@link #pass}). */
    @Override
    public void init() {
    }

    /** Nothing: the warm-up closes the DB after its last round. */
    @Override
    public void cleanup() {
    }

    private Status measured(String op, long intended, long start, Status s) {
      long end = System.nanoTime();
      String name = s != null && s.isOk() ? op : op + "-FAILED";
      m.measure(name, (int) ((end - start) / 1000));
      m.measureIntended(name, (int) ((end - intended) / 1000));
      m.reportStatus(op, s);
      if (s == Status.ERROR) {
        errors.incrementAndGet();
        workload.requestStop();
      }
      return s;
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      long ist = m.getIntendedtartTimeNs();
      long st = System.nanoTime();
      return measured("READ", ist, st, db.read(table, key, fields, result));
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
        Vector<HashMap<String, ByteIterator>> result) {
      long ist = m.getIntendedtartTimeNs();
      long st = System.nanoTime();
      return measured("SCAN", ist, st, db.scan(table, startkey, recordcount, fields, result));
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
      long ist = m.getIntendedtartTimeNs();
      long st = System.nanoTime();
      return measured("UPDATE", ist, st, db.update(table, key, values));
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
      long ist = m.getIntendedtartTimeNs();
      long st = System.nanoTime();
      return measured("INSERT", ist, st, db.insert(table, key, values));
    }

    @Override
    public Status delete(String table, String key) {
      long ist = m.getIntendedtartTimeNs();
      long st = System.nanoTime();
      return measured("DELETE", ist, st, db.delete(table, key));
    }
  }

  /**
   * stdout and stderr held while the warm-up runs: what the scratch database's open, the engine and the
   * workload print would read as the measured phase's start-up lines. Released to the real streams on a
   * failure, dropped otherwise; whatever kept a reference to the held stream writes through to the real one
   * after the warm-up.
   */
  private static final class Held extends OutputStream {
    private final PrintStream out = System.out;
    private final PrintStream err = System.err;
    private ByteArrayOutputStream held = new ByteArrayOutputStream();

    static Held install() {
      Held h = new Held();
      PrintStream ps = new PrintStream(h, true, StandardCharsets.UTF_8);
      System.setOut(ps);
      System.setErr(ps);
      return h;
    }

    synchronized void release(boolean show) {
      if (held == null) {
        return;
      }
      System.setOut(out);
      System.setErr(err);
      if (show) {
        err.print(held.toString(StandardCharsets.UTF_8));
        err.flush();
      }
      held = null;
    }

    @Override
    public synchronized void write(int b) {
      if (held != null) {
        held.write(b);
      } else {
        err.write(b);
      }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      if (held != null) {
        held.write(b, off, len);
      } else {
        err.write(b, off, len);
      }
    }
  }
}
