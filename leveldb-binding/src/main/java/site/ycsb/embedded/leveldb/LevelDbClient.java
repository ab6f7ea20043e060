package site.ycsb.embedded.leveldb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.fusesource.leveldbjni.JniDBFactory;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.KeyValueDB;

/**
 * YCSB binding for LevelDB through leveldbjni (fusesource 1.8, LevelDB 1.13 with Snappy).
 * Property table: leveldb-binding/README.md.
 */
public class LevelDbClient extends KeyValueDB<LevelDbClient.Handle> {

  // Engine-neutral knobs (leveldb.<name> overrides <name>); see EngineProperties.
  /** Block cache in bytes. LevelDB's own default is 8 MB. */
  public static final long CACHE_SIZE_DEFAULT = 8L << 20;
  /** Write buffer (memtable) in bytes. LevelDB's own default is 4 MB. */
  public static final long WRITE_BUFFER_SIZE_DEFAULT = 4L << 20;
  /** snappy or none. */
  public static final String COMPRESSION_DEFAULT = "snappy";

  // LevelDB-only options.
  /** Create the database when the directory holds none. */
  public static final String CREATE_IF_MISSING = "leveldb.createifmissing";
  /** Uncompressed size of a table block in bytes. */
  public static final String BLOCK_SIZE = "leveldb.blocksize";
  public static final int BLOCK_SIZE_DEFAULT = 4096;
  /** Table files LevelDB keeps open. */
  public static final String MAX_OPEN_FILES = "leveldb.maxopenfiles";
  public static final int MAX_OPEN_FILES_DEFAULT = 1000;
  /** Check every stored structure aggressively; stop on the first corruption. */
  public static final String PARANOID_CHECKS = "leveldb.paranoidchecks";
  /** Verify block checksums on every read. */
  public static final String VERIFY_CHECKSUMS = "leveldb.verifychecksums";

  /** The LevelDB release inside leveldbjni-all 1.8 (it exposes no version call). */
  static final String LEVELDB_VERSION = "1.13";

  /** The open database with the option objects every client thread shares. */
  public static final class Handle {
    final DB db;
    final ReadOptions readOptions;
    final WriteOptions writeOptions;

    Handle(DB db, ReadOptions readOptions, WriteOptions writeOptions) {
      this.db = db;
      this.readOptions = readOptions;
      this.writeOptions = writeOptions;
    }

    /** LevelDB's own statistics ("leveldb.stats"): files, sizes and compaction work per level. */
    public String stats() {
      return db.getProperty("leveldb.stats");
    }
  }

  @Override
  protected String engineName() {
    return "leveldb";
  }

  /** The write buffer configure() read: the free-space margin is measured in it. */
  private long writeBufferSize = WRITE_BUFFER_SIZE_DEFAULT;

