package site.ycsb.embedded.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one pairing of paths in one JVM, per round: N named paths, each run once per round, round after round, so that
 * every path meets the JVM, its JIT and the machine as the others do. Untimed rounds first (the JIT compiles every
 * path), optionally a wait until the compiler is quiet, then the timed rounds; a path's run gives its figures for
 * that round (one or more numbers), and a line per timed round is the caller's. With {@link #rotating()} each round
 * starts at another path (round r runs path (p + r) mod N as its p-th), so that no path always follows the same one.
 * Its users: side-by-side and disk-guard (two sides per engine), binding-cost (inserts, reads), engine-work (three
 * stand-in engines), client-cost (four client steps) and lmdb-read (four read paths).
 *
 * <p>The other level, per operation, is {@link PairedOps}: inside one YCSB client it sends each operation by a coin
 * toss down one of two paths on the same engine handle (flat-cost), where a round of one path and a round of the other
 * would each leave the caches as the other never finds them. It cannot be a round here, since YCSB's client, not the
 * harness, makes the operations.
 */
final class Alternation {

  /** One path: its run in round {@code round} (negative: an untimed one), and the figures it gives. */
  interface Path {
    double[] run(int round) throws Exception;
  }

  /** A line per timed round: the round (0 is the first timed one) and each path's figures in it. */
  interface RoundLine {
    void print(int round, Map<String, double[]> figures);
  }

  private final Map<String, Path> paths = new LinkedHashMap<>();
  private int untimed;
  private boolean rotate;
  private boolean quiet;

  /** Adds a path; the paths run in the order added (rotated, with {@link #rotating()}). */
  Alternation path(String name, Path path) {
    paths.put(name, path);
    return this;
  }

  /** That many untimed rounds before the timed ones. */
  Alternation untimed(int rounds) {
    untimed = rounds;
    return this;
  }

  /** Each round starts at another path. */
  Alternation rotating() {
    rotate = true;
    return this;
  }

  /** After the untimed rounds, waits until the JIT compiles nothing (as layers (b) and (c) do). */
  Alternation quietCompiler() {
    quiet = true;
    return this;
  }

  /** Runs the rounds; per path, in the order added, its figures per timed round ({@code [round][figure]}). */
  Map<String, double[][]> run(int rounds, RoundLine line) throws Exception {
    List<String> names = new ArrayList<>(paths.keySet());
    Map<String, double[][]> out = new LinkedHashMap<>();
    for (String name : names) {
      out.put(name, new double[rounds][]);
    }
    for (int round = -untimed; round < rounds; round++) {
      if (round == 0 && quiet) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        LayerStep.awaitQuietCompiler(jit, jit != null && jit.isCompilationTimeMonitoringSupported());
      }
      Map<String, double[]> figures = new LinkedHashMap<>();
      for (int p = 0; p < names.size(); p++) {
        String name = names.get(rotate ? Math.floorMod(p + round, names.size()) : p);
        figures.put(name, paths.get(name).run(round));
      }
      if (round >= 0) {
        for (Map.Entry<String, double[]> f : figures.entrySet()) {
          out.get(f.getKey())[round] = f.getValue();
        }
        line.print(round, figures);
      }
    }
    return out;
  }

  /** Figure {@code k} of every round of one path. */
  static double[] column(double[][] rounds, int k) {
    return Arrays.stream(rounds).mapToDouble(f -> f[k]).toArray();
  }

  /** The median of figure {@code k} over the rounds. */
  static double median(double[][] rounds, int k) {
    return median(column(rounds, k));
  }

  /** The median of a list of figures; NaN when there is none. */
  static double median(List<Double> xs) {
    return xs == null || xs.isEmpty() ? Double.NaN : median(xs.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /** The median; of an even count, the mean of the middle two. */
  static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
