package site.ycsb.embedded;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import site.ycsb.DBException;
import site.ycsb.WorkloadException;

/**
 * A non-zero exit status for YCSB's own client when a binding refused to open, the workload refused
 * to start or an operation returned ERROR.
 *
 * <p>YCSB 0.17's {@code site.ycsb.Client} (and {@code CommandLine}) print a DBException from
 * {@code init()}, or a WorkloadException, and exit 0, so a script checking {@code $?} takes a refused
 * run for a success.
 * Core stays untouched: when the JVM's main class is one of YCSB's, the first refusal or failed
 * operation installs a shutdown hook that, as the JVM exits, prints why and halts with
 * {@link #REFUSED} or {@link #FAILED_OPERATIONS}. Inside any other program (tests, embedders)
 * nothing is installed and nothing changes.
 */
public final class ClientExitStatus {

  /** Exit status when a binding refused to open (bad property, locked, foreign, unwritable, full). */
  public static final int REFUSED = 3;
  /** Exit status when the database opened but at least one operation returned ERROR. */
  public static final int FAILED_OPERATIONS = 4;

  /**
   * Main classes whose exit status this class corrects: YCSB core's, and the launcher's wrapper of Client (named: it
   * is in the harness module, which a binding does not compile against).
   */
  private static final String[] YCSB_MAINS = {"site.ycsb.Client", "site.ycsb.CommandLine",
      "site.ycsb.embedded.CheckedClient"};

  private static final AtomicReference<String> REFUSAL = new AtomicReference<>();
  private static final AtomicLong FAILED = new AtomicLong();
  private static final boolean ENABLED = isYcsbMain(System.getProperty("sun.java.command", ""));
  private static volatile boolean installed;
  /** Set by {@code CheckedClient}: this run must reach a binding's init(), or something refused it first. */
  private static volatile boolean databaseExpected;
  private static volatile boolean databaseStarted;

  private ClientExitStatus() {
  }

  /** Whether {@code command} (the JVM's {@code sun.java.command}) runs one of YCSB's main classes. */
  static boolean isYcsbMain(String command) {
    for (String main : YCSB_MAINS) {
      if (command.equals(main) || command.startsWith(main + " ")) {
        return true;
      }
    }
    return false;
  }

  /** Records that init() refused with {@code e}; returns it for the caller to throw. */
  public static DBException refused(DBException e) {
    refusal("the binding refused to open: " + e.getMessage());
    return e;
  }

  /**
   * Records that the workload's init() refused with {@code e} (Client then exits 0 before any database
   * is opened); returns it for the caller to throw.
   */
  public static WorkloadException refusedWorkload(WorkloadException e) {
    refusal("the workload refused to start: " + e.getMessage());
    return e;
  }

  private static void refusal(String reason) {
    REFUSAL.compareAndSet(null, reason);
    install();
  }

  /**
   * Called before YCSB's Client runs a load or a run: a JVM that then exits without any binding's
   * init() having started was stopped before the database (a workload that refused, an argument or a
   * workload class YCSB could not use), which Client reports with status 0.
   */
  static void expectDatabase() {
    databaseExpected = true;
    install();
  }

  /** Records that a binding's init() started: YCSB got past the workload. */
  static void databaseStarting() {
    databaseStarted = true;
  }

  /**
   * Forgets the inits, refusals and failed operations of {@code Warmup}'s scratch database, which ran before YCSB's
   * client: whether YCSB itself gets past the workload, and whether its operations fail, is still to be seen.
   */
  static void warmupOver() {
    databaseStarted = false;
    REFUSAL.set(null); // a refused scratch open skips the warm-up: the real open is still to be seen
    FAILED.set(0); // its scratch database's errors are said in its line, not counted against the measured run
  }

  /** Records that {@code Preflight} refused a property ({@code reason}); the caller exits with {@link #REFUSED}. */
  static void refusedProperty(String reason) {
    refusal(reason);
  }

  /** Records that the warm-up refused the start ({@code reason}); the caller exits with {@link #REFUSED}. */
  static void refusedWarmup(String reason) {
    refusal(reason);
  }

  /** Records one operation that returned ERROR. */
  public static void operationFailed() {
    if (FAILED.getAndIncrement() == 0) {
      install();
    }
  }

  private static synchronized void install() {
    if (!ENABLED || installed) {
      return;
    }
    installed = true;
    try {
      Runtime.getRuntime().addShutdownHook(new Thread(ClientExitStatus::halt, "ycsb-embedded-exit-status"));
    } catch (IllegalStateException e) {
      // already shutting down: too late to change the status
    }
  }

  /** The exit status and its reason, or null for none: what the hook acts on. */
  static Object[] verdict(String refusal, long failed, boolean stoppedBeforeTheDatabase) {
    if (refusal != null) {
      return new Object[] {REFUSED, refusal};
    }
    if (failed > 0) {
      return new Object[] {FAILED_OPERATIONS, failed + " operation(s) returned ERROR (their causes are printed"
          + " above)"};
    }
    if (stoppedBeforeTheDatabase) {
      return new Object[] {REFUSED, "YCSB stopped before opening the database: the workload or an argument was"
          + " refused (YCSB's message is above)"};
    }
    return null;
  }

  private static void halt() {
    Object[] v = verdict(REFUSAL.get(), FAILED.get(), databaseExpected && !databaseStarted);
    if (v == null) {
      return;
    }
    System.out.flush();
    System.err.printf("[ycsb-embedded] exit status %d: %s%n", (Integer) v[0], v[1]);
    System.err.flush();
    // The JVM is already exiting with YCSB's status 0; halt is the only way to replace it.
    Runtime.getRuntime().halt((Integer) v[0]);
  }
}
