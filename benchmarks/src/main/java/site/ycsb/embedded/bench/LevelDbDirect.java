package site.ycsb.embedded.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.leveldb.LevelDbHandle;
import site.ycsb.embedded.leveldb.LevelDbOptions;

/**
 * LevelDB's Java library called directly ({@link LayerDirect}): the binding's {@link LevelDbHandle} (leveldbjni, or
 * the system library through the binding's JNI class), opened with the binding's {@link LevelDbOptions}.
 */
final class LevelDbDirect implements LayerDirect {

  private final LevelDbHandle handle;

  private LevelDbDirect(LevelDbHandle handle) {
    this.handle = handle;
  }

  /** Opens (creating it unless leveldb.createifmissing=false) the database in {@code dir}. */
  static LevelDbDirect open(Path dir, EngineProperties props) throws IOException {
    return new LevelDbDirect(LevelDbHandle.open(dir, LevelDbOptions.read(props)));
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    handle.put(key, value);
  }

  @Override
  public void putBatch(byte[][] keys, byte[][] values, int from, int count) throws IOException {
    handle.write(Arrays.copyOfRange(keys, from, from + count), Arrays.copyOfRange(values, from, from + count), count);
  }

  @Override
  public byte[] get(byte[] key) throws IOException {
    return handle.get(key);
  }

  @Override
  public long scanAll() throws IOException {
    BindingOverhead.Counter pass = new BindingOverhead.Counter();
    handle.scan(new byte[0], Integer.MAX_VALUE, pass);
    return pass.count;
  }

  @Override
  public void close() throws IOException {
    handle.close();
  }
}
