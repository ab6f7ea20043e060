package site.ycsb.embedded.kyoto;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import site.ycsb.embedded.bench.BindingOverhead;

/**
 * The direct side of the Kyoto comparison: the binding's JNI calls with no binding around
 * them (this class sits in the binding's package to reach them).
 */
public final class KyotoDirect implements BindingOverhead.Direct {

  private final long db;

  private KyotoDirect(long db) {
    this.db = db;
  }

  /** A TreeDB with the binding's default tuning (64 MB page cache, 64 MB map). */
  public static KyotoDirect open(Path file) throws Exception {
    KyotoNative.ensureLoaded();
    String name = file.toAbsolutePath() + "#pccap=" + KyotoClient.CACHE_SIZE_DEFAULT
        + "#msiz=" + KyotoClient.MAP_SIZE_DEFAULT;
    return new KyotoDirect(KyotoNative.open(name.getBytes(StandardCharsets.UTF_8),
        KyotoNative.OWRITER | KyotoNative.OCREATE | KyotoNative.OTRYLOCK));
  }

  @Override
  public void put(byte[] key, byte[] value) throws Exception {
    KyotoNative.set(db, key, value);
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
