package site.ycsb.embedded;

import java.util.concurrent.atomic.AtomicInteger;

import site.ycsb.Status;

/**
 * An engine's failed operations as a binding reports them ({@link KeyValueDB#failed}): each counts for the exit
 * status; the first {@value #PRINTED} of a JVM are printed with their cause (the first with its stack trace), the
 * rest only counted, except the first refusal for a full disk after each open, whatever came before.
 */
final class EngineErrors {

  /** How many engine errors a JVM prints with their cause before only counting them (not a full disk's). */
  static final int PRINTED = 20;
  private static final AtomicInteger ERRORS = new AtomicInteger();

  private EngineErrors() {
  }

  /** Forgets the errors printed so far: the warm-up's on its scratch database ({@code Warmup}). */
  static void forget() {
    ERRORS.set(0);
  }

  /**
   * Logs {@code engine}'s failure of {@code op} on {@code key} and returns {@code Status.ERROR}; {@code disk}, the
   * client's free-space guard (null before its open), says whether the failure is a full disk.
   */
  static Status failed(String engine, String op, String key, Exception error, DiskSpaceGuard disk) {
    Exception e = disk == null ? error : disk.explain(error); // an EIO on a full disk says the disk is full
    int n = ERRORS.incrementAndGet();
    ClientExitStatus.operationFailed();
    boolean diskFull = e instanceof DiskSpaceGuard.DiskFullException && disk != null && disk.firstRefusal();
    if (n <= PRINTED || diskFull) {
      System.err.printf("[%s] %s of key '%s' failed: %s%n", engine, op, Keys.escape(key), e);
      if (n == 1) {
        e.printStackTrace();
      }
      if (n == PRINTED) {
        System.err.printf("[%s] further errors are counted, not printed%n", engine);
      }
    }
    return Status.ERROR;
  }
}
