package site.ycsb.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The properties YCSB 0.17's {@code site.ycsb.Client} makes of its command line, made the same way before
 * Client runs (its own {@code parseArguments} is private): {@code -P} files in order, each later file's
 * values over an earlier one's, then every {@code -p name=value}, {@code -threads}, {@code -target},
 * {@code -load}, {@code -t}, {@code -s}, {@code -db} and {@code -l} over them all. Where Client would print
 * its usage and stop (an unknown option, a missing value, a file it cannot read, no {@code workload}), this
 * returns null and leaves the message to Client. {@code YcsbArgumentsTest} checks the result against
 * Client's own on the command lines the launcher makes. The project's driver also takes a fraction in
 * {@code -target} ({@link #parse(String[], boolean)}).
 */
public final class YcsbArguments {

  private YcsbArguments() {
  }

  /** Client's properties for {@code args}, or null where Client would refuse them. */
  public static Properties parse(String[] args) {
    return parse(args, false);
  }

  /**
   * As {@link #parse(String[])}; {@code fractionalTarget}: {@code -target} may be a number with a fraction
   * ({@code 1500.5} operations a second), kept as given, as the project's driver reads it; a whole number is kept
   * as Client keeps it either way.
   */
  public static Properties parse(String[] args, boolean fractionalTarget) {
    Properties files = new Properties();
    Properties given = new Properties();
    int i = 0;
    try {
      while (i < args.length && args[i].startsWith("-")) {
        String option = args[i++];
        switch (option) {
          case "-load" -> given.setProperty("dotransactions", "false");
          case "-t" -> given.setProperty("dotransactions", "true");
          case "-s" -> given.setProperty("status", "true");
          case "-threads" -> given.setProperty("threadcount", Integer.toString(Integer.parseInt(args[i++])));
          case "-target" -> given.setProperty("target", target(args[i++], fractionalTarget));
          case "-db" -> given.setProperty("db", args[i++]);
          case "-l" -> given.setProperty("label", args[i++]);
          case "-P" -> {
            Properties file = new Properties();
            try (InputStream in = Files.newInputStream(Path.of(args[i++]))) {
              file.load(in);
            }
            file.stringPropertyNames().forEach(name -> files.setProperty(name, file.getProperty(name)));
          }
          case "-p" -> {
            String pair = args[i++];
            int eq = pair.indexOf('=');
            if (eq < 0) {
              return null;
            }
            given.setProperty(pair.substring(0, eq), pair.substring(eq + 1));
          }
          default -> {
            return null;
          }
        }
      }
    } catch (IOException | RuntimeException e) { // a missing value, a number that is not one, an unreadable file
      return null;
    }
    if (i != args.length) {
      return null;
    }
    given.stringPropertyNames().forEach(name -> files.setProperty(name, given.getProperty(name)));
    return files.getProperty("workload") == null ? null : files;
  }

  /**
   * {@code -target}'s value: Client's whole number, or, {@code fractional}, a number as given (its range is checked
   * by {@link Preflight}); NumberFormatException for one that is no number.
   */
  private static String target(String value, boolean fractional) {
    try {
      return Integer.toString(Integer.parseInt(value));
    } catch (NumberFormatException e) {
      if (!fractional) {
        throw e;
      }
      Double.parseDouble(value);
      return value;
    }
  }
}
