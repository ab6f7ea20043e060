package site.ycsb.embedded.rocksdb;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * The statistics report printed at close: write stalls, flush and compaction bytes, files per level, and
 * one stable "[rocksdb] stats:" line that the analysis parses. Every figure comes from DB properties
 * ({@code rocksdb.cfstats}, {@code rocksdb.dbstats}, {@code rocksdb.levelstats}), which RocksDB keeps
 * whether or not a statistics object is attached, so the report costs nothing per operation.
 */
final class StatsReport {

  /** The cfstats map prints byte counts in GB (bytes / 2^30) with 6 decimals: about 1 KB of resolution. */
  private static final double GB = 1L << 30;

  private StatsReport() {
  }

  /** Write stalls, flush and compaction bytes, and files per level, as printed at close. */
  static String of(RocksDbHandle h) throws RocksDBException {
    RocksDB db = h.db;
    Map<String, String> cf = db.getMapProperty("rocksdb.cfstats");
    Map<String, String> dbStats = db.getMapProperty("rocksdb.dbstats");
    long stops = count(cf, "total-stops");
    long delays = count(cf, "total-delays");
    long stallMicros = count(dbStats, "db.user_write_stall_micros");
    long userBytes = count(dbStats, "db.user_bytes_written");
    // Per column family, added up as the DB-wide tickers were. Level 0's writes are the flushes plus
    // any intra-L0 compaction's output; level 0's reads are only that compaction's input, which it
    // writes back to within the keys it drops: subtracted, what is left are the flushes.
    long flushBytes = 0;
    long compactRead = 0;
    long compactWrite = 0;
    for (ColumnFamilyHandle family : h.families) {
      Map<String, String> stats = db.getMapProperty(family, "rocksdb.cfstats");
      long written = gigabytes(stats, "compaction.Sum.WriteGB");
      long flushed = Math.min(written,
          Math.max(0, gigabytes(stats, "compaction.L0.WriteGB") - gigabytes(stats, "compaction.L0.ReadGB")));
      flushBytes += flushed;
      compactRead += gigabytes(stats, "compaction.Sum.ReadGB");
      compactWrite += written - flushed;
    }
    String levels = db.getProperty("rocksdb.levelstats");
    List<String> files = new ArrayList<>();
    for (String line : levels.split("\n")) {
      String[] cols = line.trim().split("\\s+");
      if (cols.length >= 2 && cols[0].matches("\\d+") && cols[1].matches("\\d+")) {
        files.add(cols[1]);
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "[rocksdb] write stalls: %d stops, %d slowdowns, %.3f s stalled"
            + " (memtable limit %d/%d, level-0 files %d/%d, pending compaction bytes %d/%d stops/slowdowns)%n",
        stops, delays, stallMicros / 1e6,
        count(cf, "memtable-limit-stops"), count(cf, "memtable-limit-delays"),
        count(cf, "l0-file-count-limit-stops"), count(cf, "l0-file-count-limit-delays"),
        count(cf, "pending-compaction-bytes-stops"), count(cf, "pending-compaction-bytes-delays")));
    sb.append(String.format(Locale.ROOT, "[rocksdb] background I/O: flush wrote %.1f MB, compaction read %.1f MB"
            + " and wrote %.1f MB; clients wrote %.1f MB (write amplification %.2f)%n",
        flushBytes / 1e6, compactRead / 1e6, compactWrite / 1e6, userBytes / 1e6,
        userBytes > 0 ? (flushBytes + compactWrite) / (double) userBytes : 0.0));
    sb.append("[rocksdb] files per level: ");
    for (int i = 0; i < files.size(); i++) {
      sb.append(i == 0 ? "" : " ").append('L').append(i).append('=').append(files.get(i));
    }
    sb.append(String.format("%n[rocksdb] rocksdb.levelstats:%n%s", levels));
    sb.append(String.format(Locale.ROOT, "[rocksdb] stats: stall_stops=%d stall_slowdowns=%d stall_micros=%d"
            + " flush_bytes=%d compaction_read_bytes=%d compaction_write_bytes=%d bytes_written=%d"
            + " files_per_level=%s source=properties%n",
        stops, delays, stallMicros, flushBytes, compactRead, compactWrite, userBytes, String.join(",", files)));
    return sb.toString();
  }

  /** RocksDB's own counters for the same figures, printed at close with rocksdb.stats=true. */
  static String tickers(Statistics statistics) {
    return String.format(Locale.ROOT, "[rocksdb] tickers: stall_micros=%d flush_write_bytes=%d compact_read_bytes=%d"
            + " compact_write_bytes=%d bytes_written=%d%n",
        statistics.getTickerCount(TickerType.STALL_MICROS), statistics.getTickerCount(TickerType.FLUSH_WRITE_BYTES),
        statistics.getTickerCount(TickerType.COMPACT_READ_BYTES),
        statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES), statistics.getTickerCount(TickerType.BYTES_WRITTEN));
  }

  private static long count(Map<String, String> m, String key) {
    String v = m.get(key);
    return v == null ? 0 : (long) Double.parseDouble(v);
  }

  /** A cfstats "...GB" value back in bytes (to within the 6 decimals' ~537 bytes). */
  private static long gigabytes(Map<String, String> m, String key) {
    String v = m.get(key);
    return v == null ? 0 : Math.round(Double.parseDouble(v) * GB);
  }
}
