package site.ycsb.embedded;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

/**
 * Turns a YCSB record (field name -> value) into the bytes an engine stores, and back.
 *
 * <p>Two layouts:
 * <ul>
 *   <li><b>fields</b> (default): {@code varint fieldCount}, then per field
 *       {@code varint nameLength, name (UTF-8), varint valueLength, value}. A 100-byte field
 *       named {@code field0} costs 109 bytes.</li>
 *   <li><b>bare</b>: the record has exactly one field, always named {@link #bareField()},
 *       and the stored bytes are that field's value and nothing else, so that
 *       {@code fieldlength=100} means 100 stored bytes, as in db_bench's tests.</li>
 * </ul>
 * The layout is not in the stored bytes: {@link DataLayout} records it beside them when the database
 * is created, and a run with another is refused (the bindings choose bare only when
 * {@code fieldcount=1} or when asked to).
 *
 * <p>Decoding returns views over the stored array; nothing is copied per field.
 */
public final class RecordCodec {

  private final String bareField;

  private RecordCodec(String bareField) {
    this.bareField = bareField;
  }

  /** The self-describing multi-field layout. */
  public static RecordCodec fields() {
    return new RecordCodec(null);
  }

  /** The single-field layout: the stored bytes are the value of {@code fieldName}. */
  public static RecordCodec bare(String fieldName) {
    if (fieldName == null || fieldName.isEmpty()) {
      throw new IllegalArgumentException("bare layout needs a field name");
    }
    return new RecordCodec(fieldName);
  }

  public boolean isBare() {
    return bareField != null;
  }

  /** The one field name of the bare layout, or null for the fields layout. */
  public String bareField() {
    return bareField;
  }

  /** Encodes a whole record. Consumes the value iterators. */
  public byte[] encode(Map<String, ByteIterator> values) {
    if (bareField != null) {
      return bareValue(values);
    }
    int n = values.size();
    byte[][] names = new byte[n][];
    byte[][] data = new byte[n][];
    int size = varintSize(n);
    int i = 0;
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      names[i] = e.getKey().getBytes(StandardCharsets.UTF_8);
      data[i] = e.getValue().toArray();
      size += varintSize(names[i].length) + names[i].length + varintSize(data[i].length) + data[i].length;
      i++;
    }
    byte[] out = new byte[size];
    int pos = putVarint(out, 0, n);
    for (i = 0; i < n; i++) {
      pos = putBytes(out, pos, names[i]);
      pos = putBytes(out, pos, data[i]);
    }
    return out;
  }

  /**
   * Decodes {@code stored} into {@code result}, keeping only {@code fields} (all when null).
   *
   * @throws CorruptRecordException when the bytes are not a record of this layout
   */
  public void decode(byte[] stored, Set<String> fields, Map<String, ByteIterator> result) {
    if (bareField != null) {
      if (fields == null || fields.contains(bareField)) {
        result.put(bareField, new ByteArrayByteIterator(stored));
      }
      return;
    }
    Reader r = new Reader(stored);
    long n = r.varint();
    for (long i = 0; i < n; i++) {
      int nameLen = r.length();
      int nameAt = r.skip(nameLen);
      int valueLen = r.length();
      int valueAt = r.skip(valueLen);
      String name = name(stored, nameAt, nameLen);
      if (fields == null || fields.contains(name)) {
        result.put(name, new ByteArrayByteIterator(stored, valueAt, valueLen));
      }
    }
    if (r.pos != stored.length) {
      throw new CorruptRecordException("record has " + (stored.length - r.pos) + " trailing bytes");
    }
  }

  /**
   * The bytes of the values {@link #decode} would return for {@code fields} (all when null), without
   * building them: what a scan that only counts needs. Checks the record as decode does.
   *
   * @throws CorruptRecordException when the bytes are not a record of this layout
   */
  public long valueBytes(byte[] stored, Set<String> fields) {
    if (bareField != null) {
      return fields == null || fields.contains(bareField) ? stored.length : 0;
    }
    Reader r = new Reader(stored);
    long n = r.varint();
    long total = 0;
    for (long i = 0; i < n; i++) {
      int nameLen = r.length();
      int nameAt = r.skip(nameLen);
      int valueLen = r.length();
      r.skip(valueLen);
      if (fields == null || fields.contains(name(stored, nameAt, nameLen))) {
        total += valueLen;
      }
    }
    if (r.pos != stored.length) {
      throw new CorruptRecordException("record has " + (stored.length - r.pos) + " trailing bytes");
    }
    return total;
  }

  /**
   * Returns the record {@code stored} with {@code updates} merged in: updated fields replaced,
   * new fields added, the others kept. Consumes the update iterators.
   */
  public byte[] merge(byte[] stored, Map<String, ByteIterator> updates) {
    if (bareField != null) {
      return bareValue(updates);
    }
    java.util.LinkedHashMap<String, ByteIterator> merged = new java.util.LinkedHashMap<>();
    decode(stored, null, merged);
    merged.putAll(updates);
    return encode(merged);
  }

  private byte[] bareValue(Map<String, ByteIterator> values) {
    ByteIterator v = values.size() == 1 ? values.get(bareField) : null;
    if (v == null) {
      throw new IllegalArgumentException("the bare record layout stores exactly one field named '"
          + bareField + "', got " + values.keySet()
          + "; use fieldcount=1 or the fields layout (recordlayout=fields)");
    }
    return v.toArray();
  }

  private static String name(byte[] b, int at, int len) {
    return new String(b, at, len, StandardCharsets.UTF_8);
  }

  private static int putBytes(byte[] out, int pos, byte[] b) {
    pos = putVarint(out, pos, b.length);
    System.arraycopy(b, 0, out, pos, b.length);
    return pos + b.length;
  }

  static int varintSize(long v) {
    int n = 1;
    while ((v >>>= 7) != 0) {
      n++;
    }
    return n;
  }

  static int putVarint(byte[] out, int pos, long v) {
    while ((v & ~0x7FL) != 0) {
      out[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[pos++] = (byte) v;
    return pos;
  }

  /** Thrown when stored bytes cannot be a record: never silently returned as data. */
  public static final class CorruptRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CorruptRecordException(String message) {
      super(message);
    }
  }

  private static final class Reader {
    private final byte[] b;
    private int pos;

    Reader(byte[] b) {
      this.b = b;
    }

    long varint() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= b.length) {
          throw new CorruptRecordException("record ends inside a length");
        }
        byte x = b[pos++];
        v |= (long) (x & 0x7F) << shift;
        if (x >= 0) {
          return v;
        }
      }
      throw new CorruptRecordException("length longer than 64 bits");
    }

    int length() {
      long v = varint();
      if (v > b.length - pos) {
        throw new CorruptRecordException("length " + v + " runs past the end of the record");
      }
      return (int) v;
    }

    int skip(int n) {
      int at = pos;
      pos += n;
      return at;
    }
  }
}
