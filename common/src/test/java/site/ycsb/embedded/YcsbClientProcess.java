package site.ycsb.embedded;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Runs YCSB's own client ({@code site.ycsb.Client}, core untouched) in a JVM of its own. */
final class YcsbClientProcess {

  private YcsbClientProcess() {
  }

  /**
   * Runs {@code site.ycsb.Client -db <binding> <phase>} with CoreWorkload and {@code properties};
   * returns {exit status, stdout and stderr together}.
   */
  static String[] run(Path cwd, String binding, String phase, Map<String, String> properties) throws Exception {
    return run(cwd, "site.ycsb.Client", binding, phase, properties);
  }

  /** The same under another main class (the launcher's {@code CheckedClient}). */
  static String[] run(Path cwd, String main, String binding, String phase, Map<String, String> properties)
      throws Exception {
    List<String> cmd = ChildJvm.javaCommand();
    cmd.addAll(List.of(main, "-db", binding, phase,
        "-p", "workload=site.ycsb.workloads.CoreWorkload", "-p", "fieldcount=1", "-p", "fieldlength=20"));
    properties.forEach((k, v) -> cmd.addAll(List.of("-p", k + "=" + v)));
    Process proc = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true).start();
    String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new String[] {Integer.toString(proc.waitFor()), out};
  }
}
