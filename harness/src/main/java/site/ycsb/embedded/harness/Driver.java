package site.ycsb.embedded.harness;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import site.ycsb.embedded.CheckedClient;
import site.ycsb.embedded.ClientExitStatus;
import site.ycsb.embedded.Warmup;
import site.ycsb.embedded.YcsbArguments;

/**
 * The project's own YCSB driver, {@code bin/ycsb load|run}'s default: YCSB 0.17's command line, semantics and
 * output lines, measured by a loop of its own over YCSB's public classes ({@link Step}), so that one JVM can measure
 * many steps, as db_bench runs its benchmarks in one process.
 *
 * <ul>
 *   <li>{@code Driver <YCSB's arguments>}: one step, as {@code site.ycsb.Client} would run it; exit status 0, or
 *       3 when the binding refused to open or the workload to start, or 4 when an operation returned ERROR (YCSB's
 *       Client exits 0 for all three).</li>
 *   <li>{@code Driver -cell FILE [arguments every step shares]}: the steps of one cell, one per line of FILE:
 *       the step's stdout file, its stderr file, then YCSB's arguments, separated by tabs. Each step gets a fresh
 *       {@code Measurements} and its own output files; beside the stdout file, {@code <stdout>.status} holds the
 *       step's exit status. The warm-up runs before the first step of each kind (a load, or a run of one workload
 *       class and mix); the cell stops at the first step that fails, and the JVM exits with that step's
 *       status. {@code -cell -} reads the steps from stdin one at a time and answers each with its exit status
 *       on a line of stdout, so that the suite measures each step's costs between them.</li>
 * </ul>
 */
public final class Driver {

  private Driver() {
  }

  public static void main(String[] args) {
    Warmup.measuredBy(new WarmupClasses()); // the warm-up runs the measured steps' own classes
    int status;
    try {
      status = args.length >= 2 && args[0].equals("-cell")
          ? cell(Path.of(args[1]), Arrays.copyOfRange(args, 2, args.length)) : single(args);
    } catch (IOException e) {
      System.err.println("[ycsb-embedded] " + e.getMessage());
      status = ClientExitStatus.REFUSED;
    }
    System.out.flush();
    System.err.flush();
    System.exit(status);
  }

  /** One step on this JVM's stdout and stderr: its exit status, with YCSB Client's message on a refusal. */
  private static int single(String[] args) {
    Properties props = properties(args);
    if (props == null) {
      System.err.println("[ycsb-embedded] the command line is not one YCSB 0.17 takes: " + String.join(" ", args));
      site.ycsb.Client.usageMessage();
      return 2;
    }
    return report(Step.run(props, true));
  }

  /**
   * The properties YCSB's Client makes of {@code args} ({@link YcsbArguments}), or null where it would refuse them;
   * unlike Client, {@code -target} may have a fraction (1500.5 operations a second), which {@link Step} schedules.
   */
  static Properties properties(String[] args) {
    return YcsbArguments.parse(CheckedClient.timed(args), true);
  }

  private static int report(Step.Outcome outcome) {
    if (outcome.status() != 0) {
      System.out.flush();
      System.err.printf("[ycsb-embedded] exit status %d: %s%n", outcome.status(), outcome.reason());
      System.err.flush();
    }
    return outcome.status();
  }

  /**
   * The cell's steps in turn, each with {@code shared} before its own arguments; the first failure's status, or 0.
   * {@code file} "-" reads the steps from stdin one at a time, and after each writes its exit status as a line on
   * stdout and waits for the next: the suite's runner measures each step's costs from outside between the lines.
   */
  private static int cell(Path file, String[] shared) throws IOException {
    boolean paced = file.toString().equals("-");
    BufferedReader in = new BufferedReader(new InputStreamReader(paced ? System.in
        : Files.newInputStream(file), StandardCharsets.UTF_8));
    PrintStream out = System.out;
    PrintStream err = System.err;
    Set<String> warmed = new HashSet<>();
    String line;
    for (int i = 0; (line = in.readLine()) != null; i++) {
      if (line.isBlank()) {
        i--;
        continue;
      }
      String[] fields = line.split("\t", -1);
      if (fields.length < 3) {
        throw new IOException(file + ": a step is its stdout file, its stderr file and YCSB's arguments, separated"
            + " by tabs: " + line);
      }
      Path stdout = Path.of(fields[0]);
      List<String> all = new ArrayList<>(Arrays.asList(shared));
      all.addAll(Arrays.asList(fields).subList(2, fields.length));
      String[] args = all.toArray(new String[0]);
      int status;
      try (PrintStream stepOut = new PrintStream(new FileOutputStream(fields[0]), true, StandardCharsets.UTF_8);
          PrintStream stepErr = new PrintStream(new FileOutputStream(fields[1]), true, StandardCharsets.UTF_8)) {
        System.setOut(stepOut);
        System.setErr(stepErr);
        Properties props = properties(args);
        if (props == null) {
          System.err.println("[ycsb-embedded] the command line is not one YCSB 0.17 takes: " + String.join(" ", args));
          status = 2;
        } else {
          status = report(Step.run(props, warmOnce(props, warmed)));
        }
      } finally {
        System.setOut(out);
        System.setErr(err);
      }
      Files.writeString(stdout.resolveSibling(stdout.getFileName() + ".status"), status + "\n");
      err.println("[ycsb-embedded] step " + (i + 1) + ": exit status " + status);
      if (paced) {
        out.println(status);
        out.flush();
      }
      if (status != 0) {
        return status;
      }
    }
    return 0;
  }

  /**
   * Whether this step warms up: the first step of its kind that asks for a warm-up (a step that turns it off, a
   * set-up load, leaves its kind unwarmed for a later one). A bad warm-up property is left to the step, which
   * refuses it.
   */
  private static boolean warmOnce(Properties props, Set<String> warmed) {
    try {
      return !Warmup.isOn(props) || warmed.add(kind(props));
    } catch (IllegalArgumentException e) {
      return true;
    }
  }

  /** What a warm-up warms: a load, or a run of one workload class and operation mix, of one DB class. */
  static String kind(Properties p) {
    StringBuilder k = new StringBuilder(p.getProperty("db", "")).append('|').append(p.getProperty("workload", ""))
        .append('|').append(p.getProperty("dotransactions", "true")).append('|').append(p.getProperty("threadcount",
        "1"));
    if (Boolean.parseBoolean(p.getProperty("dotransactions", "true"))) {
      for (String share : new String[] {"readproportion", "updateproportion", "scanproportion", "insertproportion",
          "readmodifywriteproportion", "deleteproportion", "readseqproportion", "requestdistribution"}) {
        k.append('|').append(p.getProperty(share, ""));
      }
    }
    return k.toString();
  }
}
