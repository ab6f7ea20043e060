package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * YCSB 0.17's client exits 0 after a DBException from init() and after failed operations; under
 * YCSB's own main class a binding makes it exit 3 (refused to open) or 4 (an operation returned
 * ERROR). Each case runs the real site.ycsb.Client in a JVM of its own.
 */
class ClientExitStatusTest {

  @TempDir
  Path tmp;

  private String[] load(Map<String, String> props) throws Exception {
    Map<String, String> all = new java.util.HashMap<>(props);
    all.put("path", tmp.resolve("db").toString());
    all.put("recordcount", "50");
    return YcsbClientProcess.run(tmp, InMemoryDb.class.getName(), "-load", all);
  }

  @Test
  void aGoodRunExitsZero() throws Exception {
    String[] r = load(Map.of());
    assertEquals("0", r[0], r[1]);
    assertTrue(r[1].contains("[INSERT], Return=OK, 50"), r[1]);
    assertFalse(r[1].contains("[ycsb-embedded] exit status"), r[1]);
  }

  @Test
  void aRefusedOpenExitsThreeAndSaysWhy() throws Exception {
    String[] r = load(Map.of("batchsize", "ten"));
    assertEquals("3", r[0], "YCSB's client must not exit 0 when the binding refused to open:\n" + r[1]);
    assertTrue(r[1].contains("[ycsb-embedded] exit status 3: the binding refused to open: [memory] property"
        + " batchsize (read as memory.batchsize) = 'ten'"), r[1]);
  }

  @Test
  void failedOperationsExitFour() throws Exception {
    String[] r = load(Map.of(InMemoryDb.FAIL_WRITES, "true"));
    assertEquals("4", r[0], "YCSB's client must not exit 0 when operations returned ERROR:\n" + r[1]);
    // YCSB's load stops at the first failed insert.
    assertTrue(r[1].contains("[INSERT-FAILED], Operations, 1"), r[1]);
    assertTrue(r[1].contains("[ycsb-embedded] exit status 4: 1 operation(s) returned ERROR"), r[1]);
  }

  @Test
  void aRefusedEmbeddedWorkloadExitsThreeAndSaysWhy() throws Exception {
    String[] r = load(Map.of("workload", "site.ycsb.embedded.workload.EmbeddedWorkload", "keyformat", "bar"));
    assertEquals("3", r[0], "YCSB's client must not exit 0 when the workload refused to start:\n" + r[1]);
    assertTrue(r[1].contains("[ycsb-embedded] exit status 3: the workload refused to start: property keyformat"),
        r[1]);
    assertFalse(r[1].contains("[INSERT]"), r[1]);
  }

  @Test
  void theVerdictPutsARefusalFirstAndAStopBeforeTheDatabaseLast() {
    assertEquals(3, ClientExitStatus.verdict("the workload refused to start: x", 2, true)[0]);
    assertEquals(4, ClientExitStatus.verdict(null, 2, true)[0]);
    Object[] stopped = ClientExitStatus.verdict(null, 0, true);
    assertEquals(3, stopped[0]);
    assertTrue(((String) stopped[1]).startsWith("YCSB stopped before opening the database"), (String) stopped[1]);
    assertEquals(null, ClientExitStatus.verdict(null, 0, false));
  }

  @Test
  void onlyYcsbsOwnMainClassesAreCorrected() {
    assertTrue(ClientExitStatus.isYcsbMain(CheckedClient.class.getName() + " -db x -t"));
    assertTrue(ClientExitStatus.isYcsbMain("site.ycsb.Client -db x -load"));
    assertTrue(ClientExitStatus.isYcsbMain("site.ycsb.CommandLine"));
    assertFalse(ClientExitStatus.isYcsbMain("site.ycsb.ClientX -db x"));
    assertFalse(ClientExitStatus.isYcsbMain("org.apache.maven.surefire.booter.ForkedBooter"));
  }
}
