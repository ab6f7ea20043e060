package site.ycsb.embedded.leveldb;

import java.io.IOException;
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

import site.ycsb.embedded.KeyValueDB.ValueSink;

/** LevelDB 1.13 through leveldbjni 1.8 (leveldb.library=leveldbjni). */
final class JniLevelDb extends LevelDbHandle {

  /** The LevelDB release inside leveldbjni-all 1.8 (it exposes no version call). */
  static final String LEVELDBJNI_LEVELDB_VERSION = "1.13";

  final DB db;
  final ReadOptions readOptions;
  final WriteOptions writeOptions;
  /**
   * The first failed write's error, after which every write is refused until the database is reopened:
   * LevelDB 1.13's log writer counts a record it failed to append (a full disk) as written, so the
   * records after it would sit out of step with the log's blocks and be unreadable after a crash.
   */
  private volatile String failedWrite;

  private JniLevelDb(DB db, ReadOptions readOptions, WriteOptions writeOptions) {
    this.db = db;
    this.readOptions = readOptions;
    this.writeOptions = writeOptions;
  }

  /** leveldbjni's options for {@code o}. */
  private static Options options(LevelDbOptions o) {
    return new Options()
        .createIfMissing(o.createIfMissing())
        .cacheSize(o.cacheSize())
        .writeBufferSize(o.writeBufferSize())
        .blockSize(o.blockSize())
        .maxOpenFiles(o.maxOpenFiles())
        .compressionType(o.snappy() ? CompressionType.SNAPPY : CompressionType.NONE)
        .paranoidChecks(o.paranoidChecks());
  }

  static JniLevelDb openDb(Path dir, LevelDbOptions o) throws IOException {
    return new JniLevelDb(JniDBFactory.factory.open(dir.toFile(), options(o)),
        new ReadOptions().verifyChecksums(o.verifyChecksums()), new WriteOptions().sync(o.sync()));
  }

  /** leveldbjni's RepairDB on {@code dir} (leveldb.repair), with the options of {@code o}. */
  static void repairDb(Path dir, LevelDbOptions o) throws IOException {
    JniDBFactory.factory.repair(dir.toFile(), options(o));
  }

  @Override
  public String library() {
    return LevelDbOptions.LIBRARY_LEVELDBJNI;
  }

  @Override
  public String levelDbVersion() {
    return LEVELDBJNI_LEVELDB_VERSION;
  }

  /** The leveldbjni release. */
  static String jniVersion() {
    return JniDBFactory.VERSION;
  }

  @Override
  public String describe() {
    return "LevelDB " + levelDbVersion() + " (leveldb.library=leveldbjni: leveldbjni " + jniVersion()
        + ", " + System.getProperty("os.arch") + ")";
  }

  @Override
  public byte[] get(byte[] key) {
    return db.get(key, readOptions);
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    writable();
    try {
      db.put(key, value, writeOptions);
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  @Override
  public void delete(byte[] key) throws IOException {
    writable();
    try {
      db.delete(key, writeOptions);
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  @Override
  public void write(byte[][] keys, byte[][] values, int count) throws IOException {
    writable();
    try (WriteBatch batch = db.createWriteBatch()) {
      for (int i = 0; i < count; i++) {
        batch.put(keys[i], values[i]);
      }
      db.write(batch, writeOptions);
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  private void writable() throws IOException {
    String first = failedWrite;
    if (first != null) {
      throw new IOException("leveldbjni accepts no write until the database is reopened: an earlier write"
          + " failed (" + first + "), and LevelDB 1.13 leaves its log out of step after a failed append");
    }
  }

  private RuntimeException failed(RuntimeException e) {
    failedWrite = String.valueOf(e.getMessage());
    return e;
  }

  @Override
  public void scan(byte[] start, int count, ValueSink sink) throws IOException {
    try (DBIterator it = db.iterator(readOptions)) {
      it.seek(start);
      for (int n = 0; n < count && it.hasNext(); n++) {
        Map.Entry<byte[], byte[]> e = it.next();
        sink.accept(e.getValue());
      }
    }
  }

  @Override
  public String property(String name) {
    return db.getProperty(name);
  }

  @Override
  public void compactAll() {
    db.compactRange(null, null);
  }

  @Override
  public void flushMemtable() {
    db.compactRange(new byte[0], new byte[0]);
  }

  @Override
  public void close() throws IOException {
    db.close();
  }
}
