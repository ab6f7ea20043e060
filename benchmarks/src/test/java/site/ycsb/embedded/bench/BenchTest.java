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
    assertEquals(List.of("layers", "side-by-side"), List.copyOf(Bench.QUESTIONS.keySet()));
    Bench.Options layers = options("layers");
    assertEquals(Arrays.stream(LayerShape.values()).map(s -> s.id).toList(), layers.list("--shapes"));
    assertEquals(200_000, layers.integer("--records"));
    assertFalse(layers.flag("--smoke"));
    Bench.Options smoke = new Bench.Options("layers", Bench.QUESTIONS.get("layers").defaults(),
        new String[] {"--smoke", "--engines", MemoryBench.NAME, "--rounds", "7"});
    assertTrue(smoke.flag("--smoke"), "a flag takes no value");
    assertEquals(List.of(MemoryBench.NAME), smoke.list("--engines"));
    assertEquals(7, smoke.integer("--rounds"));
    assertEquals(200_000, smoke.integer("--records"), "an option not given keeps its default");
    for (String q : List.of("layers", "side-by-side")) {
      Bench.Options o = options(q);
      assertEquals(Engines.names(), o.list("--engines"), q + ": every engine of Engines.ALL by default");
      assertTrue(o.list("--engines").contains(MemoryBench.NAME), q + ": the test's row is on the class path");
      assertEquals(3, o.integer("--rounds"));
    }
    assertEquals(200_000, options("side-by-side").integer("--ops"));
  }

  @Test
  void unknownQuestionsAndOptionsAreRefusedWithTheUsage() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Bench.run(new String[] {"mongodb"}, quiet()));
    assertTrue(e.getMessage().contains("the questions: layers, side-by-side"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Bench.run(new String[0], quiet()));
    e = assertThrows(IllegalArgumentException.class,
        () -> Bench.run(new String[] {"side-by-side", "--records", "5"}, quiet()));
    assertTrue(e.getMessage().contains("side-by-side [--engines ENGINES] [--ops OPS] [--rounds ROUNDS] [--dir DIR]"),
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Bench.run(new String[] {"layers", "--smoke", "x"}, quiet()));
    assertTrue(e.getMessage().contains("[--smoke] [--dir DIR]"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Bench.run(new String[] {"side-by-side", "--ops"}, quiet()));
    assertTrue(e.getMessage().startsWith("no value for --ops"), e.getMessage());
  }

  @Test
  void aGivenDirectoryIsKeptTheHarnessesOwnIsDeleted(@TempDir Path tmp) throws Exception {
    Path given = tmp.resolve("given");
    try (Bench.WorkDir d = new Bench.Options("side-by-side", Bench.QUESTIONS.get("side-by-side").defaults(),
        new String[] {"--dir", given.toString()}).dir("x")) {
      assertEquals(given.toAbsolutePath(), d.path());
      Files.writeString(d.path().resolve("f"), "kept");
    }
    assertTrue(Files.exists(given.resolve("f")));
    Path own;
    try (Bench.WorkDir d = options("side-by-side").dir("bench-test")) {
      own = d.path();
      Files.writeString(own.resolve("f"), "deleted");
    }
    assertFalse(Files.exists(own));
  }

  @Test
  void sideBySideRunsBothSidesOfEachEngineInEachRound() throws Exception {
    String text = run("side-by-side", "--engines", MemoryBench.NAME, "--ops", "300", "--rounds", "2");
    for (String engine : List.of(MemoryBench.NAME)) {
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
