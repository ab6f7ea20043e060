package site.ycsb.embedded.bench;

/**
 * A binding with its engine calls timed ({@link TimedBindings}, {@code EngineTimedSqliteClient}), seen from the
 * paired reads ({@link PairedReads}): its running engine-call clock, and its engine's get on its own handle, the
 * same library call its {@code read} makes, for a read path that does nothing else around it.
 */
public interface EngineTimed {

  /** This instance's engine-call counters. */
  EngineCalls engineCalls();

  /** The engine's point read on this client's handle, timed into {@link #engineCalls()} as the binding's own is. */
  byte[] engineGet(byte[] key) throws Exception;
}
