package site.ycsb.embedded.bench;

/**
 * A binding with its engine calls timed ({@link TimedBindings}, {@code EngineTimedSqliteClient}), seen from the
 * paired operations ({@link PairedOps}): its running engine-call clock, and its engine's get and put on its own
 * handle, the same library calls its {@code read} and {@code update} make, for a path that does nothing else around
 * them.
 */
public interface EngineTimed {

  /** This instance's engine-call counters. */
  EngineCalls engineCalls();

  /** The engine's point read on this client's handle, timed into {@link #engineCalls()} as the binding's own is. */
  byte[] engineGet(byte[] key) throws Exception;

  /** The engine's single put on this client's handle, timed into {@link #engineCalls()} as the binding's own is. */
  void enginePut(byte[] key, byte[] value) throws Exception;

  /** Whether the binding's update reads the stored record before it writes (its updates are not blind). */
  boolean readsBeforeUpdate();
}
