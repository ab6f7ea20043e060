package site.ycsb.embedded.sqlite;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;

import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.embedded.WriteGroup;

/**
 * YCSB binding for SQLite's columns layout (engine {@code sqlite-columns}): upstream YCSB's JDBC table,
 * {@code "YCSB_KEY"} plus one column per field, optionally an INTEGER key and an INTEGER counter field
 * (the SQLite notes' table; see {@link ColumnsTable}). A record is its columns, not the record codec's
 * bytes, so YCSB's operations are the table's own; the database, its connections, the properties and
 * the write transactions are the kv client's ({@link SqliteClient}). Property table:
 * sqlite-binding/README.md.
 */
public class SqliteColumnsClient extends SqliteClient {

  /** The columns table, as the first client created or found it. */
  private ColumnsTable columns;
  /** This client's write transaction (the write group). */
  private WriteGroup transactions;

  @Override
  boolean columnsLayout() {
    return true;
  }

  @Override
  void useTable(Schema created) {
    columns = (ColumnsTable) created;
  }

  @Override
  protected WriteGroup writeGroup(Session mine, int batchSize) {
    transactions = super.writeGroup(mine, batchSize);
    return transactions;
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      return columns.read(handle(), key, fields, result);
    } catch (Exception e) {
      return failed("read", key, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                     Vector<HashMap<String, ByteIterator>> result) {
    try {
      return columns.scan(handle(), startkey, recordcount, fields, result);
    } catch (Exception e) {
      return failed("scan", startkey, e);
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      diskSpaceFor(key.length() + fieldBytes(values));
      return columns.insert(handle(), transactions, key, values);
    } catch (Exception e) {
      return failed("insert", key, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    try {
      diskSpaceFor(key.length() + fieldBytes(values));
      return columns.update(handle(), transactions, key, values);
    } catch (Exception e) {
      return failed("update", key, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      diskSpaceFor(key.length());
      return columns.delete(handle(), transactions, key);
    } catch (Exception e) {
      return failed("delete", key, e);
    }
  }
}
