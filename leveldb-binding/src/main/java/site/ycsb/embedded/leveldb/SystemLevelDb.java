package site.ycsb.embedded.leveldb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

import site.ycsb.embedded.KeyValueDB.ValueSink;

/**
 * The system's LevelDB (leveldb.library=system) through {@link LevelDbNative}: a get, put or
 * delete crosses into C once; a scan crosses once per buffer full of values, not once per entry.
 */
final class SystemLevelDb extends LevelDbClient.Handle {

  /** Scan buffer per thread; a larger value grows it for that thread. */
  static final int SCAN_BUFFER_BYTES = 256 << 10;
  /** Values one fill call may copy (bounds the int it returns). */
  private static final int MAX_ENTRIES_PER_FILL = 1 << 20;

  /** Options of leveldb_open, validated by LevelDbClient. */
  record Options(boolean createIfMissing, boolean paranoidChecks, long writeBufferSize, int maxOpenFiles,
                 long cacheSize, int blockSize, long maxFileSize, boolean snappy, int bloomBits,
                 boolean verifyChecksums, boolean sync) {
  }

  /** Each client thread scans into its own direct buffer, reused across scans. */
  private static final ThreadLocal<ByteBuffer> SCAN_BUFFER = ThreadLocal.withInitial(() -> directBuffer(
      SCAN_BUFFER_BYTES));

  /** What a fill wrote, copied out of the direct buffer in one call (per thread, like the buffer). */
  private static final ThreadLocal<byte[]> SCAN_COPY = ThreadLocal.withInitial(() -> new byte[SCAN_BUFFER_BYTES]);

  /** The C handle; 0 once closed, so that a second close is refused instead of freeing twice. */
  private long db;
  private final String version;

  private SystemLevelDb(long db, String version) {
    this.db = db;
    this.version = version;
  }

  static SystemLevelDb open(Path dir, Options o) throws IOException {
    LevelDbNative.ensureLoaded();
    long db = LevelDbNative.open(dir.toString().getBytes(StandardCharsets.UTF_8), o.createIfMissing(),
        o.paranoidChecks(), o.writeBufferSize(), o.maxOpenFiles(), o.cacheSize(), o.blockSize(), o.maxFileSize(),
        o.snappy() ? LevelDbNative.SNAPPY_COMPRESSION : LevelDbNative.NO_COMPRESSION, o.bloomBits(),
        o.verifyChecksums(), o.sync());
    return new SystemLevelDb(db, LevelDbNative.version());
  }

  private static ByteBuffer directBuffer(int bytes) {
    return ByteBuffer.allocateDirect(bytes);
  }

  @Override
  public String library() {
    return LevelDbClient.LIBRARY_SYSTEM;
  }

  @Override
  public String levelDbVersion() {
    return version;
  }

  @Override
  byte[] get(byte[] key) throws IOException {
    return LevelDbNative.get(db, key);
  }

  @Override
  void put(byte[] key, byte[] value) throws IOException {
    LevelDbNative.put(db, key, value);
  }

  @Override
  void delete(byte[] key) throws IOException {
    LevelDbNative.delete(db, key);
  }

  @Override
  void write(byte[][] keys, byte[][] values, int count) throws IOException {
    LevelDbNative.write(db, keys, values, count);
  }

  @Override
  void scan(byte[] start, int count, ValueSink sink) throws IOException {
    if (count <= 0) {
      return;
    }
    ByteBuffer buf = SCAN_BUFFER.get();
    byte[] copy = SCAN_COPY.get();
    long it = LevelDbNative.iterator(db, start);
    try {
      int left = count;
      while (left > 0) {
        long r = LevelDbNative.fill(it, buf, Math.min(left, MAX_ENTRIES_PER_FILL));
        if (r < 0) {
          buf = directBuffer((int) Math.min(Integer.MAX_VALUE - 8, Math.max(-r, buf.capacity() * 2L)));
          SCAN_BUFFER.set(buf);
          continue;
        }
        int used = (int) (r >>> 1);
        if (copy.length < used) {
          copy = new byte[buf.capacity()];
          SCAN_COPY.set(copy);
        }
        // One bulk copy per fill, then plain array reads: cheap even before the JIT compiles this loop.
        buf.get(0, copy, 0, used);
        int at = 0;
        while (at < used) {
          int length = (copy[at] & 0xff) | (copy[at + 1] & 0xff) << 8 | (copy[at + 2] & 0xff) << 16
              | (copy[at + 3] & 0xff) << 24;
          at += LevelDbNative.LENGTH_BYTES;
          sink.accept(Arrays.copyOfRange(copy, at, at + length));
          at += length;
          left--;
        }
        if ((r & 1) != 0) {
          break; // the iterator is past the last key
        }
      }
    } finally {
      LevelDbNative.destroyIterator(it);
    }
  }

  @Override
  public String property(String name) {
    byte[] v = LevelDbNative.property(db, name.getBytes(StandardCharsets.UTF_8));
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }

  @Override
  public void compactAll() {
    LevelDbNative.compactRange(db, null, null);
  }

  @Override
  void flushMemtable() {
    LevelDbNative.compactRange(db, new byte[0], new byte[0]);
  }

  @Override
  synchronized void close() {
    if (db == 0) {
      throw new IllegalStateException("the LevelDB handle is already closed");
    }
    long h = db;
    db = 0;
    LevelDbNative.close(h);
  }
}
