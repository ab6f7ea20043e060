package site.ycsb.embedded.bench;

/**
 * An engine's Java library called directly (layer (b), the side-by-side benchmark's direct side), opened with the
 * values its binding reads from the same properties ({@link Engines}).
 */
public interface LayerDirect extends AutoCloseable {
  void put(byte[] key, byte[] value) throws Exception;

  /** Applies {@code count} entries from {@code from} on as one atomic unit. */
  void putBatch(byte[][] keys, byte[][] values, int from, int count) throws Exception;

  byte[] get(byte[] key) throws Exception;

  /** Reads every record once in key order (db_bench's readseq); returns how many. */
  long scanAll() throws Exception;

  /** Closes the engine (named exceptions: a close that could be interrupted has no place in try-with-resources). */
  @Override
  void close() throws java.io.IOException, java.sql.SQLException;
}
