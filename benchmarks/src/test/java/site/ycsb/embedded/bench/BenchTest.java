package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one driver: its questions, their options and defaults, its working directory, and two questions run small. */
class BenchTest {

  @Test
  void everyVerbOfRunShIsAQuestionWithItsOptions() {
    assertEquals(List.of("layers", "side-by-side", "disk-guard", "binding-cost", "engine-work", "client-cost",
        "flat-cost", "lmdb-read"), List.copyOf(Bench.QUESTIONS.keySet()));
    Bench.Options layers = options("layers");
    assertEquals(Arrays.stream(LayerShape.values()).map(s -> s.id).toList(), layers.list("--shapes"));
    assertEquals(200_000, layers.integer("--records"));
    assertFalse(layers.flag("--smoke") || layers.flag("--own"));
    Bench.Options smoke = new Bench.Options("layers", Bench.QUESTIONS.get("layers").defaults(),
        new String[] {"--smoke", "--engines", "lmdb", "--own"});
    assertTrue(smoke.flag("--smoke") && smoke.flag("--own"), "flags take no value");
    assertEquals(List.of("lmdb"), smoke.list("--engines"));
    for (String q : List.of("layers", "side-by-side", "disk-guard")) {
      Bench.Options o = options(q);
      assertEquals(Engines.names(), o.list("--engines"), q + ": every engine of Engines.ALL by default");
      assertEquals(3, o.integer("--rounds"));
    }
    assertEquals(200_000, options("disk-guard").integer("--ops"));
    assertEquals(1_000_000, options("binding-cost").integer("--ops"));
    assertEquals(5, options("binding-cost").integer("--rounds"));
    assertEquals(300_000, options("engine-work").integer("--ops"));
    assertEquals(1_000_000, options("client-cost").integer("--ops"));
    assertEquals(2_000_000, options("lmdb-read").integer("--reads"));
    assertEquals(List.of("262144", "4194304"), options("flat-cost").list("--records"));
    assertEquals(List.of("rocksdb", "lmdb"), options("flat-cost").list("--engines"));
    assertEquals(List.of("read", "update"), options("flat-cost").list("--operations"));
    Bench.Options given = new Bench.Options("binding-cost", Bench.QUESTIONS.get("binding-cost").defaults(),
        new String[] {"--rounds", "7"});
    assertEquals(7, given.integer("--rounds"));
    assertEquals(1_000_000, given.integer("--ops"));
  }

  @Test
  void unknownQuestionsAndOptionsAreRefusedWithTheUsage() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Bench.run(new String[] {"mongodb"}, quiet()));
    assertTrue(e.getMessage().contains("layers, side-by-side, disk-guard"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Bench.run(new String[0], quiet()));
    e = assertThrows(IllegalArgumentException.class,
        () -> Bench.run(new String[] {"binding-cost", "--records", "5"}, quiet()));
    assertTrue(e.getMessage().contains("binding-cost [--ops OPS] [--rounds ROUNDS]"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Bench.run(new String[] {"layers", "--smoke", "x"}, quiet()));
    assertTrue(e.getMessage().contains("[--smoke] [--own] [--dir DIR]"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Bench.run(new String[] {"engine-work", "--ops"}, quiet()));
    assertTrue(e.getMessage().startsWith("no value for --ops"), e.getMessage());
  }

  @Test
  void aGivenDirectoryIsKeptTheHarnessesOwnIsDeleted(@TempDir Path tmp) throws Exception {
    Path given = tmp.resolve("given");
    try (Bench.WorkDir d = new Bench.Options("lmdb-read", Bench.QUESTIONS.get("lmdb-read").defaults(),
        new String[] {"--dir", given.toString()}).dir("x")) {
      assertEquals(given.toAbsolutePath(), d.path());
      Files.writeString(d.path().resolve("f"), "kept");
    }
    assertTrue(Files.exists(given.resolve("f")));
    Path own;
    try (Bench.WorkDir d = options("lmdb-read").dir("bench-test")) {
      own = d.path();
      Files.writeString(own.resolve("f"), "deleted");
    }
    assertFalse(Files.exists(own));
  }

  @Test
  void bindingCostPrintsEachRoundAndTheMedians() throws Exception {
    String text = run("binding-cost", "--ops", "2000", "--rounds", "3");
    List<String> rounds = Arrays.stream(text.split("\n")).filter(l -> l.startsWith("  round ")).toList();
    assertEquals(3, rounds.size(), text);
    assertTrue(rounds.get(2).matches("  round 3: insert [0-9.]+ ns, read [0-9.]+ ns per call"), text);
    assertTrue(text.contains("2000 calls, median of 3 rounds: insert "), text);
  }

  @Test
  void sideBySideRunsBothSidesOfEachEngineInEachRound() throws Exception {
    String text = run("side-by-side", "--engines", "lmdb,sqlite", "--ops", "300", "--rounds", "2");
    for (String engine : List.of("lmdb", "sqlite")) {
      for (int r = 1; r <= 2; r++) {
        assertTrue(text.contains(String.format("  %-8s round %d: put direct ", engine, r)), text);
      }
      for (String phase : List.of("put ", "get ", "scan")) {
        assertTrue(text.lines().anyMatch(l -> l.startsWith(String.format("  %-8s %s direct ", engine, phase))
            && l.contains(" binding/direct ")), engine + " " + phase + ": " + text);
      }
    }
  }

  private static Bench.Options options(String question) {
    return new Bench.Options(question, Bench.QUESTIONS.get(question).defaults(), new String[0]);
  }

  private static PrintStream quiet() {
    return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
  }

  private static String run(String... args) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      assertEquals(0, Bench.run(args, out));
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
