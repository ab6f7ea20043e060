package site.ycsb.embedded.sqlite;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.embedded.Keys;
import site.ycsb.embedded.WriteGroup;

/**
 * The columns layout: {@code "YCSB_KEY"} plus one column per YCSB field (upstream YCSB's JDBC layout),
 * the key a BLOB, TEXT or INTEGER; optionally one field an INTEGER counter that an update increments
 * ({@code c1 = c1 + 1} of the SQLite performance notes). A record is its columns, not the record
 * codec's bytes, so this layout has YCSB's operations of its own; its writes go through the client's
 * {@link WriteGroup} like the kv layout's.
 *
 * <p>Columns are addressed by a bit mask (bit i = field i), so that the statement for a set of
 * fields is found without building SQL per operation: all fields and single fields are
 * precomputed, other subsets are built once and kept.
 */
final class ColumnsTable extends Schema {

  /** Key column (upstream YCSB's JDBC name). */
  static final String KEY = "YCSB_KEY";
  /** At most this many fields: a field set is a bit mask in a long. */
  static final int MAX_FIELDS = 63;

  final KeyType keyType;
  /** How a BLOB key is stored: the run's key encoding. */
  private final Keys keys;
  /** Field names in column order. */
  final List<String> fields;
  /** Index of the counter field, or -1. */
  private final int counter;
  private final long allFields;
  private final String insert;
  private final String delete;
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

  ColumnsTable(String table, KeyType keyType, boolean withoutRowid, Keys keys, List<String> fields,
               String counterField) {
    super(table, withoutRowid, createTable(table, keyType, withoutRowid, fields, counterField));
    this.keyType = keyType;
    this.keys = keys;
    this.fields = Collections.unmodifiableList(List.copyOf(fields));
    this.names = fields.toArray(new String[0]);
    this.index = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      index.put(names[i], i);
    }
    this.counter = counterField == null ? -1 : index.get(counterField);
    this.allFields = (1L << names.length) - 1;
    String t = quote(table);
    String k = quote(KEY);
    StringBuilder cols = new StringBuilder();
    StringBuilder marks = new StringBuilder();
    for (String name : names) {
      cols.append(", ").append(quote(name));
      marks.append(", ?");
    }
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

  private static String createTable(String table, KeyType keyType, boolean withoutRowid, List<String> fields,
                                    String counterField) {
    if (fields.isEmpty() || fields.size() > MAX_FIELDS) {
      throw new IllegalArgumentException("the columns layout takes 1 to " + MAX_FIELDS + " fields, got "
          + fields.size());
    }
    if (keyType == KeyType.INTEGER && withoutRowid) {
      throw new IllegalArgumentException("an INTEGER key is the rowid: WITHOUT ROWID does not apply");
    }
    if (counterField != null && !fields.contains(counterField)) {
      throw new IllegalArgumentException("counter field '" + counterField + "' is not one of " + fields);
    }
    StringBuilder defs = new StringBuilder();
    for (String f : fields) {
      defs.append(", ").append(quote(f)).append(f.equals(counterField) ? " INTEGER" : " TEXT");
    }
    String keyDef = keyType == KeyType.INTEGER ? " INTEGER PRIMARY KEY"
        : " " + keyType.name() + " PRIMARY KEY NOT NULL";
    return "CREATE TABLE " + quote(table) + " (" + quote(KEY) + keyDef + defs + ")" + rowidClause(withoutRowid);
  }

  // ---- YCSB's operations on this layout ----

  Status read(Session s, String key, Set<String> fields, Map<String, ByteIterator> result) throws SQLException {
    long mask = readMask(fields);
    checkKey(key);
    s.lock();
    try {
      PreparedStatement ps = s.prepared(select(mask));
      bindKey(ps, 1, key);
      try (ResultSet rs = s.query(ps)) {
        if (!rs.next()) {
          return Status.NOT_FOUND;
        }
        row(rs, mask, result);
        return Status.OK;
      }
    } finally {
      s.unlock();
    }
  }

