package site.ycsb.embedded.kyoto;

import java.nio.charset.StandardCharsets;

import site.ycsb.embedded.bench.BindingOverhead;
import site.ycsb.embedded.bench.LayerDirect;

/**
 * Layer (b) of the layered benchmark for Kyoto: the project's JNI calls with no binding around
 * them, opened with a given tuning string, with transactions for batches.
 */
public final class KyotoLayerDirect implements LayerDirect {

  private final long db;

  private KyotoLayerDirect(long db) {
    this.db = db;
  }

  /** Opens (creating) the TreeDB named by "path#opts=...#pccap=..." as the binding would. */
  public static KyotoLayerDirect open(String pathAndTuning) throws Exception {
    KyotoNative.ensureLoaded();
    return new KyotoLayerDirect(KyotoNative.open(pathAndTuning.getBytes(StandardCharsets.UTF_8),
        KyotoNative.OWRITER | KyotoNative.OCREATE | KyotoNative.OTRYLOCK));
  }

  /** The version of the Kyoto Cabinet library the JNI layer is linked against. */
  public static String libraryVersion() throws Exception {
    KyotoNative.ensureLoaded();
    return KyotoNative.version();
  }

  @Override
  public void put(byte[] key, byte[] value) throws Exception {
    KyotoNative.set(db, key, value);
  }

  @Override
  public void putBatch(byte[][] keys, byte[][] values, int from, int count) throws Exception {
    byte[][] k = java.util.Arrays.copyOfRange(keys, from, from + count);
    byte[][] v = java.util.Arrays.copyOfRange(values, from, from + count);
    KyotoNative.setInTransaction(db, k, v, count, false);
  }

  @Override
  public byte[] get(byte[] key) throws Exception {
    return KyotoNative.get(db, key);
  }

  @Override
  public long scanAll() throws Exception {
    long cursor = KyotoNative.cursor(db);
    try {
      long n = 0;
      if (KyotoNative.jump(cursor, new byte[0])) {
        for (byte[] v; (v = KyotoNative.next(cursor)) != null; n++) {
          BindingOverhead.touch(v);
        }
      }
      return n;
    } finally {
      KyotoNative.destroy(cursor);
    }
  }

  @Override
  public void close() throws Exception {
    KyotoNative.close(db);
  }
}
