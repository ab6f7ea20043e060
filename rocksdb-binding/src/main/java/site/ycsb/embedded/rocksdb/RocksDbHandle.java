package site.ycsb.embedded.rocksdb;

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

  <T extends RocksObject> T own(T o) {
    owned.add(o);
    return o;
  }

  /** The database itself (for tests and diagnostics). */
  public RocksDB db() {
    return db;
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
  void close() {
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
