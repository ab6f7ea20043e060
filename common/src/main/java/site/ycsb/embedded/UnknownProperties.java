package site.ycsb.embedded;

import java.util.Collection;
import java.util.Locale;
import java.util.Properties;

/**
 * A property whose name no part of the run reads (a misspelt {@code recordcnt=1000}, which YCSB ignores, loading the
 * file's million records): the warning that names it and the nearest name that is read, said once per JVM, or its
 * refusal with {@value #STRICT}{@code =true}. The launcher's {@code Preflight} says it before anything runs, for
 * every part of the run; a binding's open ({@link KeyValueDB}) for its own names, in a run without the launcher.
 */
public final class UnknownProperties {

  /** true: a property's name that no part of the run reads is refused; false (the default): it is warned about. */
  public static final String STRICT = "strictproperties";

  private UnknownProperties() {
  }

  /** {@value #STRICT}'s value: true or false, in any case. */
  static boolean strict(Properties p) {
    String s = p.getProperty(STRICT, "false").trim().toLowerCase(Locale.ROOT);
    if (!s.equals("true") && !s.equals("false")) {
      throw new EngineProperties.BadPropertyException(EngineProperties.refusal(STRICT, p.getProperty(STRICT),
          "true or false"));
    }
    return s.equals("true");
  }

  /** The warning for a property no part of the run reads: its name, value and the nearest name that is read. */
  static String warning(String name, String value, Collection<String> known) {
    return "WARNING: property " + name + " = '" + value + "' is read by no part of this run and is ignored"
        + suggestion(name, known) + " (" + STRICT + "=true refuses such a name)";
  }

  /** The key of {@link OncePerJvm} under which a name no part of the run reads is said once. */
  static String onceKey(String name) {
    return "property read by no part of the run: " + name;
  }

  /** "; did you mean recordcount?" for the known name nearest {@code name}, or nothing when none is near. */
  static String suggestion(String name, Collection<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String k : known) {
      int d = distance(name.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best != null && bestDistance <= Math.max(2, name.length() / 4) ? "; did you mean " + best + "?" : "";
  }

  /** The edit distance (insertions, deletions, substitutions, swaps of two neighbours) between a and b. */
  private static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
