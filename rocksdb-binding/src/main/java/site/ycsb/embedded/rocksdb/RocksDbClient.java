package site.ycsb.embedded.rocksdb;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

import site.ycsb.embedded.EngineFacts;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.KeyValueDB;
import site.ycsb.embedded.RecordsInFiles;

/**
 * YCSB binding for RocksDB through rocksdbjni. The properties are {@link RocksDbOptions}, the open
 * database a {@link RocksDbHandle} (opened by {@link Opener}); property table: rocksdb-binding/README.md.
 *
 * <p>Every record lives in RocksDB's default column family: YCSB's table name is not a column
 * family, so an options file needs only the {@code [CFOptions "default"]} section that every
 * OPTIONS file RocksDB writes has, and column families found on disk are opened, never created.
 */
public class RocksDbClient extends KeyValueDB<RocksDbHandle> {

  /** The value buffer of {@link #contains}: RocksDB copies nothing into it. */
  private static final byte[] NO_BYTES = new byte[0];

  private boolean blindUpdates;
  /** Memtable bytes configure() read (size x number): what may still be flushed after the last write. */
  private long memtableBytes =
      RocksDbOptions.WRITE_BUFFER_SIZE_DEFAULT * RocksDbOptions.MAX_WRITE_BUFFER_NUMBER_DEFAULT;

  /**
   * The engine, its property names in RocksDbOptions (what the launcher takes as known: KeyValueDB.propertyNames);
   * RocksDB renames LOG to LOG.old.<time> and starts a new LOG before it finds that it cannot open. Upstream YCSB
   * 0.17's RocksDB binding names the data directory rocksdb.dir: honoured as rocksdb.path, so that a pipeline that
   * swaps upstream's binding for this one keeps its command line.
   */
  private static final EngineFacts FACTS = EngineFacts.of("rocksdb", RocksDbOptions.class)
      .withFilesAFailedOpenRewrites(Set.of("LOG")).withUpstreamAliases(Map.of("rocksdb.dir", "rocksdb.path"));

  @Override
  protected EngineFacts facts() {
    return FACTS;
  }

  /** No table or blob and an empty log: the open would find no record (and write a new log, MANIFEST and OPTIONS). */
  @Override
  protected String noRecordInFiles(Path dir) throws IOException {
    return RecordsInFiles.logStructured(dir);
  }

  @Override
  protected boolean blindUpdates() {
    return blindUpdates;
  }

  @Override
  protected EngineOpener<RocksDbHandle> configure(EngineProperties props, Path dir) throws IOException {
    // Only plain values here: configure runs in every client thread, native objects are made by
    // the one opener that runs.
    RocksDbOptions s = new RocksDbOptions(props, getProperties());
    blindUpdates = s.blindUpdates;
    memtableBytes = s.writeBufferSize * s.maxWriteBufferNumber;
    loadNativeLibrary(); // here, so that the open time printed is the database's alone
    return new Opener(s, dir);
  }

  /** rocksdbjni unpacks its library from the jar: before YCSB's clock starts (see KeyValueDB). */
  @Override
  protected void loadEngineLibrary() throws IOException {
    loadNativeLibrary();
  }

  private static void loadNativeLibrary() throws IOException {
    try {
      RocksDB.loadLibrary();
    } catch (UnsatisfiedLinkError e) {
      throw new IOException("cannot load the RocksDB native library from rocksdbjni (it unpacks into"
          + " java.io.tmpdir, which must allow executables; set YCSB_TMPDIR): " + e.getMessage(), e);
    }
  }

  /**
   * RocksDB fails a write on a full disk with an error (no crash), but then stops accepting writes
   * until reopened; the margin keeps room for the memtables it may flush after the last accepted
   * write, and 8 MB for its logs and manifest, so that the refusal is ours and clear.
   */
  @Override
  protected long diskSpaceMargin() {
    return memtableBytes + (8L << 20);
  }

  @Override
  protected byte[] get(RocksDbHandle h, byte[] key) throws RocksDBException {
    return h.db.get(h.readOptions, key);
  }

  /**
   * Whether the key holds a value, without copying it into a Java array: all a bare record's update reads (its one
   * field replaces the record). RocksDB copies at most the array's length, none for an empty one, and returns the
   * value's size, or NOT_FOUND.
   */
  @Override
  protected boolean contains(RocksDbHandle h, byte[] key) throws RocksDBException {
    return h.db.get(h.readOptions, key, NO_BYTES) != RocksDB.NOT_FOUND;
  }

  @Override
  protected void put(RocksDbHandle h, byte[] key, byte[] value) throws RocksDBException {
    h.db.put(h.writeOptions, key, value);
  }

  /** RocksDB cannot tell whether the key existed without a read; a delete of a missing key is OK. */
  @Override
  protected boolean remove(RocksDbHandle h, byte[] key) throws RocksDBException {
    h.db.delete(h.writeOptions, key);
    return true;
  }

  @Override
  protected void scan(RocksDbHandle h, byte[] start, int count, ValueSink sink) throws RocksDBException {
    try (RocksIterator it = h.db.newIterator(h.readOptions)) {
      it.seek(start);
      for (int n = 0; n < count && it.isValid(); n++) {
        sink.accept(it.value());
        it.next();
      }
      it.status();
    }
  }

  @Override
  protected void applyBatch(RocksDbHandle h, byte[][] keys, byte[][] values, int count) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = 0; i < count; i++) {
        batch.put(keys[i], values[i]);
      }
      h.db.write(h.writeOptions, batch);
    }
  }
}
