package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The values YCSB 0.17 cannot use are refused before anything runs, as the property, the value and what is allowed:
 * YCSB stopped on them with a NumberFormatException naming none (inside the launcher's warm-up, with the warm-up's
 * message), ran nothing with no word (recordcount=-5), or reached the database (fieldlength=-1).
 */
class PreflightTest {

  private static Properties workloada(String phase, String... nameValue) {
    Properties p = new Properties();
    p.setProperty("workload", "site.ycsb.workloads.CoreWorkload");
    p.setProperty("db", "site.ycsb.BasicDB");
    p.setProperty("recordcount", "1000");
    p.setProperty("operationcount", "1000");
    p.setProperty("readproportion", "0.5");
    p.setProperty("updateproportion", "0.5");
    p.setProperty("requestdistribution", "zipfian");
    p.setProperty("dotransactions", Boolean.toString(phase.equals("run")));
    for (int i = 0; i < nameValue.length; i += 2) {
      p.setProperty(nameValue[i], nameValue[i + 1]);
    }
    return p;
  }

  private static String refusal(Properties p) {
    return assertThrows(EngineProperties.BadPropertyException.class, () -> Preflight.check(p)).getMessage();
  }

  @Test
  void aFractionOfASecondIsATimeLimitForTheDriverOnly() {
    Properties p = workloada("run", "maxexecutiontime", "2.3");
    assertEquals("property maxexecutiontime = '2.3' is not allowed: expected a whole number from 0 to 2147483647"
        + " (seconds; 0: no limit)", refusal(p), "YCSB's Client parses whole seconds");
    assertDoesNotThrow(() -> Preflight.check(p, List.of(), true));
    Properties negative = workloada("run", "maxexecutiontime", "-0.5");
    assertTrue(assertThrows(EngineProperties.BadPropertyException.class,
        () -> Preflight.check(negative, List.of(), true)).getMessage().contains("a number of seconds from 0"));
  }

  @Test
  void aRateWithAFractionIsATargetForTheDriverOnly() {
    Properties p = workloada("run", "target", "1500.5");
    assertEquals("property target = '1500.5' is not allowed: expected a whole number from 0 to 2147483647"
        + " (operations per second; 0: no target)", refusal(p), "YCSB's Client parses a whole number");
    assertDoesNotThrow(() -> Preflight.check(p, List.of(), true));
    assertDoesNotThrow(() -> Preflight.check(workloada("run", "target", "1500"), List.of(), true));
    Properties negative = workloada("run", "target", "-0.5");
    assertTrue(assertThrows(EngineProperties.BadPropertyException.class,
        () -> Preflight.check(negative, List.of(), true)).getMessage()
        .contains("a number of operations per second from 0"));
  }

  @Test
  void aValueYcsbCannotParseIsRefusedNamingTheProperty() {
    String[][] cases = {
        {"readproportion", "abc", "expected a number of at least 0"},
        {"operationcount", "1e3", "expected a whole number from 0 to 2147483647"},
        {"recordcount", "", "expected a whole number from 0 to 2147483647"},
        {"recordcount", "-5", "expected a whole number from 0 to 2147483647"},
        {"fieldlength", "-1", "expected a whole number from 0 to 2147483647"},
        {"fieldcount", "0", "expected a whole number from 1 to 2147483647"},
        {"threadcount", "0", "expected a whole number from 1 to 2147483647"},
        {"target", "-1", "expected a whole number from 0 to 2147483647"},
        {"requestdistribution", "Zipfian", "expected one of uniform, zipfian, latest, hotspot, sequential"},
        {"readallfields", "yes", "expected one of true, false"},
        {"hotspotdatafraction", "1.5", "expected a number from 0 to 1"},
        {"insertorder", "random", "expected one of hashed, ordered"},
        {"measurementtype", "hdr", "expected one of histogram, hdrhistogram"},
    };
    for (String[] c : cases) {
      String said = refusal(workloada("run", c[0], c[1]));
      assertTrue(said.startsWith("property " + c[0] + " = '" + c[1] + "' is not allowed: expected"), said);
      assertTrue(said.contains(c[2]), said);
    }
  }

  @Test
  void anUnknownWorkloadOrDbClassIsRefusedByName() {
    assertEquals("property workload = 'site.ycsb.workloads.Nope' is not allowed: expected a workload class on the"
        + " class path, such as site.ycsb.workloads.CoreWorkload (no class of that name loads: "
        + "java.lang.ClassNotFoundException: site.ycsb.workloads.Nope)",
        refusal(workloada("run", "workload", "site.ycsb.workloads.Nope")));
    assertTrue(refusal(workloada("run", "db", "java.lang.String")).startsWith(
        "property db = 'java.lang.String' is not allowed: expected a DB class on the class path"));
  }

