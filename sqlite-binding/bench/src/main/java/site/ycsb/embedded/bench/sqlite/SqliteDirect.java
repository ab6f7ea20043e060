package site.ycsb.embedded.bench.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.sqlite.SQLiteConfig;

import site.ycsb.embedded.bench.BindingOverhead;
import site.ycsb.embedded.bench.LayerDirect;
import site.ycsb.embedded.sqlite.SqliteOptions;

/**
 * sqlite-jdbc called directly ({@link LayerDirect}): the binding's kv table (WITHOUT ROWID by default, as
 * db_bench_sqlite3's) and statements on one connection opened with the binding's pragmas; it closes each once.
 */
final class SqliteDirect implements LayerDirect {

  private final Connection c;
  private final PreparedStatement put;
  private final PreparedStatement get;
  private final PreparedStatement scan;
  private final PreparedStatement begin;
  private final PreparedStatement commit;

  private SqliteDirect(Connection c) throws SQLException {
    this.c = c;
    put = c.prepareStatement("INSERT OR REPLACE INTO usertable (key, value) VALUES (?, ?)");
    get = c.prepareStatement("SELECT value FROM usertable WHERE key = ?");
    scan = c.prepareStatement("SELECT value FROM usertable WHERE key >= ? ORDER BY key LIMIT ?");
    begin = c.prepareStatement("BEGIN IMMEDIATE");
    commit = c.prepareStatement("COMMIT");
  }

  /** Opens the options' file with the binding's pragmas in its order (locking mode first, page size while empty). */
  static SqliteDirect open(SqliteOptions o) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setGetGeneratedKeys(false); // as the binding: no last_insert_rowid() query after each INSERT
    Connection c = config.createConnection("jdbc:sqlite:" + o.file());
    try {
      try (Statement s = c.createStatement()) {
        for (String pragma : List.of("locking_mode=" + o.lockingMode(), "page_size=" + o.pageSize(),
            "journal_mode=" + o.journalMode(), "synchronous=" + o.synchronous(), "cache_size=-" + o.cacheKib(),
            "mmap_size=" + o.mmapSize(), "wal_autocheckpoint=" + o.walAutocheckpoint())) {
          s.execute("PRAGMA " + pragma);
        }
        s.execute(o.createTableIfMissing());
      }
      return new SqliteDirect(c);
    } catch (SQLException e) {
      c.close();
      throw e;
    }
  }

  /** The connection's value of {@code pragma} ("synchronous" gives 0..3): what the layer really runs with. */
  String pragma(String pragma) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA " + pragma)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  @Override
  public void put(byte[] key, byte[] value) throws SQLException {
    put.setBytes(1, key);
    put.setBytes(2, value);
    put.executeUpdate();
  }

  @Override
  public void putBatch(byte[][] keys, byte[][] values, int from, int count) throws SQLException {
    begin.executeUpdate();
    for (int i = from; i < from + count; i++) {
      put(keys[i], values[i]);
    }
    commit.executeUpdate();
  }

  @Override
  public byte[] get(byte[] key) throws SQLException {
    get.setBytes(1, key);
    try (ResultSet rs = get.executeQuery()) {
      return rs.next() ? rs.getBytes(1) : null;
    }
  }

  @Override
  public long scanAll() throws SQLException {
    long n = 0;
    scan.setBytes(1, new byte[0]);
    scan.setLong(2, Integer.MAX_VALUE);
    try (ResultSet rs = scan.executeQuery()) {
      for (; rs.next(); n++) {
        BindingOverhead.touch(rs.getBytes(1));
      }
    }
    return n;
  }

  @Override
  public void close() throws SQLException {
    for (PreparedStatement ps : List.of(put, get, scan, begin, commit)) {
      ps.close();
    }
    c.close();
  }
}
