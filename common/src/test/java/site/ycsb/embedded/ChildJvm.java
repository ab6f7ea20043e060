package site.ycsb.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A class's main in a JVM of its own, on the test's class path and library path: for what used to kill
 * its JVM (a SIGBUS is exit status 134 there, not the end of the test run). Its stdout and stderr go to
 * files in {@code workDir}, so a writer the test does not read still runs.
 */
public final class ChildJvm {

  /** The exit status of a JVM a SIGBUS (or another fatal signal the JVM reports) killed: 128 + SIGABRT. */
  public static final int CRASHED = 134;

  private final Process process;
  private final Path out;
  private final Path err;

  private ChildJvm(Process process, Path out, Path err) {
    this.process = process;
    this.out = out;
    this.err = err;
  }

  /**
   * Starts {@code main} with {@code args}; {@code env} is added to this JVM's environment, without
   * LD_PRELOAD unless {@code env} sets it. Output files: {@code workDir/<name>.out} and {@code .err}.
   */
  public static ChildJvm start(Path workDir, String name, Map<String, String> env, Class<?> main, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path")));
    String libPath = System.getProperty("java.library.path");
    if (libPath != null) {
      cmd.add("-Djava.library.path=" + libPath);
    }
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    Files.createDirectories(workDir);
    Path out = workDir.resolve(name + ".out");
    Path err = workDir.resolve(name + ".err");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().remove("LD_PRELOAD");
    pb.environment().putAll(env);
    return new ChildJvm(pb.start(), out, err);
  }

  /** Runs {@code main} to its end: {exit status, stdout, stderr}. */
  public static String[] run(Path workDir, String name, Map<String, String> env, Class<?> main, String... args)
      throws IOException, InterruptedException {
    ChildJvm jvm = start(workDir, name, env, main, args);
    return new String[] {Integer.toString(jvm.waitFor()), jvm.stdout(), jvm.stderr()};
  }

  /** Waits for the end (at most 3 minutes, then kills it): its exit status. */
  public int waitFor() throws InterruptedException {
    if (!process.waitFor(3, java.util.concurrent.TimeUnit.MINUTES)) {
      process.destroyForcibly().waitFor();
    }
    return process.exitValue();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** What it printed on stdout so far. */
  public String stdout() throws IOException {
    return new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
  }

  /** What it printed on stderr so far. */
  public String stderr() throws IOException {
    return new String(Files.readAllBytes(err), StandardCharsets.UTF_8);
  }
}
