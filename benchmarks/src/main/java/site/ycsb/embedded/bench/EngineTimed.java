package site.ycsb.embedded.bench;

import site.ycsb.embedded.EngineSeam;
import site.ycsb.embedded.KeyValueDB;

/**
 * A binding with its engine calls timed ({@link TimedBindings}, {@code EngineTimedSqliteClient}), seen from the
 * paired operations ({@link PairedOps}): its running engine-call clock, and its engine's get and put on its own
 * handle, the same library calls its {@code read} and {@code update} make, for a path that does nothing else around
 * them. An implementation is a {@link KeyValueDB} that overrides its {@code get} and {@code put} to time them; the
 * rest is here, once.
 */
public interface EngineTimed {

  /** This instance's engine-call counters. */
  EngineCalls engineCalls();

  /** The engine's point read on this client's handle, timed into {@link #engineCalls()} as the binding's own is. */
  default byte[] engineGet(byte[] key) throws Exception {
    return EngineSeam.get((KeyValueDB<?>) this, key);
  }

  /** The engine's single put on this client's handle, timed into {@link #engineCalls()} as the binding's own is. */
  default void enginePut(byte[] key, byte[] value) throws Exception {
    EngineSeam.put((KeyValueDB<?>) this, key, value);
  }

  /** Whether the binding's update reads the stored record before it writes (its updates are not blind). */
  default boolean readsBeforeUpdate() {
    return EngineSeam.readsBeforeUpdate((KeyValueDB<?>) this);
  }
}
