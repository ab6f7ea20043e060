package site.ycsb.embedded;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.RandomByteIterator;

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

  /** Encodes a whole record into a new array. Consumes the value iterators. */
  public byte[] encode(Map<String, ByteIterator> values) {
    return encode(values, null);
  }

  /**
   * Encodes a whole record and returns the array that holds it: {@code reused[0]} when the record is exactly its
   * length, else a new array, which then becomes {@code reused[0]}, so that a client thread writing records of one
   * size reuses one array (none when {@code reused} is null). A bare value handed over ({@link HandedOverBytes}) is
   * stored as its own array, never reused. Consumes the value iterators.
   */
  public byte[] encode(Map<String, ByteIterator> values, byte[][] reused) {
    if (bareField != null) {
      ByteIterator v = bareValue(values);
      if (v instanceof HandedOverBytes) {
        return v.toArray(); // the workload's array itself: no copy
      }
      byte[] out = array(length(v), reused);
      putValue(v, out, 0, out.length);
      return out;
    }
    int n = values.size();
    long size = varintSize(n);
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      long nameLength = utf8Length(e.getKey());
      long valueLength = length(e.getValue());
      size += varintSize(nameLength) + nameLength + varintSize(valueLength) + valueLength;
    }
    if (size > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("a record of " + size + " bytes does not fit in one array");
    }
    byte[] out = array((int) size, reused);
    int pos = putVarint(out, 0, n);
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      pos = putName(out, pos, e.getKey());
      int valueLength = length(e.getValue());
      pos = putVarint(out, pos, valueLength);
      putValue(e.getValue(), out, pos, valueLength);
      pos += valueLength;
    }
    if (pos != out.length) { // an iterator whose bytesLeft() changed between the two passes
      throw new IllegalStateException("the record's fields changed size while it was encoded");
    }
    return out;
  }

  private static byte[] array(int size, byte[][] reused) {
    if (reused == null) {
      return new byte[size];
    }
    if (reused[0] == null || reused[0].length != size) {
      reused[0] = new byte[size];
    }
    return reused[0];
  }

  /** The value's length, as {@link ByteIterator#toArray} takes it. */
  private static int length(ByteIterator v) {
    long left = v.bytesLeft();
    if (left != (int) left) {
      throw new ArrayIndexOutOfBoundsException("Too much data to fit in one array!");
    }
    return (int) left;
  }

  /**
   * Writes the iterator's {@code length} bytes at {@code pos}, the bytes {@link ByteIterator#toArray} would return:
   * YCSB's random values and handed-over arrays through their own bulk copy (which their toArray uses too; a random
   * value may write up to five bytes past its end, which the caller writes over or leaves beyond the record), any
   * other value byte by byte.
   */
  private static void putValue(ByteIterator v, byte[] out, int pos, int length) {
    int end = pos + length;
    if (v instanceof RandomByteIterator || v instanceof HandedOverBytes) {
      for (int at = pos; at < end; ) {
        int next = v.nextBuf(out, at);
        if (next <= at) {
          throw new IllegalStateException("the value ended " + (end - at) + " bytes before its length");
        }
        at = next;
      }
      return;
    }
    for (int at = pos; at < end; at++) {
      out[at] = v.nextByte();
    }
  }

  /** The bytes of {@code name} in UTF-8, as {@code getBytes(UTF_8)} makes them. */
  private static int utf8Length(String name) {
    int n = name.length();
    for (int i = 0; i < n; i++) {
      if (name.charAt(i) > 0x7F) {
        return name.getBytes(StandardCharsets.UTF_8).length;
      }
    }
    return n;
  }

  /** Writes the name's length and UTF-8 bytes at {@code pos}; returns the position after them. */
  private static int putName(byte[] out, int pos, String name) {
    int n = name.length();
    for (int i = 0; i < n; i++) {
      if (name.charAt(i) > 0x7F) {
        return putBytes(out, pos, name.getBytes(StandardCharsets.UTF_8));
      }
    }
    pos = putVarint(out, pos, n);
    for (int i = 0; i < n; i++) {
      out[pos + i] = (byte) name.charAt(i);
    }
    return pos + n;
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
    return merge(stored, updates, null);
  }

  /** {@link #merge}, in {@code reused[0]} when the merged record is exactly its length (see {@link #encode}). */
  public byte[] merge(byte[] stored, Map<String, ByteIterator> updates, byte[][] reused) {
    if (bareField != null) {
      return encode(updates, reused);
    }
    java.util.LinkedHashMap<String, ByteIterator> merged = new java.util.LinkedHashMap<>();
    decode(stored, null, merged);
    merged.putAll(updates);
    return encode(merged, reused);
  }

  private ByteIterator bareValue(Map<String, ByteIterator> values) {
    ByteIterator v = values.size() == 1 ? values.get(bareField) : null;
    if (v == null) {
      throw new IllegalArgumentException("the bare record layout stores exactly one field named '"
          + bareField + "', got " + values.keySet()
          + "; use fieldcount=1 or the fields layout (recordlayout=fields)");
    }
    return v;
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
