package site.ycsb.embedded.bench;

import java.nio.file.Path;
import java.util.Arrays;

import site.ycsb.embedded.kyoto.KyotoJni;

/**
 * Layer (b) of the layered benchmark for Kyoto: the project's JNI calls with no binding around
 * them ({@link KyotoJni}), opened with a given tuning string, with transactions for batches.
 */
final class KyotoLayerDirect implements LayerDirect {

  private final KyotoJni db;

  private KyotoLayerDirect(KyotoJni db) {
    this.db = db;
  }

  /** Opens (creating) the TreeDB {@code file} with Kyoto's tuning suffix ("#opts=...#pccap=..."). */
  static KyotoLayerDirect open(Path file, String tuning) throws Exception {
    return new KyotoLayerDirect(KyotoJni.open(file, tuning, false));
  }

  @Override
  public void put(byte[] key, byte[] value) throws Exception {
    db.set(key, value);
  }

  @Override
  public void putBatch(byte[][] keys, byte[][] values, int from, int count) throws Exception {
    db.setInTransaction(Arrays.copyOfRange(keys, from, from + count), Arrays.copyOfRange(values, from, from + count),
        count);
  }

  @Override
  public byte[] get(byte[] key) throws Exception {
    return db.get(key);
  }

  @Override
  public long scanAll() throws Exception {
    return db.scanAll(BindingOverhead::touch);
  }

  @Override
  public void close() throws java.io.IOException {
    db.close();
  }
}
