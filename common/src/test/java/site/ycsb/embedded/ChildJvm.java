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
    List<String> cmd = javaCommand();
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

  /**
   * A child JVM's command up to its main class: this JVM's java, class path and library path, and, as bin/ycsb
   * names them, the native libraries the build unpacked into the module's {@code target/native} (those of the Java
   * libraries that search the library path, there; the others by the system properties of the registry's
   * {@code launch.native.FILE} facts).
   * Without them each library unpacks a copy into java.io.tmpdir, which a child that halts (a refused start's exit
   * status) or is killed leaves behind.
   */
  public static List<String> javaCommand() {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path")));
    Path natives = Path.of("target", "native").toAbsolutePath();
    String libPath = System.getProperty("java.library.path");
    // rocksdbjni and leveldbjni look for theirs on java.library.path, as bin/ycsb gives them the module's natives
    String searched = Files.isDirectory(natives) ? natives + (libPath != null ? ":" + libPath : "") : libPath;
    if (searched != null) {
      cmd.add("-Djava.library.path=" + searched);
    }
    // the others by the system properties of the registry's launch.native.FILE facts, as bin/ycsb reads them
    EngineRegistry.factsStartingWith("launch.native.").forEach((file, props) -> {
      if (Files.isRegularFile(natives.resolve(file))) {
        for (String prop : props.split(",")) {
          if (!prop.isBlank()) {
            cmd.add("-D" + prop.strip().replace("{dir}", natives.toString()));
          }
        }
      }
    });
    return cmd;
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
