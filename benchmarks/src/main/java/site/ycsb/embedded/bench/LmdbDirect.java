package site.ycsb.embedded.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.lmdb.LmdbHandle;
import site.ycsb.embedded.lmdb.LmdbOptions;

/**
 * lmdbjava called directly ({@link LayerDirect}): the binding's {@link LmdbHandle}, opened with {@link LmdbOptions},
 * and one reader as a binding's client keeps one (its snapshot let go before a write).
 */
final class LmdbDirect implements LayerDirect {

  private final LmdbHandle db;
  private final LmdbHandle.Reader reader;

  private LmdbDirect(LmdbHandle db, LmdbHandle.Reader reader) {
    this.db = db;
    this.reader = reader;
  }

  static LmdbDirect open(Path dir, EngineProperties p) throws IOException {
    LmdbHandle h = LmdbHandle.open(LmdbOptions.read(p), Files.createDirectories(dir));
    try {
      return new LmdbDirect(h, h.reader());
    } catch (IOException | RuntimeException e) {
      h.close();
      throw e;
    }
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    reader.drop();
    db.put(key, value);
  }

  @Override
  public byte[] get(byte[] key) {
    return db.get(reader, key);
  }

  @Override
  public long scanAll() {
    long[] n = {0};
    db.scan(reader, new byte[0], Integer.MAX_VALUE, v -> {
      BindingOverhead.touch(v);
      n[0]++;
    });
    return n[0];
  }

  @Override
  public void putBatch(byte[][] keys, byte[][] values, int from, int count) throws IOException {
    reader.drop();
    db.putAll(Arrays.copyOfRange(keys, from, from + count), Arrays.copyOfRange(values, from, from + count), count);
  }

  @Override
  public void close() {
    db.release(reader);
    db.close();
  }
}
