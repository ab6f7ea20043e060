package site.ycsb.embedded.bench;

import java.io.IOException;
import java.nio.file.Path;

import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

import site.ycsb.embedded.rocksdb.RocksDbHandle;
import site.ycsb.embedded.rocksdb.RocksDbOptions;

/**
 * rocksdbjni called directly ({@link LayerDirect}): the binding's {@link RocksDbHandle}, opened with its
 * {@link RocksDbOptions} (the handle closes its native objects), called with the handle's read and write options.
 */
final class RocksDirect implements LayerDirect {

  private final RocksDbHandle handle;
  private final RocksDB db;

  private RocksDirect(RocksDbHandle handle) {
    this.handle = handle;
    this.db = handle.db();
  }

  /** Opens (creating it) the database in {@code dir} with {@code options}. */
  static RocksDirect open(Path dir, RocksDbOptions options) throws IOException {
    RocksDB.loadLibrary();
    return new RocksDirect(RocksDbHandle.open(options, dir));
  }

  @Override
  public void put(byte[] key, byte[] value) throws Exception {
    db.put(handle.writeOptions(), key, value);
  }

  @Override
  public void putBatch(byte[][] keys, byte[][] values, int from, int count) throws Exception {
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = from; i < from + count; i++) {
        batch.put(keys[i], values[i]);
      }
      db.write(handle.writeOptions(), batch);
    }
  }

  @Override
  public byte[] get(byte[] key) throws Exception {
    return db.get(handle.readOptions(), key);
  }

  @Override
  public long scanAll() {
    long n = 0;
    try (RocksIterator it = db.newIterator(handle.readOptions())) {
      for (it.seekToFirst(); it.isValid(); it.next(), n++) {
        BindingOverhead.touch(it.value());
      }
    }
    return n;
  }

  @Override
  public void close() {
    handle.close();
  }
}
