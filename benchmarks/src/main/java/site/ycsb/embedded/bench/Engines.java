package site.ycsb.embedded.bench;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

import site.ycsb.embedded.EngineRegistry;

/**
 * The one registry of engines in the benchmarks: the rows ({@link BenchEngine}) on the class path, each from its own
 * module ({@code <engine>-binding/bench/}, which run.sh and the rows' own tests put there), in the order of the
 * registry's {@code name:class} lines (bin/bindings.properties); a row the registry does not name comes last.
 */
final class Engines {

  private Engines() {
  }

  /** The rows, in the order the benchmarks list them. */
  static final List<BenchEngine> ALL = load();

  private static List<BenchEngine> load() {
    List<String> order = EngineRegistry.enginesInOrder();
    List<BenchEngine> rows = new ArrayList<>();
    ServiceLoader.load(BenchEngine.class).forEach(rows::add);
    rows.sort(Comparator.comparingInt(r -> order.contains(r.name()) ? order.indexOf(r.name()) : order.size()));
    return List.copyOf(rows);
  }

  /** The names of {@link #ALL}, in its order: every list of engines the benchmarks default to. */
  static List<String> names() {
    return ALL.stream().map(BenchEngine::name).toList();
  }

  /** The engine of that name; an unknown name is refused with the known ones. */
  static BenchEngine named(String name) {
    for (BenchEngine e : ALL) {
      if (e.name().equals(name)) {
        return e;
      }
    }
    throw new IllegalArgumentException("unknown engine " + name + "; known: " + String.join(", ", names()));
  }

  /** A floor binary of the row: in {@code target/native} of the row's module, beside its classes or its jar. */
  static Path floor(BenchEngine row, String binary) {
    try {
      Path classes = Path.of(row.getClass().getProtectionDomain().getCodeSource().getLocation().toURI());
      return classes.getParent().resolve("native").resolve(binary);
    } catch (URISyntaxException e) {
      throw new IllegalStateException("where the row " + row.getClass().getName() + " was loaded from", e);
    }
  }
}
