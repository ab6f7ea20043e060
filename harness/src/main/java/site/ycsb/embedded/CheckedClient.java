package site.ycsb.embedded;

import java.util.Arrays;
import java.util.Properties;

/**
 * YCSB's own {@code site.ycsb.Client}, unchanged, as {@code bin/ycsb load|run} starts it, with four
 * additions: every property value is checked before anything runs ({@link Preflight}); a run stopped before any
 * database opened exits non-zero; with {@code -p
 * nanotimed.file=FILE} the binding runs inside {@link NanoTimedDB}, which times its operations in
 * nanoseconds apart from its open and close and writes them to FILE; and before Client starts, a
 * {@link Warmup} on a scratch database compiles the code the measured phase runs ({@code warmup.operations},
 * {@code warmup.seconds}), and one line on stderr says what it ran.
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
    String[] timed = timed(args);
    Properties props = YcsbArguments.parse(timed);
    preflight(props);
    warmUp(props);
    site.ycsb.Client.main(timed);
  }

  /**
   * Checks {@code props} before anything runs ({@link Preflight}; nothing when they are null: Client refuses the
   * command line and says why) and prints its warnings (a name no part of the run reads); a refused value exits
   * with {@link ClientExitStatus#REFUSED}, naming it.
   */
  private static void preflight(Properties props) {
    if (props == null) {
      return;
    }
    try {
      for (String warning : Preflight.check(props)) {
        System.err.println("[ycsb-embedded] " + warning);
      }
    } catch (EngineProperties.BadPropertyException e) {
      // said once, by the exit status's line
      ClientExitStatus.refusedProperty("refused before anything ran: " + e.getMessage());
      System.exit(ClientExitStatus.REFUSED);
    }
  }

  /**
   * Runs the warm-up {@code props} ask for (none when they are null: Client refuses the command line and says
   * why) and prints its line; a bad warm-up property or a failed warm-up exits with {@link ClientExitStatus#REFUSED}.
   */
  private static void warmUp(Properties props) {
    if (props == null) {
      return;
    }
    String refusal;
    try {
      System.err.println(Warmup.run(props));
      System.err.flush();
      ClientExitStatus.warmupOver();
      return;
    } catch (EngineProperties.BadPropertyException e) {
      refusal = e.getMessage();
    } catch (Warmup.Failed e) {
      refusal = e.getMessage();
    }
    System.err.println("[ycsb-embedded] " + refusal);
    ClientExitStatus.refusedWarmup(refusal);
    System.exit(ClientExitStatus.REFUSED);
  }

  /**
   * The arguments with the DB that Client would load (the last {@code -db}) handed to {@link NanoTimedDB}
   * as {@code nanotimed.db}, when a {@code -p nanotimed.file=...} asks for its times; otherwise as given.
   */
  public static String[] timed(String[] args) {
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
