package site.ycsb.embedded;

import java.util.Arrays;

/**
 * YCSB's own {@code site.ycsb.Client}, unchanged, as {@code bin/ycsb load|run} starts it, with two
 * additions: a run stopped before any database opened exits non-zero, and with {@code -p
 * nanotimed.file=FILE} the binding runs inside {@link NanoTimedDB}, which times its operations in
 * nanoseconds apart from its open and close and writes them to FILE.
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
    site.ycsb.Client.main(timed(args));
  }

  /**
   * The arguments with the DB that Client would load (the last {@code -db}) handed to {@link NanoTimedDB}
   * as {@code nanotimed.db}, when a {@code -p nanotimed.file=...} asks for its times; otherwise as given.
   */
  static String[] timed(String[] args) {
    int db = -1;
    boolean wanted = false;
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("-db")) {
        db = ++i;
      } else if (args[i].equals("-p")) {
        wanted |= args[++i].startsWith(NanoTimedDB.FILE + "=");
      }
    }
    if (!wanted || db < 0 || args[db].equals(NanoTimedDB.class.getName())) {
      return args;
    }
    String[] wrapped = Arrays.copyOf(args, args.length + 2);
    wrapped[db] = NanoTimedDB.class.getName();
    wrapped[args.length] = "-p";
    wrapped[args.length + 1] = NanoTimedDB.WRAPPED + "=" + args[db];
    return wrapped;
  }
}
