package site.ycsb.embedded;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The time HotSpot's compiler threads of this JVM have spent on a core, read from Linux's per-thread scheduler
 * figures: the JVM's own compilation time grows only when a compilation ends, so it cannot tell a long compilation
 * in progress from a quiet compiler.
 */
final class CompilerThreads {

  private static final Path TASKS = Path.of("/proc/self/task");
  /** HotSpot names them "C1 CompilerThread0", "C2 CompilerThread1", ...; Linux keeps 15 characters. */
  private static final String NAME = "CompilerThre";

  private CompilerThreads() {
  }

  /**
   * Nanoseconds on a core of every compiler thread alive now ({@code schedstat}'s first figure), summed; 0 where
   * Linux's figures are not there to read (another system, a kernel without them), so that a caller sees no change.
   */
  static long onCpuNanos() {
    long sum = 0;
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
      for (Path task : tasks) {
        sum += onCpuNanos(task);
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return sum;
  }

  /** One task's time on a core when it is a compiler thread, else 0 (a thread that ended meanwhile: 0). */
  static long onCpuNanos(Path task) {
    try {
      if (!Files.readString(task.resolve("comm")).contains(NAME)) {
        return 0;
      }
      String stat = Files.readString(task.resolve("schedstat")).trim();
      int blank = stat.indexOf(' ');
      return Long.parseLong(blank < 0 ? stat : stat.substring(0, blank));
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
