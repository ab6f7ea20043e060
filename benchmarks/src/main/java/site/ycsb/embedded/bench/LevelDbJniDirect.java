package site.ycsb.embedded.bench;

import java.io.IOException;
import java.nio.file.Path;

import org.fusesource.leveldbjni.JniDBFactory;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;

/**
 * leveldbjni called directly, for both benchmarks (the side-by-side one and layer (b)): one
 * database opened with the given options.
 */
final class LevelDbJniDirect implements LayerDirect {

  private final DB db;
  private final ReadOptions ro = new ReadOptions();
  private final WriteOptions wo = new WriteOptions();

  private LevelDbJniDirect(DB db) {
    this.db = db;
  }

  /** Opens (creating it if missing, as {@code options} says) the database in {@code dir}. */
  static LevelDbJniDirect open(Path dir, Options options) throws IOException {
    return new LevelDbJniDirect(JniDBFactory.factory.open(dir.toFile(), options));
  }

  @Override
  public void put(byte[] key, byte[] value) {
    db.put(key, value, wo);
  }

  @Override
  public void putBatch(byte[][] keys, byte[][] values, int from, int count) throws IOException {
    try (WriteBatch batch = db.createWriteBatch()) {
      for (int i = from; i < from + count; i++) {
        batch.put(keys[i], values[i]);
      }
      db.write(batch, wo);
    }
  }

  @Override
  public byte[] get(byte[] key) {
    return db.get(key, ro);
  }

  @Override
  public long scanAll() throws IOException {
    long n = 0;
    try (DBIterator it = db.iterator(ro)) {
      for (it.seekToFirst(); it.hasNext(); n++) {
        BindingOverhead.touch(it.next().getValue());
      }
    }
    return n;
  }

  @Override
  public void close() throws IOException {
    db.close();
  }
}
