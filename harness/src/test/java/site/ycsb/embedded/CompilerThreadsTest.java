package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import javax.management.ObjectName;

import org.junit.jupiter.api.Test;

/**
 * The wait for a quiet JIT sees a compilation in progress, which the JVM's compilation time does not show until it
 * ends: the compiler threads' time on a core, read from Linux.
 */
class CompilerThreadsTest {

  /** A JIT whose compilation time never moves, as during one long compilation. */
  private static final CompilationMXBean STILL = new CompilationMXBean() {
    @Override
    public String getName() {
      return "still";
    }

    @Override
    public boolean isCompilationTimeMonitoringSupported() {
      return true;
    }

    @Override
    public long getTotalCompilationTime() {
      return 42;
    }

    @Override
    public ObjectName getObjectName() {
      return null;
    }
  };

  @Test
  void thisJvmsCompilerThreadsHaveRunOnACore() {
    // the test's own code was compiled by C1 at least, on one of them
    assertTrue(CompilerThreads.onCpuNanos() > 0, "no compiler thread found under /proc/self/task");
  }

  @Test
  void aCompilerThreadStillRunningKeepsTheWaitGoingUntilItStops() throws Exception {
    long start = System.nanoTime();
    // 5 ms on a core every 10 ms for the first 400 ms, then nothing: one long compilation, then quiet
    Warmup.awaitQuietCompiler(STILL, () -> Math.min(System.nanoTime() - start, 400_000_000L) / 2, 3_000);
    double waited = (System.nanoTime() - start) / 1e9;
    // at least the 400 ms of the compilation and the 100 ms of quiet after it (the JVM's figure alone: 100 ms)
    assertTrue(waited >= 0.49, "returned after " + waited + " s");
    assertTrue(waited < 2.9, "waited to the limit: " + waited + " s");
  }

  @Test
  void aQuietCompilerEndsTheWaitAfterItsQuietTime() throws Exception {
    long start = System.nanoTime();
    Warmup.awaitQuietCompiler(STILL, () -> 7, 3_000);
    assertTrue((System.nanoTime() - start) / 1e9 < 2.9, "a compiler that never ran held the wait to its limit");
    Warmup.awaitQuietCompiler(ManagementFactory.getCompilationMXBean(), 2_000);
  }
}
