package site.ycsb.embedded.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The one driver of the benchmarks' questions, the layered benchmark ({@link Layers}) and the side-by-side one
 * ({@link BindingOverhead}): Bench QUESTION [--name value | --flag ...], each option with the default the question
 * declares ({@link #QUESTIONS}). One parsing of the options, one working directory (a temporary one, deleted at the
 * end, unless {@code --dir} names one, which is kept), one exit status (1 when a question reports a failed step).
 */
public final class Bench {

  private Bench() {
  }

  /** A question's body: its options and where to print; the exit status (0, or 1 when a step failed). */
  interface Body {
    int run(Options o, PrintStream out) throws Exception;
  }

  /** A question: its body and its options' defaults ("" where an option has none, such as --dir; null: a flag). */
  record Question(Body body, String... defaults) {
  }

  /** Every engine of {@link Engines#ALL} (every row on the class path), comma-separated: the default of --engines. */
  static final String ALL_ENGINES = String.join(",", Engines.names());

  /** The questions, by the name run.sh gives them. */
  static final Map<String, Question> QUESTIONS = new LinkedHashMap<>();

  static {
    QUESTIONS.put("layers", new Question(Layers::run, "--engines", ALL_ENGINES, "--shapes",
        Arrays.stream(LayerShape.values()).map(s -> s.id).collect(Collectors.joining(",")), "--records", "200000",
        "--rounds", "3", "--smoke", null, "--dir", ""));
    QUESTIONS.put("side-by-side", new Question(BindingOverhead::sideBySide, "--engines", ALL_ENGINES, "--ops",
        "200000", "--rounds", "3", "--dir", ""));
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
    /** The flags, each true once given. */
    private final Map<String, Boolean> flags = new HashMap<>();

    Options(String question, String[] defaults, String[] args) {
      for (int i = 0; i + 1 < defaults.length; i += 2) {
        if (defaults[i + 1] == null) {
          flags.put(defaults[i], false);
        } else {
          values.put(defaults[i], defaults[i + 1]);
        }
      }
      for (int i = 0; i < args.length; i++) {
        boolean known = values.containsKey(args[i]) || flags.containsKey(args[i]);
        if (!known || values.containsKey(args[i]) && i + 1 == args.length) {
          throw new IllegalArgumentException((known ? "no value for " : "unknown argument ") + args[i] + "; usage: "
              + question + " " + usage(defaults));
        }
        if (flags.containsKey(args[i])) {
          flags.put(args[i], true);
        } else {
          values.put(args[i], args[++i]);
        }
      }
    }

    private static String usage(String[] defaults) {
      List<String> u = new ArrayList<>();
      for (int i = 0; i + 1 < defaults.length; i += 2) {
        String k = defaults[i];
        u.add("[" + k + (defaults[i + 1] == null ? "" : " " + k.substring(2).toUpperCase(Locale.ROOT)) + "]");
      }
      return String.join(" ", u);
    }

    /** Whether a flag was given. */
    boolean flag(String name) {
      return flags.get(name);
    }

    int integer(String name) {
      return Integer.parseInt(text(name));
    }

    String text(String name) {
      return Objects.requireNonNull(values.get(name), () -> "no option " + name);
    }

    List<String> list(String name) {
      return Arrays.asList(text(name).split(","));
    }

    /** The checkout: the layers.top property run.sh sets, else the working directory. */
    Path top() {
      return Path.of(System.getProperty("layers.top", ".")).toAbsolutePath().normalize();
    }

    /** The question's working directory: --dir's (created, kept), else a temporary one deleted at the close. */
    WorkDir dir(String prefix) throws IOException {
      String d = text("--dir");
      return d.isEmpty() ? new WorkDir(Files.createTempDirectory(prefix), true)
          : new WorkDir(Files.createDirectories(Path.of(d).toAbsolutePath()), false);
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
