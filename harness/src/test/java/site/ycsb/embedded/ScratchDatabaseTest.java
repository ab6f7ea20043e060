package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

/**
 * The warm-up's scratch database of a binding whose facts honour an upstream YCSB name for the data directory: the
 * real directory is read through that name too, and the scratch one is set under it as under ours.
 */
class ScratchDatabaseTest {

  /** InMemoryDb, its facts honouring upstream's memory.dir as memory.path, as a binding's facts may. */
  private static final class AliasedDb extends InMemoryDb {
    @Override
    protected EngineFacts facts() {
      return EngineFacts.of("memory", null).withUpstreamAliases(Map.of("memory.dir", "memory.path"));
    }
  }

  @Test
  void anUpstreamNameForTheDataDirectoryIsReadAndPointedAtTheScratchOne() {
    Properties p = new Properties();
    p.setProperty("memory.dir", "/data/real");
    ScratchDatabase aliased = ScratchDatabase.of(new AliasedDb(), "memory", p);
    assertNull(aliased.skipped);
    assertEquals(Path.of("/data/real"), aliased.real);
    assertEquals(List.of("path", "memory.path", "memory.dir"), aliased.pathNames);

    ScratchDatabase plain = ScratchDatabase.of(new InMemoryDb(), "memory", p);
    assertEquals(Path.of("data/memory"), plain.real, "facts without the alias: the default directory");
    assertEquals(List.of("path", "memory.path"), plain.pathNames);
  }
}
