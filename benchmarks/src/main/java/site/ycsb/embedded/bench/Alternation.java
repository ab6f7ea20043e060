package site.ycsb.embedded.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one pairing of paths in one JVM, per round: N named paths, each run once per round, round after round, so that
 * every path meets the JVM, its JIT and the machine as the others do. A path's run gives its figures for that round
 * (one or more numbers), and a line per round is the caller's. Its user: side-by-side (two sides per engine).
 */
final class Alternation {

  /** One path: its run in round {@code round} (0 is the first), and the figures it gives. */
  interface Path {
    double[] run(int round) throws Exception;
  }

  /** A line per round: the round (0 is the first) and each path's figures in it. */
  interface RoundLine {
    void print(int round, Map<String, double[]> figures);
  }

  private final Map<String, Path> paths = new LinkedHashMap<>();

  /** Adds a path; the paths run in the order added. */
  Alternation path(String name, Path path) {
    paths.put(name, path);
    return this;
  }

  /** Runs the rounds; per path, in the order added, its figures per round ({@code [round][figure]}). */
  Map<String, double[][]> run(int rounds, RoundLine line) throws Exception {
    Map<String, double[][]> out = new LinkedHashMap<>();
    for (String name : paths.keySet()) {
      out.put(name, new double[rounds][]);
    }
    for (int round = 0; round < rounds; round++) {
      Map<String, double[]> figures = new LinkedHashMap<>();
      for (Map.Entry<String, Path> p : paths.entrySet()) {
        figures.put(p.getKey(), p.getValue().run(round));
        out.get(p.getKey())[round] = figures.get(p.getKey());
      }
      line.print(round, figures);
    }
    return out;
  }

  /** The median of figure {@code k} over the rounds. */
  static double median(double[][] rounds, int k) {
    return median(Arrays.stream(rounds).mapToDouble(f -> f[k]).toArray());
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
