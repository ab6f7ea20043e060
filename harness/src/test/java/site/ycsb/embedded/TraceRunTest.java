package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.embedded.workload.TraceWorkload;

/**
 * A trace's run is not refused as a run on an empty database: the workload class says whether its run reads
 * records a load wrote ({@link KeyValueDB#RUN_READS_RECORDS}), and a trace does not (it writes a key before it
 * reads it, or its load inserted it). A trace whose every key is written first loads nothing; its run was refused
 * with exit 3 ("holds none") before.
 */
class TraceRunTest {

  @TempDir
  Path tmp;

  @Test
  void theWorkloadClassSaysWhetherItsRunReadsRecords() {
    Properties trace = new Properties();
    trace.setProperty("workload", TraceWorkload.class.getName());
    assertFalse(DatabaseOpening.readsRecords(trace), "a trace writes before it reads, or its load inserted the key");
    Properties core = new Properties();
    core.setProperty("workload", "site.ycsb.workloads.CoreWorkload");
    assertTrue(DatabaseOpening.readsRecords(core), "CoreWorkload's default shares read");
    core.setProperty("readproportion", "0");
    core.setProperty("updateproportion", "0");
    core.setProperty("insertproportion", "1");
    assertFalse(DatabaseOpening.readsRecords(core), "inserts alone");
  }

  @Test
  void aTraceThatWritesEveryKeyBeforeReadingItRunsOnTheDatabaseItsLoadLeftEmpty() throws Exception {
    Path trace = Files.writeString(tmp.resolve("written-first.csv"), "time,key,keysize,valuesize,op\n"
        + "0,a,1,10,set\n0,b,1,10,set\n1,a,1,0,get\n1,b,1,0,get\n2,a,1,12,set\n2,b,1,0,get\n");
    // workloads/trace-replay, the template a user copies, with bin/ycsb's launcher main and an engine in memory
    // (its map starts empty in every JVM, as the load of such a trace leaves a database)
    List<String> cmd = ChildJvm.javaCommand();
    cmd.addAll(List.of(CheckedClient.class.getName(), "-db", InMemoryDb.class.getName(), "-t", "-P",
        Path.of("..", "workloads", "trace-replay").toString(), "-p", "trace.file=" + trace, "-p",
        "path=" + tmp.resolve("db"), "-p", Warmup.OPERATIONS + "=0", "-p", "verbose=true"));
    Process p = new ProcessBuilder(cmd).directory(Path.of("").toAbsolutePath().toFile()).redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    assertFalse(out.contains("holds none"), out);
    assertTrue(out.contains("[memory] run phase: its workload needs no loaded record"), out);
    assertTrue(out.contains("[READ], Return=OK, 3") && out.contains("[INSERT], Return=OK, 2")
        && out.contains("[UPDATE], Return=OK, 1"), out);
    assertTrue(out.contains("[TRACE] phase=run, format=kvtrace, lines=6, malformed=0"), out);
  }
}
