package site.ycsb.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Whether this JVM runs with {@value #LIBRARY} preloaded (datadir/src/main/c/mmap_space.c): then a file that
 * an engine grows for its memory maps (leveldbjni's LevelDB 1.13, Kyoto Cabinet) holds real blocks, and a
 * filesystem that another process fills is an IO error ("No space left on device") instead of a SIGBUS that
 * kills the JVM. {@code bin/ycsb} preloads it for each engine the registry marks {@code launch.mmapspace}; a JVM
 * started otherwise needs {@code LD_PRELOAD=<path>/libycsb_mmap_space.so}.
 */
public final class MmapSpace {

  /** The preloaded library's file name, as bin/ycsb and the distribution ship it. */
  public static final String LIBRARY = "libycsb_mmap_space.so";

  private static final boolean PRELOADED = mapped();

  private MmapSpace() {
  }

  /** True when {@value #LIBRARY} is mapped into this process. */
  public static boolean preloaded() {
    return PRELOADED;
  }

  private static boolean mapped() {
    try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
      return maps.anyMatch(line -> line.endsWith("/" + LIBRARY));
    } catch (IOException | RuntimeException e) {
      return false; // no /proc: not Linux, where the engines' mmap behaves the same but nothing is preloaded
    }
  }
}
