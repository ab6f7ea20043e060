package site.ycsb.embedded.bench;

import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Supplier;

import site.ycsb.DB;
import site.ycsb.embedded.EngineProperties;

/**
 * One engine's row of the benchmarks, kept in its own module ({@code <engine>-binding/bench/}) and found by
 * {@link Engines} through {@link java.util.ServiceLoader} (the row's {@code META-INF/services} file names its class):
 * its binding (layers (c) and (d), the side-by-side benchmark's binding side), its Java library opened directly with
 * the values the binding's own Options read from the same properties (layer (b), layer (d0)'s {@link LibraryDB}, the
 * side-by-side benchmark's direct side), so that a setting means the same on every side, the library's version, and
 * its C floor: the binary {@value #FLOOR} (layer (a)) that its module's build writes to {@code target/native}, beside
 * the row's classes, and optionally a second one over the engine build inside the Java library (layer (a')).
 */
public abstract class BenchEngine {

  /** The floor binary of layer (a) in the row module's {@code target/native}. */
  public static final String FLOOR = "floor";

  private final String name;
  private final Supplier<DB> binding;

  /** A row for the engine {@code name} (its registry name), whose YCSB binding {@code binding} makes. */
  protected BenchEngine(String name, Supplier<DB> binding) {
    this.name = name;
    this.binding = binding;
  }

  /** The engine's bin/ycsb name (its registry name). */
  public final String name() {
    return name;
  }

  /** Opens the engine's Java library directly, given the engine's properties and the raw ones. */
  public abstract LayerDirect open(Path dir, EngineProperties p, Properties raw) throws Exception;

  /** The engine and version inside the Java library {@link #open} opens with these properties. */
  public abstract String libraryVersion(Properties raw) throws Exception;

  /** A new instance of the engine's YCSB binding. */
  public final DB binding() {
    return binding.get();
  }

  /** Sets the properties both sides of the side-by-side benchmark open the engine with (none by default). */
  public void sideBySide(Properties p) {
  }

  /**
   * Layer (a'): the name of a floor binary in {@code target/native} built against the engine inside the Java library,
   * where that library exports the engine's C API; empty (the default) where it does not.
   */
  public Optional<String> javaLibraryFloor() {
    return Optional.empty();
  }

  /** The Java library opened directly (layer (b)) with the binding's Options read from {@code raw}. */
  public final LayerDirect openDirect(Path dir, Properties raw) throws Exception {
    return open(dir, new EngineProperties(raw, name()), raw);
  }
}
