package site.ycsb.embedded.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.embedded.ClientExitStatus;
import site.ycsb.embedded.YcsbArguments;

/**
 * The driver's {@code -target}: a whole number schedules each thread exactly as YCSB's Client does, and a rate with
 * a fraction (1500.5 operations a second), which Client refuses, is read, checked and scheduled.
 */
class TargetTest {

  @TempDir
  Path tmp;

  private static Properties target(String value) {
    Properties p = new Properties();
    if (value != null) {
      p.setProperty("target", value);
    }
    return p;
  }

  @Test
  void aWholeTargetIsEachThreadsShareAsYcsbsClientComputesIt() {
    for (int rate : new int[] {1, 7, 1000, 1500, 20000, 333333, Integer.MAX_VALUE}) {
      for (int threads : new int[] {1, 2, 3, 7, 16}) {
        double clients = (double) rate / threads / 1000.0; // YCSB 0.17 Client's targetperthreadperms
        double ours = Step.targetPerThreadPerMs(target(Integer.toString(rate)), threads);
        assertEquals(clients, ours, 0.0, rate + " ops/s on " + threads + " thread(s)");
        assertEquals((long) (1000000 / clients), ClientLoop.tickNanos(ours), "the tick of " + rate + " ops/s");
      }
    }
    assertEquals(-1, Step.targetPerThreadPerMs(target("0"), 1), 0.0, "0: no target");
    assertEquals(-1, Step.targetPerThreadPerMs(target(null), 4), 0.0, "none given");
    assertEquals(0, ClientLoop.tickNanos(-1), "no target: no tick");
  }

  @Test
  void aTargetWithAFractionReachesTheSchedule() {
    assertEquals(1.5005, Step.targetPerThreadPerMs(target("1500.5"), 1), 1e-12);
    assertEquals(0.75025, Step.targetPerThreadPerMs(target("1500.5"), 2), 1e-12);
    long tick = ClientLoop.tickNanos(Step.targetPerThreadPerMs(target("1500.5"), 1));
    assertEquals(666_444, tick, "1e9 ns / 1500.5");
    long slower = ClientLoop.tickNanos(Step.targetPerThreadPerMs(target("1500"), 1));
    long faster = ClientLoop.tickNanos(Step.targetPerThreadPerMs(target("1501"), 1));
    assertTrue(faster < tick && tick < slower, faster + " < " + tick + " < " + slower);
  }

  @Test
  void theDriverReadsAFractionalTargetWhereYcsbsClientWouldRefuseIt() throws Exception {
    Path file = tmp.resolve("w");
    Files.writeString(file, "workload=site.ycsb.workloads.CoreWorkload\n");
    String[] fractional = {"-t", "-P", file.toString(), "-target", "1500.5"};
    assertEquals("1500.5", Driver.properties(fractional).getProperty("target"));
    assertNull(YcsbArguments.parse(fractional), "Client's own reading refuses it");
    String[] whole = {"-t", "-P", file.toString(), "-target", "1500"};
    assertEquals("1500", Driver.properties(whole).getProperty("target"));
    assertEquals(YcsbArguments.parse(whole), Driver.properties(whole), "a whole number: Client's properties");
    assertNull(Driver.properties(new String[] {"-t", "-P", file.toString(), "-target", "fast"}));
  }

  private static Properties step(String target) {
    Properties p = new Properties();
    p.setProperty("workload", "site.ycsb.workloads.CoreWorkload");
    p.setProperty("db", "site.ycsb.embedded.NothingDB");
    p.setProperty("dotransactions", "true");
    p.setProperty("recordcount", "100");
    p.setProperty("operationcount", "12");
    p.setProperty("readproportion", "1");
    p.setProperty("updateproportion", "0");
    p.setProperty("measurement.interval", "both");
    p.setProperty("target", target);
    return p;
  }

  /** A step in this JVM, its stdout captured: (outcome, stdout). */
  private static Object[] run(Properties props) {
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try (PrintStream into = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      System.setOut(into);
      Step.Outcome outcome = Step.run(props, false);
      return new Object[] {outcome, captured.toString(StandardCharsets.UTF_8)};
    } finally {
      System.setOut(out);
    }
  }

  @Test
  void aStepRunsAtAFractionalTargetAndRefusesANegativeOne() {
    Object[] done = run(step("400.5"));
    Step.Outcome outcome = (Step.Outcome) done[0];
    String stdout = (String) done[1];
    assertEquals(0, outcome.status(), outcome.reason());
    assertTrue(stdout.contains("[READ], Operations, 12"), stdout);
    assertTrue(stdout.contains("[Intended-READ], Operations, 12"), "measured from each tick too: " + stdout);
    Step.Outcome refused = (Step.Outcome) run(step("-0.5"))[0];
    assertEquals(ClientExitStatus.REFUSED, refused.status());
    assertTrue(refused.reason().contains("property target = '-0.5' is not allowed: expected a number of operations"
        + " per second from 0"), refused.reason());
  }
}
