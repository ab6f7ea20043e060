package site.ycsb.embedded.sqlite;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import site.ycsb.embedded.KeyValueDB.ValueSink;

/**
 * The kv layout: {@code "key" BLOB PRIMARY KEY, "value" BLOB}, the value being the shared record
 * codec's bytes, like db_bench_sqlite3's key/value table: {@code WITHOUT ROWID} (one B-tree keyed
 * by {@code key}) by default, a rowid table whose key has its own index when asked (or when an
 * existing file has it). Its statements are the engine primitives KeyValueDB builds YCSB's
 * operations on.
 */
final class KvTable extends Schema {

  /** Key and value columns (the 2011 benchmark's names). */
  static final String KEY = "key";
  static final String VALUE = "value";

  private final String get;
  private final String contains;
  private final String put;
  private final String delete;
  private final String scan;

  KvTable(String table, boolean withoutRowid) {
    super(table, withoutRowid, "CREATE TABLE " + quote(table) + " (" + quote(KEY) + " BLOB PRIMARY KEY NOT NULL, "
        + quote(VALUE) + " BLOB NOT NULL)" + rowidClause(withoutRowid));
    String t = quote(table);
    String k = quote(KEY);
    String v = quote(VALUE);
    get = "SELECT " + v + " FROM " + t + " WHERE " + k + " = ?";
    contains = "SELECT 1 FROM " + t + " WHERE " + k + " = ?";
    put = "INSERT OR REPLACE INTO " + t + " (" + k + ", " + v + ") VALUES (?, ?)";
    delete = "DELETE FROM " + t + " WHERE " + k + " = ?";
    scan = "SELECT " + v + " FROM " + t + " WHERE " + k + " >= ? ORDER BY " + k + " LIMIT ?";
  }

  /** The same table with the other rowid choice (its statements are the same). */
  KvTable otherLayout() {
    return new KvTable(table, !withoutRowid);
  }

  byte[] get(Session s, byte[] key) throws SQLException {
    s.lock();
    try {
      PreparedStatement ps = s.prepared(get);
      ps.setBytes(1, key);
      try (ResultSet rs = s.query(ps)) {
        return rs.next() ? rs.getBytes(1) : null;
      }
    } finally {
      s.unlock();
    }
  }

  /** Whether a row holds {@code key}: its value is not read out (an update of a one-field record). */
  boolean contains(Session s, byte[] key) throws SQLException {
    s.lock();
    try {
      PreparedStatement ps = s.prepared(contains);
      ps.setBytes(1, key);
      try (ResultSet rs = s.query(ps)) {
        return rs.next();
      }
    } finally {
      s.unlock();
    }
  }

  void put(Session s, byte[] key, byte[] value) throws SQLException {
    s.lock();
    try {
      PreparedStatement ps = s.prepared(put);
      ps.setBytes(1, key);
      ps.setBytes(2, value);
      s.update(ps);
    } finally {
      s.unlock();
    }
  }

  boolean remove(Session s, byte[] key) throws SQLException {
    s.lock();
    try {
      PreparedStatement ps = s.prepared(delete);
      ps.setBytes(1, key);
      return s.update(ps) > 0;
    } finally {
      s.unlock();
    }
  }

  void scan(Session s, byte[] start, int count, ValueSink sink) throws SQLException {
    s.lock();
    try {
      PreparedStatement ps = s.prepared(scan);
      ps.setBytes(1, start);
      ps.setInt(2, count);
      try (ResultSet rs = s.query(ps)) {
        while (rs.next()) {
          sink.accept(rs.getBytes(1));
        }
      }
    } finally {
      s.unlock();
    }
  }
}
