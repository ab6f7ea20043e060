package site.ycsb.embedded.bench;

import java.io.IOException;
import java.util.Arrays;

import site.ycsb.embedded.NativeScanBuffer;
import site.ycsb.embedded.kyoto.KyotoHandle;
import site.ycsb.embedded.kyoto.KyotoOptions;

/**
 * The Kyoto JNI layer called directly ({@link LayerDirect}): the binding's {@link KyotoHandle}, opened with its
 * {@link KyotoOptions} (tuning string, open mode), a transaction per batch.
 */
final class KyotoDirect implements LayerDirect {

  private final KyotoHandle handle;

  private KyotoDirect(KyotoHandle handle) {
    this.handle = handle;
  }

  /** Opens (creating it) the database file {@code options} names. */
  static KyotoDirect open(KyotoOptions options) throws IOException {
    return new KyotoDirect(KyotoHandle.open(options));
  }

  @Override
  public void put(byte[] key, byte[] value) throws Exception {
    handle.put(key, value);
  }

  @Override
  public void putBatch(byte[][] keys, byte[][] values, int from, int count) throws Exception {
    handle.putInTransaction(Arrays.copyOfRange(keys, from, from + count),
        Arrays.copyOfRange(values, from, from + count), count);
  }

  @Override
  public byte[] get(byte[] key) throws Exception {
    return handle.get(key);
  }

  @Override
  public long scanAll() throws IOException {
    BindingOverhead.Counter pass = new BindingOverhead.Counter();
    handle.withCursor(new byte[0], Integer.MAX_VALUE, fill -> NativeScanBuffer.feed(fill, Integer.MAX_VALUE, pass));
    return pass.count;
  }

  @Override
  public void close() throws IOException {
    handle.close();
  }
}
