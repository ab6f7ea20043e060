package site.ycsb.embedded.bench;

import java.nio.file.Path;

import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * rocksdbjni called directly, for both benchmarks (the side-by-side one and layer (b)): one
 * database with the given options and block cache, which it owns and closes after the database.
 */
final class RocksDirect implements LayerDirect {

  private final RocksDB db;
  private final Options options;
  private final LRUCache cache;
  private final ReadOptions ro = new ReadOptions();
  private final WriteOptions wo = new WriteOptions();

  private RocksDirect(RocksDB db, Options options, LRUCache cache) {
    this.db = db;
    this.options = options;
    this.cache = cache;
  }

  /** Opens {@code dir} with {@code options}, whose table format uses {@code cache}. */
  static RocksDirect open(Path dir, Options options, LRUCache cache) throws RocksDBException {
    return new RocksDirect(RocksDB.open(options, dir.toString()), options, cache);
  }

  @Override
  public void put(byte[] key, byte[] value) throws Exception {
    db.put(wo, key, value);
  }

  @Override
  public void putBatch(byte[][] keys, byte[][] values, int from, int count) throws Exception {
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = from; i < from + count; i++) {
        batch.put(keys[i], values[i]);
      }
      db.write(wo, batch);
    }
  }

  @Override
  public byte[] get(byte[] key) throws Exception {
    return db.get(ro, key);
  }

  @Override
  public long scanAll() {
    long n = 0;
    try (RocksIterator it = db.newIterator(ro)) {
      for (it.seekToFirst(); it.isValid(); it.next(), n++) {
        BindingOverhead.touch(it.value());
      }
    }
    return n;
  }

  @Override
  public void close() {
    ro.close();
    wo.close();
    db.close();
    options.close();
    cache.close();
  }
}
