package site.ycsb.embedded;

import java.nio.charset.StandardCharsets;

/**
 * YCSB passes keys as Strings; engines store bytes. A key whose characters are all below 256
 * (every YCSB key, and the 8-byte binary keys of {@code keyformat=binary}) maps one character
 * to one byte, so that binary keys keep their byte order; any other key is stored as UTF-8.
 */
public final class Keys {

  private Keys() {
  }

  public static byte[] bytes(String key) {
    int n = key.length();
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      char c = key.charAt(i);
      if (c > 0xFF) {
        return key.getBytes(StandardCharsets.UTF_8);
      }
      out[i] = (byte) c;
    }
    return out;
  }

  /** The inverse of {@link #bytes} for keys of one byte per character. */
  public static String string(byte[] key) {
    return new String(key, StandardCharsets.ISO_8859_1);
  }
}
