package site.ycsb.embedded;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import site.ycsb.DB;
import site.ycsb.Workload;
import site.ycsb.measurements.Measurements;

/**
 * The JIT's warm-up before YCSB's client measures anything: {@link CheckedClient} runs it in the JVM of
 * {@code bin/ycsb load|run}, before it hands the command line to {@code site.ycsb.Client}, whose clock starts
 * as it starts its client threads, each of which opens the database inside that clock.
 *
 * <p>It runs the phase's own code on a scratch database of the same engine, with the same properties, the
 * same workload class and the same number of threads, beside the real data directory (same filesystem,
 * never inside it) and deletes it after: a load warms up with inserts, a run with its own transactions
 * after loading up to {@value WarmupPasses#RUN_RECORDS} records (in at most a quarter of the time; the transactions
 * then have the whole time of their own, so that a slow load, such as large records in a cold JVM, does not leave the
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
 * and the per-operation calls YCSB's {@code DBWrapper} makes into its measurements ({@link WarmupMeasured} makes
 * the same calls into a {@code Measurements} of its own). What stays cold: {@code DBWrapper} itself, which
 * measures into YCSB's singleton (private state, no reset): no warm-up operation may land in the measured
 * figures. The workload's own
 * measurement (CoreWorkload's read-modify-write, its data-integrity check) would, so the warm-up runs
 * read-modify-write's share as reads and updates and checks no integrity; a workload class of another
 * project that measures on its own is found after the warm-up and said in a warning.
 *
 * <p>What the scratch database and the engine print goes nowhere unless the warm-up fails: the start-up
 * lines of the measured phase are then the real database's alone, followed by this class's one line.
 *
 * <p>This class runs it and says what ran; each part of the job is a class of its own: the limits
 * ({@link WarmupLimits}), where the scratch database goes and its properties ({@link ScratchDatabase}), the passes
 * of operations ({@link WarmupPasses}), the measurement calls around each ({@link WarmupMeasured}) and the output
 * held meanwhile ({@link HeldOutput}).
 */
public final class Warmup {

  /** At most this many operations: inserts in a load, transactions in a run; 0 turns the warm-up off. */
  public static final String OPERATIONS = "warmup.operations";
  /** At most this many seconds (a decimal number) of operations; 0 turns the warm-up off. */
  public static final String SECONDS = "warmup.seconds";
  /**
   * For a DB class that is not one of this project's bindings and keeps its data in a local directory: the
   * property naming that directory (each upstream binding has its own), so that the warm-up can put a scratch
   * one beside it. Without it such a DB is not warmed.
   */
  public static final String PATH_PROPERTY = "warmup.pathproperty";

  /** How long the JIT must have compiled nothing before the measured phase starts. */
  static final long QUIET_MILLIS = 100;
  /** The longest wait for a quiet JIT. */
  static final long QUIET_LIMIT_MILLIS = 1_000;

  static final String TAG = "[ycsb-embedded] warm-up: ";

  /**
   * A driver of the project's own (harness/): the class it measures each operation with and the loop its client
   * threads run. Given, the warm-up runs those very classes around each scratch DB, already open, so that the
   * workload's calls and the loop are compiled as the measured phase runs them and the JIT throws nothing away
   * when the clock starts. Without one (YCSB's Client, whose DBWrapper the warm-up cannot make), it runs YCSB's
   * ClientThread and hands three classes of {@link WarmupMeasured} in turn.
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

  /** The driver's wrapper ({@link #measuredBy}), or null under YCSB's Client. */
  static Wrapper wrapper() {
    return wrapper;
  }

  private Warmup() {
  }

  /** Whether {@code p} asks for a warm-up (both limits above 0); a value that is not a number is refused. */
  public static boolean isOn(Properties p) {
    return WarmupLimits.of(p).on();
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
    WarmupLimits limits = WarmupLimits.of(props);
    if (!limits.on()) {
      return TAG + "off (" + limits.describe() + ")";
    }
    String dbClass = props.getProperty("db", "site.ycsb.BasicDB");
    boolean nano = dbClass.equals(NanoTimedDB.class.getName());
    String target = nano ? props.getProperty(NanoTimedDB.WRAPPED, "") : dbClass;
    DB probe;
    try {
      probe = WarmupPasses.newDb(target);
    } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
      return TAG + "skipped: cannot make a " + target + " (" + e + "); YCSB says more below";
    }
    ScratchDatabase where = ScratchDatabase.of(probe, target, props);
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
    HeldOutput held = HeldOutput.install();
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
      WarmupPasses.Ran ran = WarmupPasses.run(where, props, dbClass, nano, limits);
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
    } catch (ScratchDatabase.NoRoot e) {
      held.release(false);
      return TAG + "skipped: " + e.getMessage();
    } catch (WarmupPasses.NoOperation e) {
      held.release(false);
      return TAG + "stopped: " + e.getMessage();
    } catch (WarmupPasses.ScratchErrors e) {
      held.release(false);
      EngineErrors.forget(); // the measured phase prints its own first errors
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

  /**
   * Waits until the JIT has compiled nothing for {@value #QUIET_MILLIS} ms, at most {@code limitMillis}: a
   * warm-up queues the compilations of the code it ran, and the optimising compiler works through that queue
   * on one of the cores for a while after the warm-up returns. Nothing when the JVM cannot tell. The JVM's
   * compilation time grows only when a compilation ends, so a long one in progress (C2 takes 0.47 s on
   * CoreWorkload's doTransaction on a 2-core EPYC) looks quiet: waiting for the compiler threads to be idle
   * instead added 0.36 s to each warm-up of a quick run and left as many of its steps still climbing, so the
   * wait stays this cheap one.
   */
  public static void awaitQuietCompiler(CompilationMXBean jit, long limitMillis) throws InterruptedException {
    if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
      return;
    }
    long deadline = System.nanoTime() + limitMillis * 1_000_000L;
    long last = jit.getTotalCompilationTime();
    long quietSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      Thread.sleep(10);
      long now = jit.getTotalCompilationTime();
      if (now != last) {
        last = now;
        quietSince = System.nanoTime();
      } else if (System.nanoTime() - quietSince >= QUIET_MILLIS * 1_000_000L) {
        return;
      }
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

  static String decimal(double v) {
    return String.format(Locale.ROOT, "%.2f", v).replaceAll("\\.?0+$", "");
  }
}
