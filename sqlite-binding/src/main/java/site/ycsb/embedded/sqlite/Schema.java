package site.ycsb.embedded.sqlite;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import site.ycsb.embedded.Keys;

/**
 * The YCSB table in SQLite and the text of every statement on it. Immutable; one per database.
 *
 * <p>Two layouts:
 * <ul>
 *   <li><b>kv</b>: {@code "key" BLOB PRIMARY KEY, "value" BLOB}, the value being the shared
 *       record codec's bytes, like the 2011 benchmark's key/value table ({@code WITHOUT ROWID}
 *       unless asked otherwise).</li>
 *   <li><b>columns</b>: {@code "YCSB_KEY"} plus one column per YCSB field (upstream YCSB's JDBC
 *       layout), the key a BLOB, TEXT or INTEGER; optionally one field an INTEGER counter that an
 *       update increments ({@code c1 = c1 + 1} of the SQLite performance notes).</li>
 * </ul>
 *
 * <p>Columns are addressed by a bit mask (bit i = field i), so that the statement for a set of
 * fields is found without building SQL per operation: all fields and single fields are
 * precomputed, other subsets are built once and kept.
 */
final class Schema {

  enum Layout { KV, COLUMNS }

  enum KeyType { BLOB, TEXT, INTEGER }

  /** Key and value columns of the kv layout (the 2011 benchmark's names). */
  static final String KV_KEY = "key";
  static final String KV_VALUE = "value";
  /** Key column of the columns layout (upstream YCSB's JDBC name). */
  static final String COLUMNS_KEY = "YCSB_KEY";
  /** At most this many fields in the columns layout: a field set is a bit mask in a long. */
  static final int MAX_FIELDS = 63;

  final Layout layout;
  final String table;
  final KeyType keyType;
  final boolean withoutRowid;
  /** How a BLOB key is stored: the run's key encoding. */
  final Keys keys;
  /** Field names in column order (columns layout); empty for kv. */
  final List<String> fields;
  /** Index of the counter field, or -1. */
  final int counter;
  final long allFields;
  /** CREATE TABLE text, also compared with what an existing database holds. */
  final String create;

  // kv layout
  final String kvGet;
  final String kvPut;
  final String kvDelete;
  final String kvScan;

  // columns layout
  final String insert;
  final String delete;
  private final Map<String, Integer> index;
  private final String[] names;
  private final String selectAll;
  private final String scanAll;
  private final String updateAll;
  private final String[] selectOne;
  private final String[] scanOne;
  private final String[] updateOne;
  private final Map<Long, String> selectSome = new ConcurrentHashMap<>();
  private final Map<Long, String> scanSome = new ConcurrentHashMap<>();
  private final Map<Long, String> updateSome = new ConcurrentHashMap<>();

  static Schema kv(String table, boolean withoutRowid, Keys keys) {
    return new Schema(Layout.KV, table, KeyType.BLOB, withoutRowid, keys, List.of(), null);
  }

  static Schema columns(String table, KeyType keyType, boolean withoutRowid, Keys keys, List<String> fields,
                        String counterField) {
    if (fields.isEmpty() || fields.size() > MAX_FIELDS) {
      throw new IllegalArgumentException("the columns layout takes 1 to " + MAX_FIELDS + " fields, got " + fields.size());
    }
    if (keyType == KeyType.INTEGER && withoutRowid) {
      throw new IllegalArgumentException("an INTEGER key is the rowid: WITHOUT ROWID does not apply");
    }
    return new Schema(Layout.COLUMNS, table, keyType, withoutRowid, keys, fields, counterField);
  }

