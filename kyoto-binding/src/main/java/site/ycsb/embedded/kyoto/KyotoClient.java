package site.ycsb.embedded.kyoto;

import java.io.IOException;
import java.nio.file.Path;

import site.ycsb.embedded.DiskSpaceGuard;
import site.ycsb.embedded.EngineFacts;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.KeyValueDB;
import site.ycsb.embedded.MmapSpace;
import site.ycsb.embedded.NativeScanBuffer;

/**
 * YCSB binding for Kyoto Cabinet (the system library, libkyotocabinet 1.2.79) through the
 * binding's own thin JNI layer ({@link KyotoNative}, src/main/c/kyotojni.c). A TreeDB file
 * ({@code .kct}, ordered, the 2011 benchmark's engine) by default; a HashDB ({@code .kch}) when
 * asked. The properties are {@link KyotoOptions}, the open file a {@link KyotoHandle}; property
 * table: kyoto-binding/README.md.
 */
public class KyotoClient extends KeyValueDB<KyotoHandle> {

  /** The options configure() read (null before). */
  private KyotoOptions options;

  /** The engine, its property names in KyotoOptions (what the launcher takes as known: KeyValueDB.propertyNames). */
  private static final EngineFacts FACTS = EngineFacts.of("kyoto", KyotoOptions.class);

  @Override
  protected EngineFacts facts() {
    return FACTS;
  }

  /** The database file configure() read: a directory can hold several, each with its own layout record. */
  @Override
  protected String databaseFile() {
    return options.file().getFileName().toString();
  }

  /**
   * Kyoto writes its file through mmap (a full disk is a SIGBUS). A TreeDB keeps up to its page
   * cache (pccap) of dirty, mostly new, pages that reach the file when the cache overflows and at
   * close; 8 MB more covers the transaction log of a batch and the file's own growth.
   */
  @Override
  protected long diskSpaceMargin() {
    return options.pageCacheBytes() + (8L << 20);
  }

  /**
   * A TreeDB was seen to keep every large record (4,000 bytes) in memory until close, whatever its
   * page cache; on disk a record then takes up to about 1.2 times its bytes. So 1.25 times what was
   * written since open is reserved too. A HashDB writes each record into its map at once.
   */
  @Override
  protected double diskSpaceDeferredShare() {
    return options.pageCacheBytes() > 0 ? 1.25 : 0;
  }

  /** Kyoto writes through mmap: whether a disk another process fills is an ERROR or kills the JVM. */
  @Override
  protected String diskSpaceNote(DiskSpaceGuard guard) {
    return mmapNote(MmapSpace.preloaded());
  }

  static String mmapNote(boolean preloaded) {
    if (preloaded) {
      return "disk: " + MmapSpace.LIBRARY + " is preloaded: should another process fill the disk, writes return ERROR"
          + " (the file Kyoto maps gets its blocks before it is written)";
    }
    return "WARNING: " + MmapSpace.LIBRARY + " is not preloaded: should another process fill the disk, Kyoto (writes"
        + " through mmap) kills this JVM with SIGBUS; bin/ycsb preloads it (or set LD_PRELOAD to it)";
  }

  /** An empty file, or one whose header or meta record counts no record: the open would find none. */
  @Override
  protected String noRecordInFiles(Path dir) throws IOException {
    return KyotoFileRecords.whyNone(options.file());
  }

  /** kyoto.repair: Kyoto rebuilds the file at open, so one shorter than its header records is not refused. */
  @Override
  protected boolean repairs() {
    return options.repair();
  }

  @Override
  protected EngineOpener<KyotoHandle> configure(EngineProperties props, Path dir) throws IOException {
    KyotoNative.ensureLoaded();
    KyotoOptions read = KyotoOptions.read(props, dir);
    options = read;
    return new EngineOpener<KyotoHandle>() {
      @Override
      public KyotoHandle open() throws IOException {
        return KyotoHandle.open(read);
      }

      @Override
      public void close(KyotoHandle h) throws IOException {
        String summary = h.summary();
        h.close();
        System.err.printf("[kyoto] at close: %s%n", summary);
      }

      @Override
      public String describe(KyotoHandle h) {
        return h.describe();
      }
    };
  }

  @Override
  protected byte[] get(KyotoHandle h, byte[] key) throws KyotoException {
    return h.get(key);
  }

  @Override
  protected void put(KyotoHandle h, byte[] key, byte[] value) throws KyotoException {
    h.put(key, value);
  }

  @Override
  protected boolean remove(KyotoHandle h, byte[] key) throws KyotoException {
    return h.remove(key);
  }

  @Override
  protected void scan(KyotoHandle h, byte[] start, int count, ValueSink sink) throws IOException {
    h.withCursor(start, count, fill -> NativeScanBuffer.feed(fill, count, sink));
  }

  @Override
  protected void scanSizes(KyotoHandle h, byte[] start, int count, SizeSink sink) throws IOException {
    h.withCursor(start, count, fill -> NativeScanBuffer.feedSizes(fill, count, sink));
  }

  /** One transaction per batch (see {@link KyotoHandle#putInTransaction}). */
  @Override
  protected void applyBatch(KyotoHandle h, byte[][] keys, byte[][] values, int count) throws KyotoException {
    h.putInTransaction(keys, values, count);
  }
}