  @Override
  protected EngineOpener<Handle> configure(EngineProperties props, Path dir) {
    writeBufferSize = props.size(EngineProperties.WRITE_BUFFER_SIZE, WRITE_BUFFER_SIZE_DEFAULT, Integer.MAX_VALUE);
    Options options = new Options()
        .createIfMissing(props.bool(CREATE_IF_MISSING, true))
        .cacheSize(props.size(EngineProperties.CACHE_SIZE, CACHE_SIZE_DEFAULT))
        .writeBufferSize((int) writeBufferSize)
        .blockSize(props.integer(BLOCK_SIZE, BLOCK_SIZE_DEFAULT, 256, 64 << 20))
        .maxOpenFiles(props.integer(MAX_OPEN_FILES, MAX_OPEN_FILES_DEFAULT, 20, 1 << 20))
        .compressionType(props.choice(EngineProperties.COMPRESSION, COMPRESSION_DEFAULT, "snappy", "none")
            .equals("snappy") ? CompressionType.SNAPPY : CompressionType.NONE)
        .paranoidChecks(props.bool(PARANOID_CHECKS, false));
    ReadOptions readOptions = new ReadOptions().verifyChecksums(props.bool(VERIFY_CHECKSUMS, false));
    WriteOptions writeOptions = new WriteOptions().sync(props.bool(EngineProperties.SYNC, false));

    return new EngineOpener<Handle>() {
      @Override
      public Handle open() throws IOException {
        try {
          return new Handle(JniDBFactory.factory.open(dir.toFile(), options), readOptions, writeOptions);
        } catch (IOException | RuntimeException e) {
          throw explain(dir, e);
        }
      }

      @Override
      public void close(Handle h) throws IOException {
        // LevelDB has no flush call, but CompactRange always writes the memtable to a table
        // first, and an empty range compacts nothing else. Without it the next run replays the
        // log inside its timed window. On a full disk that write would be a SIGBUS (mmap): the
        // log keeps every write, so the flush is left to the next open.
        String shortage = diskSpaceShortage("the flush of the memtable at close");
        if (shortage == null) {
          h.db.compactRange(new byte[0], new byte[0]);
        } else {
          System.err.printf("[leveldb] %s; the log keeps the writes and the next open replays it%n", shortage);
        }
        String stats = h.stats();
        h.db.close();
        System.err.printf("[leveldb] leveldb.stats at close:%n%s", stats);
      }

      @Override
      public String describe(Handle h) {
        return "LevelDB " + LEVELDB_VERSION + " (leveldbjni " + JniDBFactory.VERSION + ", "
            + System.getProperty("os.arch") + ")";
      }
    };
  }

  /**
   * LevelDB 1.13 writes through mmap (a full disk is a SIGBUS), and after the last accepted write
   * may still flush the memtable being filled and the one being flushed, compact up to four level-0
   * tables with the overlapping 10 MB of level 1, and flush the memtable at close: six write
   * buffers and 12 MB.
   */
  @Override
  protected long diskSpaceMargin() {
    return 6 * writeBufferSize + (12L << 20);
  }

  @Override
  protected byte[] get(Handle h, byte[] key) {
    return h.db.get(key, h.readOptions);
  }

  @Override
  protected void put(Handle h, byte[] key, byte[] value) {
    h.db.put(key, value, h.writeOptions);
  }

  /** LevelDB cannot tell whether the key existed; a delete of a missing key is OK. */
  @Override
  protected boolean remove(Handle h, byte[] key) {
    h.db.delete(key, h.writeOptions);
    return true;
  }

  @Override
  protected void scan(Handle h, byte[] start, int count, ValueSink sink) throws IOException {
    try (DBIterator it = h.db.iterator(h.readOptions)) {
      it.seek(start);
      for (int n = 0; n < count && it.hasNext(); n++) {
        Map.Entry<byte[], byte[]> e = it.next();
        sink.accept(e.getValue());
      }
    }
  }

  @Override
  protected void applyBatch(Handle h, byte[][] keys, byte[][] values, int count) throws IOException {
    try (WriteBatch batch = h.db.createWriteBatch()) {
      for (int i = 0; i < count; i++) {
        batch.put(keys[i], values[i]);
      }
      h.db.write(batch, h.writeOptions);
    }
  }

  /** Turns LevelDB's terse open errors into messages that say what to do. */
  static IOException explain(Path dir, Exception e) {
    String m = String.valueOf(e.getMessage());
    if (m.contains("LOCK")) {
      return new IOException("LevelDB directory " + dir.toAbsolutePath() + " is locked by another process"
          + " (another YCSB run or program has it open): " + m, e);
    }
    if (m.contains("does not exist")) {
      return new IOException("no LevelDB database in " + dir.toAbsolutePath()
          + " and leveldb.createifmissing=false: " + m, e);
    }
    if (Files.isDirectory(dir) && m.toLowerCase().contains("corrupt")) {
      return new IOException(dir.toAbsolutePath() + " does not hold a readable LevelDB database: " + m, e);
    }
    return new IOException("cannot open LevelDB in " + dir.toAbsolutePath() + ": " + m, e);
  }
}
