package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.measurements.Measurements;

/**
 * The warm-up runs the asked operations on a scratch database beside the real one and never on the real one,
 * deletes the scratch one, leaves YCSB's own figures empty, and says what it ran; under the launcher a warmed
 * load writes exactly its records into the real database, and bad limits are refused with exit status 3.
 */
class WarmupTest {

  @TempDir
  Path tmp;

  private Properties props(String... pairs) {
    Properties p = new Properties();
    p.setProperty("workload", "site.ycsb.workloads.CoreWorkload");
    p.setProperty("db", CountingDb.class.getName());
    p.setProperty("path", tmp.resolve("real").toString());
    p.setProperty("recordcount", "300");
    p.setProperty("fieldcount", "1");
    p.setProperty("fieldlength", "20");
    p.setProperty(Warmup.SECONDS, "60");
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  /** Operations counted on every data directory under tmp but the real one. */
  private long scratchOperations() {
    Path real = tmp.resolve("real").toAbsolutePath().normalize();
    return CountingDb.OPERATIONS.entrySet().stream()
        .filter(e -> e.getKey().startsWith(tmp.toAbsolutePath().normalize()) && !e.getKey().equals(real))
        .mapToLong(e -> e.getValue().get()).sum();
  }

  private List<Path> leftInTmp() throws Exception {
    try (Stream<Path> s = Files.list(tmp)) {
      return s.toList();
    }
  }

  @Test
  void aLoadWarmsUpWithItsInsertsOnScratchDatabasesAndNeverTheRealOne() throws Exception {
    String line = Warmup.run(props("dotransactions", "false", Warmup.OPERATIONS, "500"));
    assertEquals(500, scratchOperations(), line);
    assertEquals(0, CountingDb.operations(tmp.resolve("real")), line);
    assertEquals(List.of(), leftInTmp(), "the scratch directory is deleted and the real one never made");
    assertTrue(line.startsWith("[ycsb-embedded] warm-up: 500 inserts in 2 passes on fresh databases with 1 thread"
        + " of site.ycsb.workloads.CoreWorkload on a scratch memory database in " + tmp.toAbsolutePath()
        + "/.real.warmup-"), line);
    assertTrue(line.contains("(stopped by warmup.operations; warmup.operations=500, warmup.seconds=60)"), line);
  }

  @Test
  void aRunWarmsUpWithItsTransactionsOnLoadedScratchDataOnEveryThread() throws Exception {
    String line = Warmup.run(props("dotransactions", "true", Warmup.OPERATIONS, "999", "threadcount", "3",
        "readproportion", "0.5", "updateproportion", "0.5"));
    assertEquals(300 + 999, scratchOperations(), line);
    assertEquals(0, CountingDb.operations(tmp.resolve("real")), line);
    assertEquals(List.of(), leftInTmp());
    assertTrue(line.matches(".*warm-up: 999 transactions in [0-9.]+ s after loading 300 records with 3 threads.*"),
        line);
  }

  @Test
  void aSlowScratchLoadLeavesTheTransactionsTheirWholeTime() throws Exception {
    // 2 ms an insert: 2,000 records would take 4 s; the load stops at a quarter of the 0.4 s, and the transactions
    // then run until their own 0.4 s are up (before, they shared one clock with the load and had half of it)
    String line = Warmup.run(props("dotransactions", "true", "recordcount", "100000", "memory.insertmillis", "2",
        Warmup.OPERATIONS, Long.toString(Long.MAX_VALUE), Warmup.SECONDS, "0.4"));
    Matcher m = Pattern.compile("warm-up: \\d+ transactions in ([0-9.]+) s after loading (\\d+) records")
        .matcher(line);
    assertTrue(m.find(), line);
    assertTrue(Long.parseLong(m.group(2)) < WarmupPasses.RUN_RECORDS, line);
    assertTrue(Double.parseDouble(m.group(1)) >= 0.39, line);
    assertTrue(line.contains("(stopped by warmup.seconds;"), line);
  }

  @Test
  void readModifyWritesWarmUpAsReadsAndUpdatesSoThatYcsbsOwnFiguresStayEmpty() throws Exception {
    String line = Warmup.run(props("dotransactions", "true", Warmup.OPERATIONS, "2000",
        "readproportion", "0", "updateproportion", "0", "readmodifywriteproportion", "1"));
    // 300 inserts, then 2000 transactions, each a read or an update
    assertEquals(300 + 2000, scratchOperations(), line);
    assertFalse(Measurements.getMeasurements().getSummary().contains("READ-MODIFY-WRITE"),
        Measurements.getMeasurements().getSummary());
    assertFalse(line.contains("WARNING"), line);
  }

  @Test
  void theTimeLimitStopsItWhenItComesFirst() throws Exception {
    String line = Warmup.run(props("dotransactions", "true", Warmup.OPERATIONS, Long.toString(Long.MAX_VALUE),
        Warmup.SECONDS, "0.3"));
    assertTrue(line.contains("(stopped by warmup.seconds;"), line);
    assertTrue(scratchOperations() > 300, line);
    assertEquals(List.of(), leftInTmp());
  }

  @Test
  void nanotimedWarmsUpInsideTheTimingLayerWithoutWritingTheStepsFile() throws Exception {
    Path file = tmp.resolve("timing.json");
    String line = Warmup.run(props("db", NanoTimedDB.class.getName(), NanoTimedDB.WRAPPED,
        CountingDb.class.getName(), NanoTimedDB.FILE, file.toString(), "dotransactions", "false",
        Warmup.OPERATIONS, "100"));
    assertEquals(100, scratchOperations(), line);
    assertEquals(List.of(), leftInTmp(), "neither the step's timing file nor the scratch directory is left");
  }

  @Test
  void offSkippedOrAnotherProjectsDbWithItsDirectoryNamed() throws Exception {
    assertEquals("[ycsb-embedded] warm-up: off (warmup.operations=0, warmup.seconds=60)",
        Warmup.run(props(Warmup.OPERATIONS, "0")));
    String basic = Warmup.run(props("db", "site.ycsb.BasicDB"));
    assertTrue(basic.startsWith("[ycsb-embedded] warm-up: skipped: site.ycsb.BasicDB is not one of this project's"
        + " bindings"), basic);
    // not read as an error line by the suite's parser (analysis/results/parse.py: "cannot ", "failed:", "Exception")
    assertFalse(basic.matches(".*(cannot |failed:|Exception|Error\\b).*"), basic);
    String nothing = Warmup.run(props("db", NothingDB.class.getName(), Warmup.OPERATIONS, "10"));
    assertTrue(nothing.contains("on site.ycsb.embedded.NothingDB itself (it keeps no data)"), nothing);
    String named = Warmup.run(props("db", NothingDB.class.getName(), Warmup.OPERATIONS, "10",
        Warmup.PATH_PROPERTY, "other.dir", "other.dir", tmp.resolve("other").toString()));
    assertTrue(named.contains("on a scratch site.ycsb.embedded.NothingDB database in " + tmp.toAbsolutePath()
        + "/.other.warmup-"), named);
    assertEquals(List.of(), leftInTmp());
    // a directory that cannot be: no warm-up, and the real open says what is wrong with it
    Path plain = Files.writeString(tmp.resolve("plainfile"), "not a directory");
    String nowhere = Warmup.run(props("path", plain.resolve("db").toString(), Warmup.OPERATIONS, "10"));
    assertTrue(nowhere.startsWith("[ycsb-embedded] warm-up: skipped: cannot make a scratch directory beside "
        + plain.resolve("db")), nowhere);
  }

  @Test
  void anEngineThatFailsStopsTheWarmUpAtItsFirstErrorWithoutRefusingTheRun() throws Exception {
    String line = Warmup.run(props("dotransactions", "false", Warmup.OPERATIONS, "500", InMemoryDb.FAIL_WRITES,
        "true"));
    assertEquals("[ycsb-embedded] warm-up: stopped: 1 operation(s) returned ERROR on the scratch database, whose"
        + " messages are held back (the measured phase prints its own); the scratch directory is deleted", line);
    assertEquals(1, scratchOperations(), line);
    assertEquals(List.of(), leftInTmp());
  }

  @Test
  void aWorkloadThatGivesNoOperationStopsTheWarmUpWithoutRefusingTheRun() throws Exception {
    // A trace whose load has no key to insert gave no operation: the warm-up refused the run (exit 3) before.
    String line = Warmup.run(props("dotransactions", "false", "workload", EmptyWorkload.class.getName(),
        Warmup.OPERATIONS, "500"));
    assertTrue(line.startsWith("[ycsb-embedded] warm-up: stopped: YCSB's client threads ran no operation"), line);
    assertEquals(0, scratchOperations(), line);
    assertEquals(List.of(), leftInTmp());
  }

  @Test
  void badLimitsAreRefusedNamingTheProperty() {
    String ops = assertThrows(EngineProperties.BadPropertyException.class,
        () -> WarmupLimits.of(props(Warmup.OPERATIONS, "-1"))).getMessage();
    assertTrue(ops.contains("warmup.operations"), ops);
    String secs = assertThrows(EngineProperties.BadPropertyException.class,
        () -> WarmupLimits.of(props(Warmup.SECONDS, "abc"))).getMessage();
    assertTrue(secs.contains("warmup.seconds"), secs);
  }

  private String[] launch(Map<String, String> extra) throws Exception {
    Map<String, String> all = new HashMap<>(Map.of("path", tmp.resolve("db").toString(), "recordcount", "50",
        "memory.files", "true"));
    all.putAll(extra);
    return YcsbClientProcess.run(tmp, CheckedClient.class.getName(), CountingDb.class.getName(), "-load", all);
  }

  @Test
  void underTheLauncherAWarmedLoadWritesExactlyItsRecordsAndSaysWhatItRan() throws Exception {
    String[] r = launch(Map.of(Warmup.OPERATIONS, "120"));
    assertEquals("0", r[0], r[1]);
    assertTrue(r[1].contains("[ycsb-embedded] warm-up: 120 inserts in 3 passes on fresh databases"), r[1]);
    assertTrue(r[1].contains("[INSERT], Return=OK, 50"), r[1]);
    try (Stream<Path> s = Files.list(tmp.resolve("db"))) {
      assertEquals(50, s.filter(f -> f.getFileName().toString().startsWith(CountingDb.RECORD_FILE)).count());
    }
    assertEquals(List.of(tmp.resolve("db")), leftInTmp());
  }

  @Test
  void underTheLauncherBadLimitsExitThreeNamingTheProperty() throws Exception {
    String[] ops = launch(Map.of(Warmup.OPERATIONS, "-1"));
    assertEquals("3", ops[0], ops[1]);
    assertTrue(ops[1].contains("warmup.operations"), ops[1]);
    String[] secs = launch(Map.of(Warmup.SECONDS, "abc"));
    assertEquals("3", secs[0], secs[1]);
    assertTrue(secs[1].contains("warmup.seconds"), secs[1]);
    assertFalse(Files.exists(tmp.resolve("db")), "nothing was opened");
  }

  @Test
  void underTheLauncherAWorkloadThatThrowsInTheWarmUpExitsThreeNotZero() throws Exception {
    // YCSB's ClientThread calls System.exit(0) when the workload throws
    String[] r = YcsbClientProcess.run(tmp, CheckedClient.class.getName(), CountingDb.class.getName(), "-t",
        Map.of("path", tmp.resolve("db").toString(), "recordcount", "20", "operationcount", "20", "workload",
            ThrowingWorkload.class.getName(), Warmup.OPERATIONS, "100"));
    assertEquals("3", r[0], r[1]);
    assertTrue(r[1].contains("the warm-up stopped the JVM"), r[1]);
    assertTrue(r[1].contains("this workload's transactions throw"), r[1]);
    assertEquals(List.of(), leftInTmp());
  }
}
