package site.ycsb.embedded.leveldb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The binding's own thin JNI layer over the system LevelDB's C API (leveldb/c.h, Debian
 * libleveldb-dev), implemented in {@code src/main/c/leveldbjni_sys.c} and built into
 * {@code target/native/libleveldbjni_sys.so}.
 *
 * <p>A database handle is the C struct owning the DB and its option objects, passed as a long;
 * it is thread-safe. An iterator belongs to the one thread that made it and is destroyed by it.
 * A failing call throws {@link Failure} with LevelDB's message; "not found" is not an error:
 * {@link #get} returns null.
 */
final class LevelDbNative {

  /** The library name: libleveldbjni_sys.so in java.library.path (bin/ycsb sets it). */
  static final String LIBRARY = "leveldbjni_sys";

  // Compression types of leveldb/c.h; leveldbjni_sys.c checks at compile time that they match.
  static final int NO_COMPRESSION = 0;
  static final int SNAPPY_COMPRESSION = 1;

  /** Bytes in front of every value {@link #fill} writes: its length, a little-endian int. */
  static final int LENGTH_BYTES = site.ycsb.embedded.NativeScanBuffer.LENGTH_BYTES;

  /** Why the library could not be loaded, with what to install; null when it is loaded. */
  private static final String LOAD_ERROR =
      site.ycsb.embedded.JniLibrary.load(LevelDbNative.class, LIBRARY, LevelDbNative::explain);

  /** A LevelDB error (its Status message); thrown by the natives. */
  static final class Failure extends IOException {
    private static final long serialVersionUID = 1L;

    Failure(byte[] utf8Message) {
      super("LevelDB: " + new String(utf8Message, StandardCharsets.UTF_8));
    }
  }

  private LevelDbNative() {
  }

  /** Throws a clear error naming what is missing when the JNI library could not be loaded. */
  static void ensureLoaded() throws IOException {
    if (LOAD_ERROR != null) {
      throw new IOException(LOAD_ERROR);
    }
  }

  /** Turns the JVM's link error into a message that names the missing file or package. */
  static String explain(String linkError, String libraryPath) {
    String m = String.valueOf(linkError);
    if (m.contains("libleveldb.so")) {
      return "the LevelDB C library libleveldb.so.1d is missing (" + m + "): install the Debian package"
          + " libleveldb1d (apt-get install libleveldb-dev, which brings it; scripts/setup.sh does this),"
          + " or choose leveldb.library=leveldbjni";
    }
    if (m.contains("no " + LIBRARY + " in java.library.path") || m.contains("lib" + LIBRARY + ".so")) {
      return "the binding's JNI library lib" + LIBRARY + ".so cannot be loaded from java.library.path="
          + libraryPath + " (" + m + "): build it with 'mvn -q -B package -DskipTests -pl leveldb-binding -am'"
          + " (needs gcc and the Debian package libleveldb-dev) and start the JVM with"
          + " -Djava.library.path=leveldb-binding/target/native, as bin/ycsb does;"
          + " or choose leveldb.library=leveldbjni";
    }
    return "cannot load the LevelDB JNI library lib" + LIBRARY + ".so (it needs the Debian package"
        + " libleveldb1d): " + m;
  }

  /** "1.23": leveldb_major_version() and leveldb_minor_version() of the loaded library. */
  static String version() {
    return majorVersion() + "." + minorVersion();
  }

  static native int majorVersion();

  static native int minorVersion();

  /**
   * leveldb_open with options built from the arguments (an LRU cache of {@code cacheSize} bytes,
   * a bloom filter of {@code bloomBits} bits per key unless 0). Returns the handle; on failure
   * every object is freed and {@link Failure} carries LevelDB's message.
   */
  static native long open(byte[] path, boolean createIfMissing, boolean paranoidChecks, long writeBufferSize,
      int maxOpenFiles, long cacheSize, int blockSize, long maxFileSize, int compression, int bloomBits,
      boolean verifyChecksums, boolean sync) throws Failure;

  /**
   * leveldb_repair_db: rebuilds CURRENT and a MANIFEST from the tables and logs in {@code path}, writing
   * tables with this compression and block size; what it did goes to the directory's LOG.
   */
  static native void repair(byte[] path, int compression, int blockSize) throws Failure;

  /** leveldb_close, then frees the cache, filter and option objects: the handle is invalid afterwards. */
  static native void close(long db);

  /** The value stored under {@code key}, or null when there is none. */
  static native byte[] get(long db, byte[] key) throws Failure;

  /** Whether a value is stored under {@code key}; the value is not copied into the JVM. */
  static native boolean contains(long db, byte[] key) throws Failure;

  static native void put(long db, byte[] key, byte[] value) throws Failure;

  /** The address of the direct buffer {@code buffer}, for {@link #putAt}; the caller keeps the buffer reachable. */
  static native long address(ByteBuffer buffer);

  /**
   * Puts the key of {@code keyLength} bytes at {@code address} with the value of {@code valueLength} bytes
   * right after it: the record the calling thread wrote into its direct put buffer, which it keeps
   * reachable until this returns. No call back into the JVM, where {@link #put} makes four.
   */
  static native void putAt(long db, long address, int keyLength, int valueLength) throws Failure;

  static native void delete(long db, byte[] key) throws Failure;

  /** Puts the first {@code count} pairs in one leveldb_writebatch_t, applied atomically. */
  static native void write(long db, byte[][] keys, byte[][] values, int count) throws Failure;

  /** leveldb_property_value ("leveldb.stats", ...), UTF-8; null when LevelDB does not know the name. */
  static native byte[] property(long db, byte[] name);

  /** leveldb_compact_range; a null bound is open. ("", "") only writes the memtable to a table. */
  static native void compactRange(long db, byte[] from, byte[] to);

  /** A new iterator positioned on the first key >= {@code start}; the caller must destroy it. */
  static native long iterator(long db, byte[] start) throws Failure;

  /**
   * Copies values from the iterator into {@code out} (a direct buffer), each as its length (a
   * little-endian int) and its bytes, stepping past each, until {@code maxEntries} were copied,
   * the buffer is full or the iterator ends. Returns {@code bytesWritten << 1 | ended}; a
   * negative result means that the next value alone needs {@code -result} bytes.
   */
  static native long fill(long iterator, ByteBuffer out, int maxEntries) throws Failure;

  static native void destroyIterator(long iterator);
}
