package site.ycsb.embedded;

import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * YCSB passes keys as Strings; engines store bytes. One encoding per run, chosen from the
 * properties, turns every key into bytes, and each encoding is injective: two different keys are
 * never the same bytes, and a key the encoding cannot represent is refused, never replaced.
 *
 * <ul>
 *   <li>{@link #UTF8} (the default): strict UTF-8; a lone surrogate cannot be encoded.
 *   <li>{@link #LATIN1} (the default with {@code keyformat=binary}): one byte per character, so
 *       the 8-byte big-endian binary keys stay 8 bytes in key order; a character above U+00FF
 *       cannot be encoded.
 * </ul>
 * An ASCII key is the same bytes in both encodings.
 */
public final class Keys {

  /** Key encoding: auto (latin1 when keyformat=binary, else utf8), utf8 or latin1. */
  public static final String ENCODING = "keyencoding";
  public static final String ENCODING_DEFAULT = "auto";

  /** Strict UTF-8. */
  public static final Keys UTF8 = new Keys("utf8", false);
  /** One byte per character, U+0000 to U+00FF. */
  public static final Keys LATIN1 = new Keys("latin1", true);

  /** Characters of a key quoted in an error message; the rest is cut. */
  private static final int QUOTED_CHARS = 100;

  private final String name;
  private final boolean latin1;

  private Keys(String name, boolean latin1) {
    this.name = name;
    this.latin1 = latin1;
  }

  /** The encoding the properties ask for ({@link #ENCODING}, else from {@code keyformat}). */
  public static Keys fromProperties(EngineProperties props, Properties raw) {
    String chosen = props.choice(ENCODING, ENCODING_DEFAULT, "auto", "utf8", "latin1");
    if (chosen.equals("auto")) {
      chosen = raw.getProperty("keyformat", "ycsb").trim().equalsIgnoreCase("binary") ? "latin1" : "utf8";
    }
    return chosen.equals("latin1") ? LATIN1 : UTF8;
  }

  /** "utf8" or "latin1". */
  public String name() {
    return name;
  }

  /**
   * The key's bytes in this encoding.
   *
   * @throws UnencodableKeyException naming the key and the encoding when it cannot be encoded
   */
  public byte[] bytes(String key) {
    return latin1 ? latin1Bytes(key) : utf8Bytes(key);
  }

  /**
   * The key's bytes as {@link #bytes} gives them, in {@code reused[length]} when the key is one byte per char and
   * shorter than {@code reused.length} (that array made on first use and written over by the next key of the same
   * length), else in a new array: one array per key length for a client thread's keys, none per operation.
   *
   * @throws UnencodableKeyException naming the key and the encoding when it cannot be encoded
   */
  public byte[] bytes(String key, byte[][] reused) {
    int n = key.length();
    if (n >= reused.length) {
      return bytes(key);
    }
    byte[] out = reused[n];
    if (out == null) {
      out = reused[n] = new byte[n];
    }
    char limit = latin1 ? (char) 0xFF : (char) 0x7F;
    for (int i = 0; i < n; i++) {
      char c = key.charAt(i);
      if (c > limit) {
        return bytes(key); // refused, or UTF-8 longer than the key: a new array as before
      }
      out[i] = (byte) c;
    }
    return out;
  }

  /** ASCII (every YCSB key): one byte per char, one compare each; any other char goes to {@link #nonAscii}. */
  private static byte[] utf8Bytes(String key) {
    int n = key.length();
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      char c = key.charAt(i);
      if (c > 0x7F) {
        return nonAscii(key, i);
      }
      out[i] = (byte) c;
    }
    return out;
  }

  private static byte[] latin1Bytes(String key) {
    int n = key.length();
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      char c = key.charAt(i);
      if (c > 0xFF) {
        return LATIN1.refuse(key, i, "is above U+00FF");
      }
      out[i] = (byte) c;
    }
    return out;
  }

  /** The key that {@link #bytes} turned into {@code key}. */
  public String string(byte[] key) {
    return new String(key, latin1 ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return name;
  }

  /** A key with a character outside ASCII: UTF-8 once no lone surrogate is found from {@code from} on. */
  private static byte[] nonAscii(String key, int from) {
    int n = key.length();
    for (int i = from; i < n; i++) {
      char c = key.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(key.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return UTF8.refuse(key, i, "is a lone surrogate");
      }
    }
    // Every char is a scalar value or a surrogate pair: getBytes replaces nothing here.
    return key.getBytes(StandardCharsets.UTF_8);
  }

  private byte[] refuse(String key, int index, String why) {
    throw new UnencodableKeyException("key \"" + escape(key) + "\" cannot be stored in key encoding " + name
        + ": the character " + String.format("U+%04X", (int) key.charAt(index)) + " at index " + index + " " + why
        + (latin1 ? " (" + ENCODING + "=utf8 stores any well-formed key)" : ""));
  }

  /** The key with every character outside printable ASCII (and the quote and backslash) as a \\uXXXX escape. */
  public static String escape(String key) {
    StringBuilder sb = new StringBuilder();
    int n = Math.min(key.length(), QUOTED_CHARS);
    for (int i = 0; i < n; i++) {
      char c = key.charAt(i);
      if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
        sb.append(c);
      } else {
        sb.append(String.format("\\u%04X", (int) c));
      }
    }
    return key.length() > n ? sb.append("... (").append(key.length()).append(" chars)").toString() : sb.toString();
  }

  /** A key that the run's key encoding cannot represent; the operation is an ERROR. */
  public static final class UnencodableKeyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UnencodableKeyException(String message) {
      super(message);
    }
  }
}
