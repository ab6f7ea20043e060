package site.ycsb.embedded;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lines a JVM says once: a note or a warning that comes out the same at every open (Kyoto's "not
 * preloaded" warning, LMDB's flags line) is printed at the first open that has it and not again, so a
 * JVM that opens a database many times (a test class, a benchmark harness) does not bury its output
 * under copies. A line that differs (other flags, another free space) is a new line and said too.
 */
public final class OncePerJvm {

  private static final Set<String> SAID = ConcurrentHashMap.newKeySet();

  private OncePerJvm() {
  }

  /** True the first time this JVM asks about {@code line}, false every later time. */
  public static boolean first(String line) {
    return SAID.add(line);
  }

  /**
   * Forgets every line said: a driver that runs several steps in one JVM (harness/) starts each step's output anew,
   * and each step's stderr must say what applies to it.
   */
  public static void forgetAll() {
    SAID.clear();
  }

  /** Whether {@link #first} was asked about {@code line} already; asks nothing itself. */
  public static boolean said(String line) {
    return SAID.contains(line);
  }
}
