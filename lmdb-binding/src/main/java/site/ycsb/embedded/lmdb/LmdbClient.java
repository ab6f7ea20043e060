package site.ycsb.embedded.lmdb;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import site.ycsb.embedded.EngineFacts;
import site.ycsb.embedded.EngineFiles;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.KeyValueDB;

/**
 * YCSB binding for LMDB through lmdbjava: one environment per data directory, shared by the client
 * threads of a JVM ({@link LmdbHandle}), its properties in {@link LmdbOptions}; property table:
 * lmdb-binding/README.md. Each client keeps one read transaction of its own, from {@link #init} to
 * {@link #cleanup} ({@link LmdbHandle.Reader}), and lets its snapshot go before it writes.
 */
public class LmdbClient extends KeyValueDB<LmdbHandle> {

  /** This client's read transaction; null outside init..cleanup. */
  private LmdbHandle.Reader reader;

  /**
   * The engine, its property names in LmdbOptions (what the launcher takes as known: KeyValueDB.propertyNames),
   * and YCSB's threadcount, which LmdbOptions checks lmdb.maxreaders against (one reader slot per client thread).
   * Copy-on-write: a write copies the pages on its path and adds them to the free list, so it counts twice. The open
   * writes lock.mdb's zeros before LMDB maps it (LmdbHandle.reserveLockFile): put back after a refusal.
   */
  private static final EngineFacts FACTS = EngineFacts.of("lmdb", LmdbOptions.class)
      .withOwnNeutralNames(List.of("threadcount")).withDiskSpaceWriteFactor(2)
      .withFilesAFailedOpenRewrites(Set.of(EngineFiles.LMDB_LOCK_FILE));

  @Override
  protected EngineFacts facts() {
    return FACTS;
  }

  @Override
  protected long diskSpaceMargin() {
    return LmdbOptions.DISK_SPACE_MARGIN_DEFAULT;
  }

  /**
   * The last page LMDB used: a commit copies the pages on its path, and while a reader (of another process, or a
   * client's scan) pins an older snapshot none it frees is reused, so a 100-byte update grew data.mdb by about
   * 12 KB, 60 times what it counts. With the write map that ran past the free space between two looks: a
   * SIGBUS in mdb_page_alloc. The guard looks again whenever the file grew by a look's interval.
   */
  @Override
  protected java.util.function.LongSupplier diskSpaceUsed(LmdbHandle h) {
    return h::usedBytes;
  }

  /** No data.mdb, an empty one, or a meta page that counts no entry: the open would find no record. */
  @Override
  protected String noRecordInFiles(Path dir) throws IOException {
    return LmdbMetaPages.noEntry(dir);
  }

  /**
   * lmdbjava unpacks and loads liblmdb on first use (0.4 s here): before YCSB's clock starts, the one lmdb.library
   * names (a bad value is left to init, which refuses it naming the property).
   */
  @Override
  protected void loadEngineLibrary() throws java.io.IOException {
    String library = getProperties().getProperty(LmdbOptions.LIBRARY, LmdbOptions.LIBRARY_DEFAULT).trim();
    if (library.equals(LmdbLibrary.BUNDLED) || library.equals(LmdbLibrary.SYSTEM)) {
      LmdbLibrary.load(library);
    }
  }

  @Override
  protected EngineOpener<LmdbHandle> configure(EngineProperties props, Path dir) {
    LmdbOptions options = LmdbOptions.read(props);
    return new EngineOpener<LmdbHandle>() {
      @Override
      public LmdbHandle open() throws IOException {
        LmdbHandle h = LmdbHandle.open(options, dir); // DirectoryLock created the directory
        try {
          h.followMetaPages();
        } catch (IOException | RuntimeException e) {
          h.close();
          throw e;
        }
        return h;
      }

      @Override
      public void close(LmdbHandle h) throws IOException {
        String summary = h.summary();
        h.close();
        LmdbTree.recordClose(dir); // what the tree is after a clean close, for the next open to compare
        System.err.printf("[lmdb] at close: %s%n", summary);
      }

      @Override
      public String describe(LmdbHandle h) {
        return h.describe();
      }
    };
  }

  /** The shared environment, and this client's read transaction in it. */
  @Override
  protected LmdbHandle join(LmdbHandle shared) throws IOException {
    reader = shared.reader();
    try {
      reader.keepFromOpen();
    } catch (RuntimeException e) {
      shared.release(reader);
      reader = null;
      throw e;
    }
    return shared;
  }

  @Override
  protected void leave(LmdbHandle mine) {
    LmdbHandle.Reader r = reader;
    reader = null;
    if (r != null) {
      mine.release(r);
    }
  }

  /** This client's reader, for tests: null outside init..cleanup. */
  LmdbHandle.Reader reader() {
    return reader;
  }

  @Override
  protected byte[] get(LmdbHandle h, byte[] key) {
    return h.get(reader, key);
  }

  /** Finds the key without copying its value out of the map. */
  @Override
  protected boolean contains(LmdbHandle h, byte[] key) {
    return h.contains(reader, key);
  }

  @Override
  protected void put(LmdbHandle h, byte[] key, byte[] value) throws IOException {
    reader.drop();
    h.put(key, value);
  }

  /** Finds the key and puts the value in one write transaction, as LMDB's own update would. */
  @Override
  protected boolean replace(LmdbHandle h, byte[] key, byte[] value) throws IOException {
    reader.drop();
    return h.replace(key, value);
  }

  @Override
  protected boolean remove(LmdbHandle h, byte[] key) throws IOException {
    reader.drop();
    return h.remove(key);
  }

  @Override
  protected void scan(LmdbHandle h, byte[] start, int count, ValueSink sink) {
    h.scan(reader, start, count, sink);
  }

  /** One write transaction per batch. */
  @Override
  protected void applyBatch(LmdbHandle h, byte[][] keys, byte[][] values, int count) throws IOException {
    reader.drop();
    h.putAll(keys, values, count);
  }
}
