package site.ycsb.embedded;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import site.ycsb.DBException;

/**
 * A non-zero exit status for YCSB's own client when a binding refused to open or an operation
 * returned ERROR.
 *
 * <p>YCSB 0.17's {@code site.ycsb.Client} (and {@code CommandLine}) print a DBException from
 * {@code init()} and exit 0, so a script checking {@code $?} takes a refused run for a success.
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

  /** Main classes of YCSB core whose exit status this class corrects. */
  private static final String[] YCSB_MAINS = {"site.ycsb.Client", "site.ycsb.CommandLine"};

  private static final AtomicReference<String> REFUSAL = new AtomicReference<>();
  private static final AtomicLong FAILED = new AtomicLong();
  private static final boolean ENABLED = isYcsbMain(System.getProperty("sun.java.command", ""));
  private static volatile boolean installed;

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
    REFUSAL.compareAndSet(null, e.getMessage());
    install();
    return e;
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
  static Object[] verdict(String refusal, long failed) {
    if (refusal != null) {
      return new Object[] {REFUSED, "the binding refused to open: " + refusal};
    }
    if (failed > 0) {
      return new Object[] {FAILED_OPERATIONS, failed + " operation(s) returned ERROR (their causes are printed"
          + " above)"};
    }
    return null;
  }

  private static void halt() {
    Object[] v = verdict(REFUSAL.get(), FAILED.get());
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
