package site.ycsb.embedded.leveldb;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.bench.BindingOverhead;
import site.ycsb.embedded.bench.LayerDirect;

/**
 * Layer (b) of the layered benchmark for leveldb.library=system: the binding's own JNI class over
 * the system's LevelDB ({@link SystemLevelDb}), opened by the binding's own option code and called
 * directly, so that none of the binding's per-call work (keys, record codec, batching, free-space
 * guard) is in it. In the binding's package because those calls are package-private.
 */
public final class SystemLevelDbDirect implements LayerDirect {

  private final LevelDbClient.Handle handle;

  private SystemLevelDbDirect(LevelDbClient.Handle handle) {
    this.handle = handle;
  }

  /** Whether these properties choose the system library (leveldb.library=system). */
  public static boolean chosen(EngineProperties props) {
    return LevelDbClient.LIBRARY_SYSTEM.equals(props.string(LevelDbClient.LIBRARY, LevelDbClient.LIBRARY_DEFAULT));
  }

  /** Opens (creating) {@code dir} with the options the binding reads from {@code props}. */
  public static SystemLevelDbDirect open(Path dir, EngineProperties props) throws Exception {
    if (!chosen(props)) {
      throw new IllegalArgumentException(LevelDbClient.LIBRARY + " is not " + LevelDbClient.LIBRARY_SYSTEM);
    }
    return new SystemLevelDbDirect(new LevelDbClient().configure(props, dir).open());
  }

  /** The engine release and library, as the layered benchmark's table names them. */
  public static String libraryVersion() throws IOException {
    LevelDbNative.ensureLoaded();
    return "LevelDB " + LevelDbNative.version() + " (system library, the binding's JNI class)";
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
    long[] n = {0};
    handle.scan(new byte[0], Integer.MAX_VALUE, value -> {
      BindingOverhead.touch(value);
      n[0]++;
    });
    return n[0];
  }

  @Override
  public void close() throws IOException {
    handle.close();
  }
}
