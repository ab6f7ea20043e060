package site.ycsb.embedded;

/**
 * The benchmarks' one way into a binding's engine primitives from outside it: {@link KeyValueDB}'s {@code get},
 * {@code put} and {@code blindUpdates} are protected, so this class sits in their package (it is part of the
 * benchmarks module, not of common). The calls dispatch as the binding's own do, to the engine-timed overrides of a
 * timed binding (bench {@code TimedBindings}), so a thin path through here is timed as the binding's path is.
 */
public final class EngineSeam {

  private EngineSeam() {
  }

  /** The binding's engine get on its own handle. */
  public static <H> byte[] get(KeyValueDB<H> db, byte[] key) throws Exception {
    return db.get(db.handle(), key);
  }

  /** The binding's engine put on its own handle. */
  public static <H> void put(KeyValueDB<H> db, byte[] key, byte[] value) throws Exception {
    db.put(db.handle(), key, value);
  }

  /** Whether the binding's update reads the stored record before it writes (its updates are not blind). */
  public static boolean readsBeforeUpdate(KeyValueDB<?> db) {
    return !db.blindUpdates();
  }
}
