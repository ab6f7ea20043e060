package site.ycsb.embedded.bench;

import java.nio.file.Path;

import site.ycsb.embedded.kyoto.KyotoOptions;
import site.ycsb.embedded.kyoto.KyotoJni;

/** The direct side of the Kyoto comparison: the binding's JNI calls with no binding around them. */
class KyotoDirect implements BindingOverhead.Direct {

  final KyotoJni db;

  KyotoDirect(KyotoJni db) {
    this.db = db;
  }

  /** A TreeDB with the binding's default tuning (64 MB page cache, 64 MB map). */
  static KyotoDirect open(Path file) throws Exception {
    return new KyotoDirect(KyotoJni.open(file, "#pccap=" + KyotoOptions.CACHE_SIZE_DEFAULT
        + "#msiz=" + KyotoOptions.MAP_SIZE_DEFAULT, false));
  }

  @Override
  public void put(byte[] key, byte[] value) throws Exception {
    db.set(key, value);
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
