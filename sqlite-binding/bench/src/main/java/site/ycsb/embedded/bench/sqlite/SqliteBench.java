package site.ycsb.embedded.bench.sqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.bench.BenchEngine;
import site.ycsb.embedded.bench.LayerDirect;
import site.ycsb.embedded.sqlite.SqliteClient;
import site.ycsb.embedded.sqlite.SqliteOptions;

/**
 * SQLite's row of the benchmarks: sqlite-jdbc with the binding's table, statements and pragmas
 * ({@link SqliteDirect}, opened with SqliteOptions); its floor is floor_sqlite.c over the system libsqlite3.
 */
public final class SqliteBench extends BenchEngine {

  public SqliteBench() {
    super("sqlite", SqliteClient::new);
  }

  @Override
  public LayerDirect open(Path dir, EngineProperties p, Properties raw) throws SQLException {
    return SqliteDirect.open(SqliteOptions.readKv(p, raw, dir));
  }

  @Override
  public String libraryVersion(Properties raw) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
        Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT sqlite_version()")) {
      rs.next();
      return "SQLite " + rs.getString(1) + " (sqlite-jdbc)";
    }
  }

}
