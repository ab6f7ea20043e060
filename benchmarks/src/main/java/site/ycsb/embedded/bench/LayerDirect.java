package site.ycsb.embedded.bench;

import java.io.IOException;
import java.util.Arrays;

import site.ycsb.embedded.KeyValueDB;

/**
 * An engine's Java library called directly (layer (b), the side-by-side benchmark's direct side), opened with the
 * values its binding reads from the same properties (each engine's {@link BenchEngine} row gives its library's calls to
 * {@link #of}).
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
  void close() throws IOException, java.sql.SQLException;

  interface Put {
    void put(byte[] key, byte[] value) throws Exception;
  }

  /** A library's atomic batch, as {@link #putBatch}. */
  interface Batch {
    void putBatch(byte[][] keys, byte[][] values, int from, int count) throws Exception;
  }

  interface Get {
    byte[] get(byte[] key) throws Exception;
  }

  /** A library's full pass, as {@link #scanAll}. */
  interface Pass {
    long scanAll() throws Exception;
  }

  interface Close {
    void close() throws IOException;
  }

  /** A library's pass that hands every value to a sink. */
  interface Into {
    void pass(KeyValueDB.ValueSink sink) throws Exception;
  }

  /** A full pass that counts the values {@code pass} hands its sink, touching each. */
  static Pass counting(Into pass) {
    return () -> {
      BindingOverhead.Counter c = new BindingOverhead.Counter();
      pass.pass(c);
      return c.count;
    };
  }

  /** The direct side made of one library's calls. */
  static LayerDirect of(Put put, Batch batch, Get get, Pass pass, Close close) {
    return new LayerDirect() {
      @Override
      public void put(byte[] key, byte[] value) throws Exception {
        put.put(key, value);
      }

      @Override
      public void putBatch(byte[][] keys, byte[][] values, int from, int count) throws Exception {
        batch.putBatch(keys, values, from, count);
      }

      @Override
      public byte[] get(byte[] key) throws Exception {
        return get.get(key);
      }

      @Override
      public long scanAll() throws Exception {
        return pass.scanAll();
      }

      @Override
      public void close() throws IOException {
        close.close();
      }
    };
  }

  /** The {@code count} entries from {@code from} on, for a library whose batch takes whole arrays. */
  static byte[][] range(byte[][] entries, int from, int count) {
    return Arrays.copyOfRange(entries, from, from + count);
  }
}
