package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import site.ycsb.embedded.EngineRegistry;

/**
 * The harness's rows come from the class path (java.util.ServiceLoader), in the registry's order, and a row's floors
 * from its own module's target/native; each engine's own row is checked in its module ({@link BenchRowContract}).
 */
class EnginesTest {

  @Test
  void theRowsOnTheClassPathAreTheEnginesInTheRegistrysOrderAnUnregisteredOneLast() {
    List<String> names = Engines.names();
    assertEquals(MemoryBench.NAME, names.get(names.size() - 1), names.toString());
    List<String> order = EngineRegistry.enginesInOrder();
    List<String> registered = names.subList(0, names.size() - 1);
    assertEquals(registered.stream().sorted((a, b) -> order.indexOf(a) - order.indexOf(b)).toList(), registered);
    assertTrue(Engines.named(MemoryBench.NAME) instanceof MemoryBench);
  }

  @Test
  void anUnknownEngineIsRefusedWithTheKnownOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Engines.named("mongodb"));
    assertTrue(e.getMessage().startsWith("unknown engine mongodb; known: "), e.getMessage());
    assertTrue(e.getMessage().contains(MemoryBench.NAME), e.getMessage());
  }

  @Test
  void aRowsFloorIsInTheNativeFolderBesideItsClasses() {
    Path floor = Engines.floor(Engines.named(MemoryBench.NAME), BenchEngine.FLOOR);
    assertEquals(Path.of("target/native/floor").toAbsolutePath(), floor, "the test classes are in target/");
  }
}
