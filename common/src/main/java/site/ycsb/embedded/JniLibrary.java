package site.ycsb.embedded;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.CodeSource;
import java.util.function.BinaryOperator;

/**
 * Loads a binding's own JNI library (Kyoto's, the system LevelDB's): from {@code java.library.path}
 * as bin/ycsb sets it, else from beside the binding's jar, where a YCSB distribution's launcher
 * (which sets no library path) finds it in {@code <name>-binding/lib}.
 */
public final class JniLibrary {

  private JniLibrary() {
  }

  /**
   * Loads {@code lib<name>.so}; returns null when loaded, else the message {@code explain} makes of
   * the JVM's link error and the library path (what is missing and how to install it).
   */
  public static String load(Class<?> owner, String name, BinaryOperator<String> explain) {
    try {
      System.loadLibrary(name);
      return null;
    } catch (UnsatisfiedLinkError e) {
      Path besideJar = besideJar(owner, name);
      if (besideJar != null && Files.isRegularFile(besideJar)) {
        try {
          System.load(besideJar.toString());
          return null;
        } catch (UnsatisfiedLinkError e2) {
          return explain.apply(e2.getMessage(), System.getProperty("java.library.path"));
        }
      }
      return explain.apply(e.getMessage(), System.getProperty("java.library.path"));
    }
  }

  /** lib&lt;name&gt;.so in the directory of the jar {@code owner} came from, or null. */
  private static Path besideJar(Class<?> owner, String name) {
    try {
      CodeSource src = owner.getProtectionDomain().getCodeSource();
      if (src == null) {
        return null;
      }
      Path where = Paths.get(src.getLocation().toURI());
      return Files.isRegularFile(where) ? where.resolveSibling("lib" + name + ".so") : null;
    } catch (URISyntaxException | RuntimeException e) {
      return null;
    }
  }
}