  @Test
  void whatCoreWorkloadExitsOnIsRefusedNamingBothProperties() {
    assertEquals("property minscanlength = '50' is not allowed: expected at most maxscanlength (10); scan lengths"
        + " are drawn between the two", refusal(workloada("run", "minscanlength", "50", "maxscanlength", "10")));
    assertEquals("property dataintegrity = 'true' is not allowed: expected false unless constant is the"
        + " fieldlengthdistribution (uniform); the integrity check rebuilds each value at its one length",
        refusal(workloada("run", "dataintegrity", "true", "fieldlengthdistribution", "uniform")));
    assertEquals("properties insertstart = '900' and insertcount = '200' are not allowed with recordcount = '1000':"
        + " expected insertstart + insertcount at most recordcount (YCSB exits otherwise)",
        refusal(workloada("load", "insertstart", "900", "insertcount", "200")));
  }

  @Test
  void aPhaseThatWouldRunNothingIsRefused() {
    assertTrue(refusal(workloada("load", "recordcount", "0")).startsWith("property recordcount = '0' is not"
        + " allowed: expected a whole number from 1 to 2147483647: a load inserts that many records"));
    Properties run = workloada("run");
    run.remove("operationcount");
    assertTrue(refusal(run).startsWith("property operationcount is not set: expected a whole number from 1"));
    assertTrue(refusal(workloada("run", "readproportion", "0", "updateproportion", "0")).startsWith(
        "properties readproportion, updateproportion, insertproportion, scanproportion, readmodifywriteproportion"
        + " are all 0"));
  }

  /**
   * A misspelt name was ignored without a word (recordcnt=1000 loaded the file's million records): said once, with
   * the nearest name read, and refused with strictproperties=true.
   */
  @Test
  void aNameNoPartOfTheRunReadsIsSaidOnceWithTheNearestOrRefusedWhenStrict() {
    Properties p = workloada("load", "recordcnt", "1000", "fieldcont", "3", "rocksdb.cachesise", "1m",
        "htrace.sampler.classes", "x", "workload.keyformat", "ycsb");
    p.setProperty("workload", "site.ycsb.embedded.workload.EmbeddedWorkload");
    assertEquals(List.of("WARNING: property fieldcont = '3' is read by no part of this run and is ignored; did you"
        + " mean fieldcount? (strictproperties=true refuses such a name)", "WARNING: property recordcnt = '1000' is"
        + " read by no part of this run and is ignored; did you mean recordcount? (strictproperties=true refuses"
        + " such a name)"), Preflight.check(p), "another engine's name, YCSB's tracing and workload.NAME are read");
    assertEquals(List.of(), Preflight.check(p), "said once per JVM");
    p.setProperty("strictproperties", "true");
    assertEquals("property fieldcont = '3' is not allowed: expected a property some part of this run reads"
        + " (fieldcont is none of them; did you mean fieldcount?) with strictproperties=true; property recordcnt ="
        + " '1000' is not allowed: expected a property some part of this run reads (recordcnt is none of them; did"
        + " you mean recordcount?) with strictproperties=true", refusal(p));
    p.setProperty("strictproperties", "maybe");
    assertEquals("property strictproperties = 'maybe' is not allowed: expected true or false", refusal(p));
  }

  /** A workload or DB class this project does not know may read any name: none is judged. */
  @Test
  void aClassOfAnotherProjectIsNotJudged() {
    Properties p = workloada("run", "mongodb.url", "mongodb://x", "strictproperties", "true");
    p.setProperty("db", "site.ycsb.GoodBadUglyDB");
    assertEquals(List.of(), Preflight.check(p));
    Properties q = workloada("run", "timestampkey", "ts", "strictproperties", "true");
    q.setProperty("workload", "site.ycsb.workloads.TimeSeriesWorkload");
    q.setProperty("db", "site.ycsb.BasicDB");
    assertEquals(List.of(), Preflight.check(q));
  }

  /**
   * Every workload file of the project that names a workload class, in both phases, on a binding: nothing in them is
   * refused, nor a name unknown (another engine's names are that engine's).
   */
  @Test
  void theProjectsWorkloadFilesPass() throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(Path.of("..", "workloads"))) {
      files = s.filter(Files::isRegularFile).sorted().toList();
    }
    int checked = 0;
    for (Path f : files) {
      Properties p = new Properties();
      try (Reader r = Files.newBufferedReader(f)) {
        p.load(r);
      }
      if (p.getProperty("workload") == null) {
        continue; // a file stacked on another (-P randwrite -P bigwrite-memory)
      }
      for (String phase : List.of("false", "true")) {
        p.setProperty("dotransactions", phase);
        p.setProperty("db", InMemoryDb.class.getName()); // a binding: it reads the files' neutral knobs
        p.setProperty("strictproperties", "true"); // and no name in them is unknown
        assertDoesNotThrow(() -> Preflight.check(p), f + " dotransactions=" + phase);
      }
      checked++;
    }
    assertTrue(checked > 20, "checked " + checked + " workload files");
  }
}