  private Schema(Layout layout, String table, KeyType keyType, boolean withoutRowid, Keys keys, List<String> fields,
                 String counterField) {
    this.layout = layout;
    this.table = table;
    this.keyType = keyType;
    this.withoutRowid = withoutRowid;
    this.keys = keys;
    this.fields = Collections.unmodifiableList(List.copyOf(fields));
    this.names = fields.toArray(new String[0]);
    this.index = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      index.put(names[i], i);
    }
    this.counter = counterField == null ? -1 : index.getOrDefault(counterField, -1);
    if (counterField != null && counter < 0) {
      throw new IllegalArgumentException("counter field '" + counterField + "' is not one of " + fields);
    }
    this.allFields = names.length == 0 ? 0 : (1L << names.length) - 1;
    String t = quote(table);
    String rowid = withoutRowid ? " WITHOUT ROWID" : "";
    if (layout == Layout.KV) {
      String k = quote(KV_KEY);
      String v = quote(KV_VALUE);
      create = "CREATE TABLE " + t + " (" + k + " BLOB PRIMARY KEY NOT NULL, " + v + " BLOB NOT NULL)" + rowid;
      kvGet = "SELECT " + v + " FROM " + t + " WHERE " + k + " = ?";
      kvPut = "INSERT OR REPLACE INTO " + t + " (" + k + ", " + v + ") VALUES (?, ?)";
      kvDelete = "DELETE FROM " + t + " WHERE " + k + " = ?";
      kvScan = "SELECT " + v + " FROM " + t + " WHERE " + k + " >= ? ORDER BY " + k + " LIMIT ?";
      insert = delete = selectAll = scanAll = updateAll = null;
      selectOne = scanOne = updateOne = null;
      return;
    }
    kvGet = kvPut = kvDelete = kvScan = null;
    String k = quote(COLUMNS_KEY);
    StringBuilder cols = new StringBuilder();
    StringBuilder marks = new StringBuilder();
    StringBuilder defs = new StringBuilder();
    for (int i = 0; i < names.length; i++) {
      cols.append(", ").append(quote(names[i]));
      marks.append(", ?");
      defs.append(", ").append(quote(names[i])).append(i == counter ? " INTEGER" : " TEXT");
    }
    String keyDef = keyType == KeyType.INTEGER ? " INTEGER PRIMARY KEY"
        : " " + keyType.name() + " PRIMARY KEY NOT NULL";
    create = "CREATE TABLE " + t + " (" + k + keyDef + defs + ")" + rowid;
    insert = "INSERT OR REPLACE INTO " + t + " (" + k + cols + ") VALUES (?" + marks + ")";
    delete = "DELETE FROM " + t + " WHERE " + k + " = ?";
    selectAll = buildSelect(allFields);
    scanAll = buildScan(allFields);
    updateAll = buildUpdate(allFields);
    selectOne = new String[names.length];
    scanOne = new String[names.length];
    updateOne = new String[names.length];
    for (int i = 0; i < names.length; i++) {
      selectOne[i] = buildSelect(1L << i);
      scanOne[i] = buildScan(1L << i);
      updateOne[i] = buildUpdate(1L << i);
    }
  }

  /** SQL's quoted identifier: any table or field name is safe. */
  static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  boolean isKv() {
    return layout == Layout.KV;
  }

  int fieldCount() {
    return names.length;
  }

  String field(int i) {
    return names[i];
  }

  boolean isCounter(int i) {
    return i == counter;
  }

  /** The fields of {@code wanted} that have a column (null: all); unknown names are skipped. */
  long readMask(java.util.Set<String> wanted) {
    if (wanted == null) {
      return allFields;
    }
    long mask = 0;
    for (String f : wanted) {
      Integer i = index.get(f);
      if (i != null) {
        mask |= 1L << i;
      }
    }
    return mask;
  }

  /** The columns of the fields written; a field without a column is an error, never dropped. */
  long writeMask(java.util.Set<String> written) {
    long mask = 0;
    for (String f : written) {
      Integer i = index.get(f);
      if (i == null) {
        throw new IllegalArgumentException("field '" + f + "' has no column in table " + table + " (the columns"
            + " layout has " + fields + ", fixed by fieldcount and fieldnameprefix when the table was created)");
      }
      mask |= 1L << i;
    }
    return mask;
  }

  String select(long mask) {
    return mask == allFields ? selectAll : Long.bitCount(mask) == 1 ? selectOne[Long.numberOfTrailingZeros(mask)]
        : selectSome.computeIfAbsent(mask, this::buildSelect);
  }

  String scan(long mask) {
    return mask == allFields ? scanAll : Long.bitCount(mask) == 1 ? scanOne[Long.numberOfTrailingZeros(mask)]
        : scanSome.computeIfAbsent(mask, this::buildScan);
  }

  /** The UPDATE for a non-empty mask: each field set from a parameter, the counter incremented. */
  String update(long mask) {
    return mask == allFields ? updateAll : Long.bitCount(mask) == 1 ? updateOne[Long.numberOfTrailingZeros(mask)]
        : updateSome.computeIfAbsent(mask, this::buildUpdate);
  }

  private String buildSelect(long mask) {
    return "SELECT " + columnList(mask) + " FROM " + quote(table) + " WHERE " + quote(COLUMNS_KEY) + " = ?";
  }

  private String buildScan(long mask) {
    String k = quote(COLUMNS_KEY);
    return "SELECT " + columnList(mask) + " FROM " + quote(table) + " WHERE " + k + " >= ? ORDER BY " + k + " LIMIT ?";
  }

  private String buildUpdate(long mask) {
    StringBuilder set = new StringBuilder();
    for (int i = 0; i < names.length; i++) {
      if ((mask & (1L << i)) != 0) {
        String c = quote(names[i]);
        set.append(set.length() == 0 ? "" : ", ").append(c).append(i == counter ? " = " + c + " + 1" : " = ?");
      }
    }
    return "UPDATE " + quote(table) + " SET " + set + " WHERE " + quote(COLUMNS_KEY) + " = ?";
  }

  /** The columns of a mask in field order; "1" for none (the row's existence is all we learn). */
  private String columnList(long mask) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < names.length; i++) {
      if ((mask & (1L << i)) != 0) {
        sb.append(sb.length() == 0 ? "" : ", ").append(quote(names[i]));
      }
    }
    return sb.length() == 0 ? "1" : sb.toString();
  }

  /** Fails now, before any statement runs, when a key cannot be stored as this key type. */
  void checkKey(String key) {
    switch (keyType) {
      case INTEGER:
        integerKey(key);
        break;
      case TEXT:
        Keys.UTF8.bytes(key); // SQLite's TEXT is UTF-8: a lone surrogate would be stored as '?'
        break;
      default:
        keys.bytes(key);
    }
  }

  /** Binds a YCSB key as the key column's type. */
  void bindKey(PreparedStatement ps, int param, String key) throws SQLException {
    switch (keyType) {
      case INTEGER:
        ps.setLong(param, integerKey(key));
        break;
      case TEXT:
        ps.setString(param, key);
        break;
      default:
        ps.setBytes(param, keys.bytes(key));
    }
  }

  /** Binds the first key of a scan; "" (a scan from the start) is below every key. */
  void bindScanStart(PreparedStatement ps, int param, String start) throws SQLException {
    if (keyType == KeyType.INTEGER && start.isEmpty()) {
      ps.setLong(param, Long.MIN_VALUE);
    } else {
      bindKey(ps, param, start);
    }
  }

  private static long integerKey(String key) {
    try {
      return Long.parseLong(key);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("sqlite.keytype=integer stores keys as numbers, and key '" + key
          + "' is not a decimal number (use keyformat=decimal)");
    }
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
