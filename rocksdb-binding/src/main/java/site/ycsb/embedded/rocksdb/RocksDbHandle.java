package site.ycsb.embedded.rocksdb;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksObject;
import org.rocksdb.Statistics;
import org.rocksdb.WriteOptions;

/** The open database and every native object it needs, closed once in dependency order. */
public final class RocksDbHandle {
  RocksDB db;
  final List<ColumnFamilyHandle> families = new ArrayList<>();
  ReadOptions readOptions;
  WriteOptions writeOptions;
  DBOptions dbOptions;
  Statistics statistics;
  String source = "";
  String backgroundThreads = "";
  /** Options, caches, filters and statistics: closed after the database, in reverse order. */
  private final List<RocksObject> owned = new ArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * Opens (creating it when missing) the database in {@code dir} with {@code options}, as the binding
   * opens it; {@link #close} closes it and every native object it owns, without the binding's flush.
   */
  public static RocksDbHandle open(RocksDbOptions options, Path dir) throws IOException {
    return new Opener(options, dir).open();
  }

  <T extends RocksObject> T own(T o) {
    owned.add(o);
    return o;
  }

  /** The database itself (for tests and diagnostics). */
  public RocksDB db() {
    return db;
  }

  /** The read options every get and scan uses. */
  public ReadOptions readOptions() {
    return readOptions;
  }

  /** The write options every write uses (sync, disabled WAL). */
  public WriteOptions writeOptions() {
    return writeOptions;
  }

  /** RocksDB's statistics tickers with rocksdb.stats=true, otherwise (the default) null. */
  public Statistics statistics() {
    return statistics;
  }

  /** Write stalls, flush and compaction bytes, and files per level, as printed at close. */
  public String statsReport() throws RocksDBException {
    return StatsReport.of(this);
  }

  /**
   * Closes read/write options, column-family handles, the database, then options, caches,
   * filters and statistics. Runs once; later calls do nothing.
   */
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      closeQuietly(readOptions);
      closeQuietly(writeOptions);
      for (ColumnFamilyHandle f : families) {
        f.close();
      }
      if (db != null) {
        db.close();
      }
    } finally {
      for (int i = owned.size() - 1; i >= 0; i--) {
        owned.get(i).close();
      }
    }
  }

  private static void closeQuietly(RocksObject o) {
    if (o != null) {
      o.close();
    }
  }
}
