package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import site.ycsb.DBException;
import site.ycsb.embedded.CheckedClient;

/**
 * Layer (d0) is only a ceiling if LibraryDB really does the work ({@link BenchRowContract}, on every engine's row;
 * here on the test's row in memory), it refuses an engine it has no row for, and its step starts as bin/ycsb starts
 * YCSB: through the launcher, whose warm-up runs on a scratch database before YCSB's clock, so (d0) times warm code as
 * (d) does.
 */
class LibraryDBTest {

  @Test
  void storesWhatItAcknowledgesAndReadsItBack(@TempDir Path dir) throws Exception {
    BenchRowContract.assertLibraryDbStoresAndReadsBack(MemoryBench.NAME, dir); // each engine's: in its module
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "mongodb"})
  void refusesAMissingOrUnknownEngine(String engine, @TempDir Path dir) {
    LibraryDB db = new LibraryDB();
    Properties p = new Properties();
    if (!engine.isEmpty()) {
      p.setProperty(LibraryDB.ENGINE, engine);
    }
    p.setProperty("path", dir.toString());
    db.setProperties(p);
    assertThrows(DBException.class, db::init);
  }

  @Test
  void theThinDbStepIsWarmedOnAScratchDatabaseAndLeavesOnlyItsRecords(@TempDir Path dir) throws Exception {
    Layers layers = new Layers(Path.of("..").toAbsolutePath().normalize(), dir, 300, System.out, "2000");
    Path data = dir.resolve("d0");
    List<String> cmd = layers.ycsbCommand(MemoryBench.NAME, LibraryDB.class.getName(), "-load", List.of("randwrite"),
        300, data);
    assertTrue(cmd.contains(CheckedClient.class.getName()), cmd.toString());

    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    // the warm-up ran on a scratch LibraryDB database beside the step's, and said so before YCSB's figures
    assertTrue(out.contains("[ycsb-embedded] warm-up: ") && out.contains("scratch " + LibraryDB.class.getName()),
        out);
    assertTrue(out.indexOf("warm-up: ") < out.indexOf("[OVERALL]"), out);
    assertTrue(out.contains("[INSERT], Return=OK, 300"), out);
    // the scratch directory is gone; the step's directory holds the step's records only
    try (var names = Files.list(dir)) {
      assertEquals(List.of("d0"), names.map(f -> f.getFileName().toString()).toList());
    }
  }
}
