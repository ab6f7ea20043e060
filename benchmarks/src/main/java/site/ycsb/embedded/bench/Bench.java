package site.ycsb.embedded.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The one driver of the benchmarks' questions (all but the layered benchmark, {@link Layers}): the question is the
 * first argument, its options follow, each {@code --name value} with the default the question declares. One parsing
 * of the options, one working directory (a temporary one, deleted at the end, unless {@code --dir} names one, which
 * is kept), one exit status (1 when a question reports a failed step). Each question's rounds run through
 * {@link Alternation} (per round) or {@link PairedOps} (per operation).
 *
 * <p>Usage: Bench QUESTION [--option value ...]; the questions and their options: {@link #QUESTIONS}.
 */
public final class Bench {

  private Bench() {
  }

  /** A question's body: its options and where to print; the exit status (0, or 1 when a step failed). */
  interface Body {
    int run(Options o, PrintStream out) throws Exception;
  }

  /** A question: its body and its options' defaults ("" where an option has none, such as --dir). */
  record Question(Body body, String... defaults) {
  }

  /** Every engine of {@link Engines#ALL}, comma-separated: the default where a question runs them all. */
  static final String ALL_ENGINES = String.join(",", Engines.names());

  /** The questions, by the name run.sh gives them. */
  static final Map<String, Question> QUESTIONS = new LinkedHashMap<>();

  static {
    QUESTIONS.put("side-by-side", new Question(BindingOverhead::sideBySide, "--engines", ALL_ENGINES, "--ops",
        "200000", "--rounds", "3", "--dir", ""));
    QUESTIONS.put("disk-guard", new Question(BindingOverhead::diskGuard, "--engines", ALL_ENGINES, "--ops", "200000",
        "--rounds", "3"));
    QUESTIONS.put("binding-cost", new Question(BindingCodeCost::bindingCost, "--ops", "1000000", "--rounds", "5"));
    QUESTIONS.put("engine-work", new Question(BindingCodeCost::engineWork, "--ops", "300000", "--rounds", "5"));
    QUESTIONS.put("client-cost", new Question(ClientCost::run, "--ops", "1000000", "--rounds", "3"));
    QUESTIONS.put("flat-cost", new Question(FlatCost::run, "--engines", String.join(",", FlatCost.DEFAULT_ENGINES),
        "--records", FlatCost.DEFAULT_RECORDS.stream().map(String::valueOf).collect(Collectors.joining(",")),
        "--rounds", Integer.toString(FlatCost.DEFAULT_ROUNDS), "--ops", Integer.toString(FlatCost.DEFAULT_OPS),
        "--operations", String.join(",", FlatCost.DEFAULT_OPERATIONS), "--dir", "", "--workloads", ""));
    QUESTIONS.put("lmdb-read", new Question(LmdbReadPath::run, "--records", "200000", "--reads", "2000000",
        "--rounds", "3", "--dir", ""));
  }

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out));
  }

  /** Runs the question {@code args[0]} with the options after it, printing to {@code out}; the exit status. */
  static int run(String[] args, PrintStream out) throws Exception {
    Question q = args.length == 0 ? null : QUESTIONS.get(args[0]);
    if (q == null) {
      throw new IllegalArgumentException((args.length == 0 ? "no question" : "unknown question " + args[0])
          + "; usage: Bench QUESTION [options], the questions: " + String.join(", ", QUESTIONS.keySet()));
    }
    return q.body().run(new Options(args[0], q.defaults(), Arrays.copyOfRange(args, 1, args.length)), out);
  }

  /** The options of one question: each given {@code --name value}, else its default. */
  static final class Options {
    private final Map<String, String> values = new LinkedHashMap<>();

    Options(String question, String[] defaults, String[] args) {
      for (int i = 0; i + 1 < defaults.length; i += 2) {
        values.put(defaults[i], defaults[i + 1]);
      }
      for (int i = 0; i < args.length; i += 2) {
        if (!values.containsKey(args[i]) || i + 1 == args.length) {
          throw new IllegalArgumentException((values.containsKey(args[i]) ? "no value for " : "unknown argument ")
              + args[i] + "; usage: " + question + " " + usage());
        }
        values.put(args[i], args[i + 1]);
      }
    }

    private String usage() {
      List<String> u = new ArrayList<>();
      values.keySet().forEach(k -> u.add("[" + k + " " + k.substring(2).toUpperCase(java.util.Locale.ROOT) + "]"));
      return String.join(" ", u);
    }

    int integer(String name) {
      return Integer.parseInt(text(name));
    }

    String text(String name) {
      String v = values.get(name);
      if (v == null) {
        throw new IllegalStateException("no option " + name);
      }
      return v;
    }

    List<String> list(String name) {
      return Arrays.asList(text(name).split(","));
    }

    /** The path an option names, or null when it names none. */
    Path path(String name) {
      return text(name).isEmpty() ? null : Path.of(text(name)).toAbsolutePath();
    }

    /** The workload files: --workloads, else the checkout's (the layers.top property run.sh sets). */
    Path workloads() {
      Path given = values.containsKey("--workloads") ? path("--workloads") : null;
      return given != null ? given : Path.of(System.getProperty("layers.top", ".")).toAbsolutePath().normalize()
          .resolve("workloads");
    }

    /** The question's working directory: --dir's (created, kept), else a temporary one deleted at the close. */
    WorkDir dir(String prefix) throws IOException {
      Path given = values.containsKey("--dir") ? path("--dir") : null;
      return given != null ? new WorkDir(Files.createDirectories(given), false)
          : new WorkDir(Files.createTempDirectory(prefix), true);
    }
  }

  /** A working directory; deleted at the close when the harness made it. */
  record WorkDir(Path path, boolean own) implements AutoCloseable {
    @Override
    public void close() throws IOException {
      if (own) {
        Layers.deleteTree(path);
      }
    }
  }
}
