package site.ycsb.embedded.harness;

import java.io.FileOutputStream;
import java.io.IOException;
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
 *       status.</li>
 * </ul>
 */
public final class Driver {

  private Driver() {
  }

  public static void main(String[] args) {
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
    Properties props = YcsbArguments.parse(CheckedClient.timed(args));
    if (props == null) {
      System.err.println("[ycsb-embedded] the command line is not one YCSB 0.17 takes: " + String.join(" ", args));
      site.ycsb.Client.usageMessage();
      return 2;
    }
    return report(Step.run(props, true));
  }

  private static int report(Step.Outcome outcome) {
    if (outcome.status() != 0) {
      System.out.flush();
      System.err.printf("[ycsb-embedded] exit status %d: %s%n", outcome.status(), outcome.reason());
      System.err.flush();
    }
    return outcome.status();
  }

  /** The cell's steps in turn, each with {@code shared} before its own arguments; the first failure's status, or 0. */
  private static int cell(Path file, String[] shared) throws IOException {
    List<String[]> steps = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        String[] fields = line.split("\t", -1);
        if (fields.length < 3) {
          throw new IOException(file + ": a step is its stdout file, its stderr file and YCSB's arguments, separated"
              + " by tabs: " + line);
        }
        steps.add(fields);
      }
    }
    PrintStream out = System.out;
    PrintStream err = System.err;
    Set<String> warmed = new HashSet<>();
    for (int i = 0; i < steps.size(); i++) {
      String[] fields = steps.get(i);
      Path stdout = Path.of(fields[0]);
      List<String> all = new ArrayList<>(Arrays.asList(shared));
      all.addAll(Arrays.asList(fields).subList(2, fields.length));
      String[] args = all.toArray(new String[0]);
      int status;
      try (PrintStream stepOut = new PrintStream(new FileOutputStream(fields[0]), true, StandardCharsets.UTF_8);
          PrintStream stepErr = new PrintStream(new FileOutputStream(fields[1]), true, StandardCharsets.UTF_8)) {
        System.setOut(stepOut);
        System.setErr(stepErr);
        Properties props = YcsbArguments.parse(CheckedClient.timed(args));
        if (props == null) {
          System.err.println("[ycsb-embedded] the command line is not one YCSB 0.17 takes: " + String.join(" ", args));
          status = 2;
        } else {
          status = report(Step.run(props, warmed.add(kind(props))));
        }
      } finally {
        System.setOut(out);
        System.setErr(err);
      }
      Files.writeString(stdout.resolveSibling(stdout.getFileName() + ".status"), status + "\n");
      err.println("[ycsb-embedded] step " + (i + 1) + " of " + steps.size() + ": exit status " + status);
      if (status != 0) {
        return status;
      }
    }
    return 0;
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
