package site.ycsb.embedded.rocksdb;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * The statistics report printed at close: write stalls, flush and compaction bytes, files per level, and
 * one stable "[rocksdb] stats:" line that the analysis parses.
 */
final class StatsReport {

  private StatsReport() {
  }

  /** Write stalls, flush and compaction bytes, and files per level, as printed at close. */
  static String of(Handle h) throws RocksDBException {
    RocksDB db = h.db;
    Statistics statistics = h.statistics;
    Map<String, String> cf = db.getMapProperty("rocksdb.cfstats");
    long stops = count(cf, "total-stops");
    long delays = count(cf, "total-delays");
    long stallMicros = ticker(statistics, TickerType.STALL_MICROS);
    long flushBytes = ticker(statistics, TickerType.FLUSH_WRITE_BYTES);
    long compactRead = ticker(statistics, TickerType.COMPACT_READ_BYTES);
    long compactWrite = ticker(statistics, TickerType.COMPACT_WRITE_BYTES);
    long userBytes = ticker(statistics, TickerType.BYTES_WRITTEN);
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
            + " files_per_level=%s%n",
        stops, delays, stallMicros, flushBytes, compactRead, compactWrite, userBytes, String.join(",", files)));
    return sb.toString();
  }

  private static long ticker(Statistics statistics, TickerType t) {
    return statistics == null ? 0 : statistics.getTickerCount(t);
  }

  private static long count(Map<String, String> m, String key) {
    String v = m.get(key);
    return v == null ? 0 : (long) Double.parseDouble(v);
  }
}
