package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first screen of a binding's start-up: the engine and its version, the open, the properties not at their
 * defaults and the warnings, the rest counted in one line that names verbose=true. A Kyoto load of
 * workloads/randwrite printed 31 lines there: four notes nobody asked for, one for the workload file's own
 * writebuffersize, and every property at its default.
 */
class StartupLinesTest {

  @TempDir
  Path tmp;

  static final String KYOTO = String.join("\n",
      "[kyoto] engine: Kyoto Cabinet 1.2.79 TreeDB (system library through kyotojni)",
      "[kyoto] opened with /d/ycsb.kct#opts=slc, mode OWRITER|OCREATE|OTRYLOCK (no transactions)",
      "[kyoto] NOTE: writebuffersize does not apply to Kyoto Cabinet (dirty pages stay in the page cache); ignored",
      "[kyoto] NOTE: writes: no auto-transactions (kyoto.autotran=false)",
      "[kyoto] opened /d in 50.1 ms; effective configuration:",
      "  kyoto.path = /d (from path)",
      "  kyoto.batchsize = 1 (default)",
      "  kyoto.compression = lzo (set)",
      "  kyoto.repair = false (default)",
      "[kyoto] layout: recordlayout=bare, keyencoding=utf8 (recorded now in .ycsb-embedded.layout.ycsb.kct)",
      "[kyoto] WARNING: unknown property kyoto.cachsize is ignored (a typo?)", "");

  @Test
  void theFirstScreenKeepsTheEngineTheOpenWhatIsSetAndTheWarningsAndCountsTheRest() {
    String shown = StartupLines.firstScreen(KYOTO, "[kyoto] ");
    assertEquals(String.join(System.lineSeparator(),
        "[kyoto] engine: Kyoto Cabinet 1.2.79 TreeDB (system library through kyotojni)",
        "[kyoto] opened /d in 50.1 ms; what differs from the default configuration:",
        "  kyoto.path = /d (from path)",
        "  kyoto.compression = lzo (set)",
        "[kyoto] WARNING: unknown property kyoto.cachsize is ignored (a typo?)",
        "[kyoto] not shown: 2 properties at their defaults, 2 notes, 2 more lines (the engine's details, the"
            + " layout); -p verbose=true prints every start-up line", ""), shown);
    String bare = "[kyoto] engine: Kyoto Cabinet\n";
    assertEquals(bare, StartupLines.firstScreen(bare, "[kyoto] "), "nothing left out: no count line");
  }

  @Test
  void aBindingPrintsTheFirstScreenUnlessVerboseAsksForEveryLine() throws Exception {
    String quiet = opened(false);
    assertTrue(quiet.contains("[memory] opened " + tmp.resolve("short").toAbsolutePath() + " in "), quiet);
    assertTrue(quiet.contains("; what differs from the default configuration:\n  memory.path = ")
        && !quiet.contains("(default)") && quiet.contains("[memory] not shown: ")
        && quiet.contains("properties at their defaults"), quiet);
    String all = opened(true);
    assertTrue(all.contains("; effective configuration:\n") && all.contains("  memory.batchsize = 1 (default)")
        && all.contains("  memory.verbose = true (from verbose)") && !all.contains("not shown"), all);
  }

  /** What an InMemoryDb prints at open and close, with verbose as given. */
  private String opened(boolean verbose) throws Exception {
    Properties p = new Properties();
    p.setProperty("path", tmp.resolve(verbose ? "all" : "short").toString());
    if (verbose) {
      p.setProperty(StartupLines.VERBOSE, "true");
    }
    PrintStream err = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      InMemoryDb db = new InMemoryDb();
      db.setProperties(p);
      db.init();
      db.cleanup();
    } finally {
      System.setErr(err);
    }
    return printed.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }
}
