package site.ycsb.embedded;

/**
 * YCSB's own {@code site.ycsb.Client}, unchanged, as {@code bin/ycsb load|run} starts it, with one
 * addition: a run stopped before any database opened exits non-zero.
 *
 * <p>Client initialises the workload before it loads the binding's class, and on a WorkloadException
 * (CoreWorkload's {@code requestdistribution=bogus}, a workload class it cannot load) prints it and
 * exits 0. No class of a binding is loaded by then, so only the launcher's main class can notice:
 * this one tells {@link ClientExitStatus} to expect a binding's init() and hands every argument to
 * Client.
 */
public final class CheckedClient {

  private CheckedClient() {
  }

  /** Runs {@code site.ycsb.Client.main(args)}, with the exit status checked as the JVM exits. */
  public static void main(String[] args) {
    ClientExitStatus.expectDatabase();
    site.ycsb.Client.main(args);
  }
}