  Status scan(Session s, String startkey, int recordcount, Set<String> fields,
              Vector<HashMap<String, ByteIterator>> result) throws SQLException {
    long mask = readMask(fields);
    if (!startkey.isEmpty()) {
      checkKey(startkey);
    }
    s.lock();
    try {
      PreparedStatement ps = s.prepared(scan(mask));
      bindScanStart(ps, 1, startkey);
      ps.setInt(2, recordcount);
      try (ResultSet rs = s.query(ps)) {
        while (rs.next()) {
          HashMap<String, ByteIterator> row = new HashMap<>();
          row(rs, mask, row);
          result.add(row);
        }
      }
      return Status.OK;
    } finally {
      s.unlock();
    }
  }

  Status insert(Session s, WriteGroup writes, String key, Map<String, ByteIterator> values) throws Exception {
    long mask = writeMask(values.keySet());
    checkKey(key);
    return writes.write(WriteGroup.Kind.INSERT, null, null, () -> {
      PreparedStatement ps = s.prepared(insert);
      bindKey(ps, 1, key);
      for (int i = 0; i < names.length; i++) {
        if (i == counter) {
          ps.setLong(i + 2, 0);
        } else if ((mask & (1L << i)) != 0) {
          ps.setBytes(i + 2, values.get(names[i]).toArray());
        } else {
          ps.setNull(i + 2, java.sql.Types.BLOB);
        }
      }
      s.update(ps);
      return Status.OK;
    });
  }

  Status update(Session s, WriteGroup writes, String key, Map<String, ByteIterator> values) throws Exception {
    long mask = writeMask(values.keySet());
    if (mask == 0) {
      return read(s, key, Set.of(), new HashMap<>()); // nothing to write: OK when the row exists
    }
    checkKey(key);
    // One UPDATE statement sets the columns in place: no read first, so the write stands alone.
    return writes.write(WriteGroup.Kind.OVERWRITE, null, null, () -> {
      PreparedStatement ps = s.prepared(update(mask));
      int param = 1;
      for (int i = 0; i < names.length; i++) {
        if ((mask & (1L << i)) != 0 && i != counter) {
          ps.setBytes(param++, values.get(names[i]).toArray());
        }
      }
      bindKey(ps, param, key);
      return s.update(ps) > 0 ? Status.OK : Status.NOT_FOUND;
    });
  }

  Status delete(Session s, WriteGroup writes, String key) throws Exception {
    checkKey(key);
    return writes.write(WriteGroup.Kind.DELETE, null, null, () -> {
      PreparedStatement ps = s.prepared(delete);
      bindKey(ps, 1, key);
      return s.update(ps) > 0 ? Status.OK : Status.NOT_FOUND;
    });
  }

  /** One row: the mask's fields in column order; a NULL column is an absent field. */
  private void row(ResultSet rs, long mask, Map<String, ByteIterator> out) throws SQLException {
    int col = 1;
    for (int i = 0; i < names.length; i++) {
      if ((mask & (1L << i)) == 0) {
        continue;
      }
      if (i == counter) {
        long v = rs.getLong(col++);
        if (!rs.wasNull()) {
          out.put(names[i], new ByteArrayByteIterator(Long.toString(v).getBytes(StandardCharsets.US_ASCII)));
        }
      } else {
        byte[] v = rs.getBytes(col++);
        if (v != null) {
          out.put(names[i], new ByteArrayByteIterator(v));
        }
      }
    }
  }

  // ---- statements per field set ----

  /** The fields of {@code wanted} that have a column (null: all); unknown names are skipped. */
  long readMask(Set<String> wanted) {
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
  long writeMask(Set<String> written) {
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
    return "SELECT " + columnList(mask) + " FROM " + quote(table) + " WHERE " + quote(KEY) + " = ?";
  }

  private String buildScan(long mask) {
    String k = quote(KEY);
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
    return "UPDATE " + quote(table) + " SET " + set + " WHERE " + quote(KEY) + " = ?";
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

  // ---- keys ----

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
}
