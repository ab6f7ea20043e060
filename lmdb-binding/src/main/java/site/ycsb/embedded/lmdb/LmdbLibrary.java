package site.ycsb.embedded.lmdb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.lmdbjava.Meta;

/**
 * Which liblmdb lmdbjava calls ({@link LmdbOptions#LIBRARY}): the one bundled in its jar, or the system's, the library
 * the project's C floor and YCSB-cpp run. lmdbjava loads one library per JVM, the file its system property
 * {@value #LMDBJAVA_FILE} names when its first call loads it: the first LMDB client of a JVM picks it, and a later
 * client that asks for the other one is refused.
 */
final class LmdbLibrary {

  static final String BUNDLED = "bundled";
  static final String SYSTEM = "system";
  /** lmdbjava's system property: the library file it loads instead of unpacking its own (bin/ycsb names its own). */
  static final String LMDBJAVA_FILE = "lmdbjava.native.lib";
  /** Where Debian (and Fedora, Alpine) keep liblmdb0's library. */
  static final List<String> SYSTEM_FILES = List.of("/usr/lib/x86_64-linux-gnu/liblmdb.so.0",
      "/usr/lib/aarch64-linux-gnu/liblmdb.so.0", "/usr/lib64/liblmdb.so.0", "/usr/lib/liblmdb.so.0",
      "/usr/local/lib/liblmdb.so.0");

  /** What this JVM loaded ({@link #BUNDLED} or {@link #SYSTEM}), null until the first {@link #load}. */
  private static String loaded;
  /** The system library's file when {@link #loaded} is {@link #SYSTEM}. */
  private static Path systemFile;

  private LmdbLibrary() {
  }

  /**
   * Loads {@code which} library through lmdbjava, once per JVM (a no-op after that when it is the same one).
   *
   * @throws IOException when the system's library is asked for and missing, or this JVM loaded the other one
   */
  static synchronized void load(String which) throws IOException {
    if (loaded == null) {
      Path file = null;
      if (which.equals(SYSTEM)) {
        file = findSystemFile();
        System.setProperty(LMDBJAVA_FILE, file.toString());
      }
      Meta.version(); // lmdbjava's first call: it loads the file now
      loaded = which;
      systemFile = file;
    } else if (!loaded.equals(which)) {
      throw new IOException(LmdbOptions.LIBRARY + " = " + which + " cannot apply: this JVM already runs the " + loaded
          + " liblmdb (" + describe() + "), and lmdbjava loads one library per JVM; run it in a JVM of its own");
    }
  }

  /** The system's liblmdb, the first of {@link #SYSTEM_FILES} that exists. */
  static Path findSystemFile() throws IOException {
    for (String name : SYSTEM_FILES) {
      Path p = Path.of(name);
      if (Files.isRegularFile(p)) {
        return p;
      }
    }
    throw new IOException(LmdbOptions.LIBRARY + " = " + SYSTEM + " asks for the system's liblmdb, but none of "
        + SYSTEM_FILES + " exists (Debian: apt-get install liblmdb0); " + BUNDLED + " runs lmdbjava's own");
  }

  /** The library lmdbjava calls, for the start-up header: "the liblmdb bundled in lmdbjava 0.9.1", or the file. */
  static synchronized String describe() {
    String lmdbjava = LmdbHandle.lmdbjavaVersion();
    return systemFile != null ? "the system's liblmdb " + systemFile + " under lmdbjava " + lmdbjava
        : "the liblmdb bundled in lmdbjava " + lmdbjava;
  }
}
