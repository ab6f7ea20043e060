package site.ycsb.embedded;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a binding prints at open, on the first screen: the engine and its version, the open, the properties that
 * are not at their defaults and every warning; the rest (the properties at their defaults, the engine's notes, what
 * it read back, the layout) counted in one line that names {@value #VERBOSE}{@code =true}, which prints them all,
 * as the suite's steps do (analysis/ reads the whole configuration from them).
 */
final class StartupLines {

  /** Every start-up line: each property with its origin, the engine's notes and details. */
  static final String VERBOSE = "verbose";

  /** A property line of {@link EngineProperties#describe()}: two blanks, name = value (origin). */
  private static final Pattern PROPERTY = Pattern.compile("^  \\S+ = .* \\(([^()]*)\\)$");
  private static final String ALL = "; effective configuration:";

  private StartupLines() {
  }

  /**
   * The first screen of {@code banner} (the lines KeyValueDB prints at open, each but the properties starting with
   * {@code tag}): its first line (the engine and its version), the open, the properties not at their defaults and
   * the warnings, then one line that counts the rest and names {@value #VERBOSE}=true; the banner as it is when
   * nothing is left out.
   */
  static String firstScreen(String banner, String tag) {
    StringBuilder kept = new StringBuilder();
    int defaults = 0;
    int notes = 0;
    int details = 0;
    boolean first = true;
    for (String line : banner.split("\\R")) {
      Matcher property = PROPERTY.matcher(line);
      if (first || line.contains("WARNING")) {
        kept.append(line).append(System.lineSeparator());
      } else if (line.startsWith(tag + "opened ") && line.endsWith(ALL)) {
        kept.append(line, 0, line.length() - ALL.length()).append("; what differs from the default configuration:")
            .append(System.lineSeparator());
      } else if (property.matches()) {
        if (property.group(1).equals("default")) {
          defaults++;
        } else {
          kept.append(line).append(System.lineSeparator());
        }
      } else if (line.startsWith(tag + "NOTE: ")) {
        notes++;
      } else if (!line.isEmpty()) {
        details++;
      }
      first = false;
    }
    if (defaults + notes + details == 0) {
      return banner;
    }
    java.util.List<String> rest = new java.util.ArrayList<>();
    if (defaults > 0) {
      rest.add(count(defaults, "property", "properties") + " at their defaults");
    }
    if (notes > 0) {
      rest.add(count(notes, "note", "notes"));
    }
    if (details > 0) {
      rest.add(count(details, "more line", "more lines") + " (the engine's details, the layout)");
    }
    return kept.append(tag).append("not shown: ").append(String.join(", ", rest)).append("; -p ").append(VERBOSE)
        .append("=true prints every start-up line").append(System.lineSeparator()).toString();
  }

  private static String count(int n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }
}
