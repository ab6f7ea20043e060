package site.ycsb.embedded.sqlite;

/**
 * The YCSB table in SQLite, in one of two layouts, each a class of its own with the text of every
 * statement on it. Immutable; one per database.
 * <ul>
 *   <li>{@link KvTable}: {@code "key" BLOB PRIMARY KEY, "value" BLOB}, the value being the shared
 *       record codec's bytes, like the 2011 benchmark's key/value table. KeyValueDB reads and writes
 *       it through the binding's get, put, remove and scan.</li>
 *   <li>{@link ColumnsTable}: {@code "YCSB_KEY"} plus one column per YCSB field (upstream YCSB's JDBC
 *       layout), with YCSB's operations of its own.</li>
 * </ul>
 */
abstract class Schema {

  /** Key types of the columns layout (the kv layout's key is a BLOB). */
  enum KeyType { BLOB, TEXT, INTEGER }

  final String table;
  final boolean withoutRowid;
  /** CREATE TABLE text, also compared with what an existing database holds. */
  final String create;

  Schema(String table, boolean withoutRowid, String create) {
    this.table = table;
    this.withoutRowid = withoutRowid;
    this.create = create;
  }

  static KvTable kv(String table, boolean withoutRowid) {
    return new KvTable(table, withoutRowid);
  }

  static ColumnsTable columns(String table, KeyType keyType, boolean withoutRowid, site.ycsb.embedded.Keys keys,
                              java.util.List<String> fields, String counterField) {
    return new ColumnsTable(table, keyType, withoutRowid, keys, fields, counterField);
  }

  /** Whether the table has no row: what a run phase that reads records refuses. */
  boolean isEmpty(Session s) throws java.sql.SQLException {
    s.lock();
    try (java.sql.ResultSet rs = s.query(s.prepared("SELECT 1 FROM " + quote(table) + " LIMIT 1"))) {
      return !rs.next();
    } finally {
      s.unlock();
    }
  }

  /** The same CREATE TABLE, run only where the table is missing. */
  String createIfMissing() {
    return create.replaceFirst("^CREATE TABLE ", "CREATE TABLE IF NOT EXISTS ");
  }

  /** SQL's quoted identifier: any table or field name is safe. */
  static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  /** The {@code WITHOUT ROWID} clause, or nothing. */
  static String rowidClause(boolean withoutRowid) {
    return withoutRowid ? " WITHOUT ROWID" : "";
  }

  /** What SQLite stores for a CREATE TABLE, compared with whitespace collapsed. */
  static String normalized(String sql) {
    return sql == null ? null : sql.trim().replaceAll("\\s+", " ");
  }

  @Override
  public String toString() {
    return create;
  }
}
