package site.ycsb.embedded.lmdb;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import site.ycsb.embedded.EngineFiles;

/**
 * data.mdb's two meta pages, mapped read-only, so that the last page LMDB has used (the file's real size in
 * use) can be read every few writes for the price of a few memory reads: through lmdbjava, {@code
 * mdb_env_info} allocates a native struct and crosses JNR-FFI on each call. LMDB writes its meta pages with
 * {@code pwrite} (or through its own write map), which a shared map of the same file sees at once.
 *
 * <p>In a meta page (lmdb/mdb.c, MDB_meta after the 16-byte page header, 64-bit build): the main database's
 * entry count (md_entries of its MDB_db, after the free list's) at byte 120, the last page number at byte 136,
 * the transaction id at byte 144; the newer meta page is the one with the larger id.
 * The map is released by {@link #close}, not left to the garbage collector: a mapped file keeps its
 * filesystem busy (a tmpfs could not be unmounted).
 */
final class LmdbMetaPages implements AutoCloseable {

  private static final int MAIN_ENTRIES_OFFSET = 120;
  private static final int LAST_PAGE_OFFSET = 136;

  private final MappedByteBuffer map;
  private final int pageSize;
  private boolean closed;

  private LmdbMetaPages(MappedByteBuffer map, int pageSize) {
    this.map = map;
    this.pageSize = pageSize;
  }

  /**
   * Why the environment in {@code dir} holds no record, read from data.mdb alone (no lock.mdb written), or null
   * when it holds one or this cannot tell: none when data.mdb is missing or has no byte (the open would make a new
   * environment, whatever lock.mdb holds), or when its newer meta page counts no entry in the main database.
   */
  static String noEntry(Path dir) throws IOException {
    Path data = dir.resolve(EngineFiles.LMDB_DATA_FILE);
    if (!Files.isRegularFile(data)) {
      return "it has no " + EngineFiles.LMDB_DATA_FILE + " (LMDB would make a new environment)";
    }
    long size = Files.size(data);
    if (size == 0) {
      return "its " + EngineFiles.LMDB_DATA_FILE + " is empty (LMDB would make a new environment)";
    }
    ByteBuffer first = EngineFiles.lmdbMeta(data, 0);
    int pageSize = first.getInt(EngineFiles.LMDB_PAGE_SIZE_OFFSET);
    if (first.getInt(EngineFiles.LMDB_MAGIC_OFFSET) != EngineFiles.LMDB_MAGIC || pageSize <= 0
        || size < 2L * pageSize) {
      return null; // DamagedFiles.refuseDamaged says what is wrong; nothing to count here
    }
    ByteBuffer newer = EngineFiles.lmdbNewerMeta(first, EngineFiles.lmdbMeta(data, pageSize));
    return newer.getLong(MAIN_ENTRIES_OFFSET) == 0 ? "the newer meta page of its " + EngineFiles.LMDB_DATA_FILE
        + " (transaction " + newer.getLong(EngineFiles.LMDB_TXNID_OFFSET) + ") counts no entry" : null;
  }

  /** Maps the two meta pages of {@code dataFile}, whose pages have {@code pageSize} bytes. */
  static LmdbMetaPages map(Path dataFile, int pageSize) throws IOException {
    try (FileChannel ch = FileChannel.open(dataFile, StandardOpenOption.READ)) {
      if (ch.size() < 2L * pageSize) { // a read past the end of a map is a fault: LMDB wrote both at creation
        throw new IOException("the file has " + ch.size() + " bytes, less than its two meta pages of " + pageSize);
      }
      MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, 2L * pageSize);
      map.order(ByteOrder.LITTLE_ENDIAN); // as LMDB writes them on x86_64
      return new LmdbMetaPages(map, pageSize);
    } catch (IOException e) {
      throw new IOException("cannot map the meta pages of " + dataFile.toAbsolutePath() + " (the free-space guard"
          + " reads LMDB's last page there every few writes): " + e.getMessage(), e);
    }
  }

  /** The bytes up to and including the last page the newer meta page records. */
  long usedBytes() {
    long first = map.getLong(EngineFiles.LMDB_TXNID_OFFSET);
    long second = map.getLong(pageSize + EngineFiles.LMDB_TXNID_OFFSET);
    long lastPage = Long.compareUnsigned(second, first) > 0 ? map.getLong(pageSize + LAST_PAGE_OFFSET)
        : map.getLong(LAST_PAGE_OFFSET);
    return (lastPage + 1) * pageSize;
  }

  /** Unmaps the pages; once (a read after it would touch unmapped memory: nothing reads after the close). */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe"); // jdk.unsupported: exported and open on every JDK
      Field the = unsafeClass.getDeclaredField("theUnsafe");
      the.setAccessible(true);
      Method invokeCleaner = unsafeClass.getMethod("invokeCleaner", java.nio.ByteBuffer.class);
      invokeCleaner.invoke(the.get(null), map);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // left to the garbage collector: the map is two pages, and only an unmount waits for it
    }
  }
}
