package site.ycsb.embedded.leveldb;

import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import site.ycsb.embedded.KeyValueDB.SizeSink;
import site.ycsb.embedded.KeyValueDB.ValueSink;
import site.ycsb.embedded.NativeScanBuffer;

/**
 * The system's LevelDB (leveldb.library=system) through {@link LevelDbNative}: a get, put or
 * delete crosses into C once; a scan crosses once per buffer full of values, not once per entry.
 */
final class SystemLevelDb extends LevelDbHandle {

  /** Scan buffer per thread; a larger value grows it for that thread. */
  static final int SCAN_BUFFER_BYTES = NativeScanBuffer.INITIAL_BYTES;

  /** The compression type of leveldb/c.h for {@code o}. */
  private static int compression(LevelDbOptions o) {
    return o.snappy() ? LevelDbNative.SNAPPY_COMPRESSION : LevelDbNative.NO_COMPRESSION;
  }

  /** The C handle; 0 once closed, so that a second close is refused instead of freeing twice. */
  private long db;
  private final String version;

  private SystemLevelDb(long db, String version) {
    this.db = db;
    this.version = version;
  }

  static SystemLevelDb openDb(Path dir, LevelDbOptions o) throws IOException {
    LevelDbNative.ensureLoaded();
    long db = LevelDbNative.open(dir.toString().getBytes(StandardCharsets.UTF_8), o.createIfMissing(),
        o.paranoidChecks(), o.writeBufferSize(), o.maxOpenFiles(), o.cacheSize(), o.blockSize(), o.maxFileSize(),
        compression(o), o.bloomBits(), o.verifyChecksums(), o.sync());
    return new SystemLevelDb(db, LevelDbNative.version());
  }

  /** LevelDB's RepairDB on {@code dir} (leveldb.repair), with the compression and block size of {@code o}. */
  static void repairDb(Path dir, LevelDbOptions o) throws IOException {
    LevelDbNative.ensureLoaded();
    LevelDbNative.repair(dir.toString().getBytes(StandardCharsets.UTF_8), compression(o), o.blockSize());
  }

  @Override
  public String library() {
    return LevelDbOptions.LIBRARY_SYSTEM;
  }

  @Override
  public String levelDbVersion() {
    return version;
  }

  @Override
  public String describe() {
    return "LevelDB " + levelDbVersion() + " (leveldb.library=system: the system libleveldb through"
        + " leveldbjni_sys, " + System.getProperty("os.arch") + ")";
  }

  @Override
  public byte[] get(byte[] key) throws IOException {
    return LevelDbNative.get(db, key);
  }

  /** One crossing, no Java array for the value. */
  @Override
  public boolean contains(byte[] key) throws IOException {
    return LevelDbNative.contains(db, key);
  }

  /**
   * A put of a key and value up to this many bytes in all goes through the thread's {@link PutBuffer}
   * ({@link LevelDbNative#putAt}); a larger one through {@link LevelDbNative#put}.
   */
  static final int PUT_BUFFER_BYTES = 8 << 10;

  /**
   * A thread's direct buffer for puts and its address. The native put copying two Java arrays asks the JVM
   * four times (two lengths, two copies), each a thread-state transition; this way Java copies the key and
   * value into the buffer and the native put reads them at the address, with no call back.
   */
  private static final class PutBuffer {
    final ByteBuffer buffer = ByteBuffer.allocateDirect(PUT_BUFFER_BYTES);
    final long address = LevelDbNative.address(buffer);
  }

  private static final ThreadLocal<PutBuffer> PUT_BUFFER = ThreadLocal.withInitial(PutBuffer::new);

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    if ((long) key.length + value.length > PUT_BUFFER_BYTES) {
      LevelDbNative.put(db, key, value);
      return;
    }
    PutBuffer b = PUT_BUFFER.get();
    b.buffer.put(0, key).put(key.length, value);
    try {
      LevelDbNative.putAt(db, b.address, key.length, value.length);
    } finally {
      Reference.reachabilityFence(b); // the buffer's memory is read until putAt returns
    }
  }

  @Override
  public void delete(byte[] key) throws IOException {
    LevelDbNative.delete(db, key);
  }

  @Override
  public void write(byte[][] keys, byte[][] values, int count) throws IOException {
    LevelDbNative.write(db, keys, values, count);
  }

  @Override
  public void scan(byte[] start, int count, ValueSink sink) throws IOException {
    withIterator(start, count, fill -> NativeScanBuffer.feed(fill, count, sink));
  }

  @Override
  public void scanSizes(byte[] start, int count, SizeSink sink) throws IOException {
    withIterator(start, count, fill -> NativeScanBuffer.feedSizes(fill, count, sink));
  }

  /** Runs {@code use} over the fills of an iterator placed at {@code start}, destroyed afterwards. */
  private void withIterator(byte[] start, int count, NativeScanBuffer.FillUser use) throws IOException {
    if (count <= 0) {
      return;
    }
    long it = LevelDbNative.iterator(db, start);
    try {
      use.accept((buf, max) -> LevelDbNative.fill(it, buf, max));
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
  public void flushMemtable() {
    LevelDbNative.compactRange(db, new byte[0], new byte[0]);
  }

  @Override
  public synchronized void close() {
    if (db == 0) {
      throw new IllegalStateException("the LevelDB handle is already closed");
    }
    long h = db;
    db = 0;
    LevelDbNative.close(h);
  }
}
