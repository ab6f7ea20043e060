package site.ycsb.embedded.workload;

import java.util.Locale;

/**
 * How a key number becomes a key. Fixed-length formats keep byte order equal to numeric
 * order, so that a sequential load writes keys in the engine's order and a scan from key
 * number n returns n, n+1, ...
 */
public abstract class KeyFormat {

  /** The key for {@code keynum}. */
  public abstract String key(long keynum);

  /** A short description for the start-up line. */
  public abstract String describe();

  /**
   * db_bench's keys: the number in decimal, zero-padded to {@code length} bytes
   * ({@code %016d} for 16; longer than 19, the leading bytes are zeros, as mixgraph's 48-byte keys).
   */
  public static KeyFormat decimal(int length) {
    if (length < 1 || length > 1024) {
      throw new IllegalArgumentException("decimal keys are 1 to 1024 digits, got " + length);
    }
    return new KeyFormat() {
      @Override
      public String key(long keynum) {
        char[] c = new char[length];
        long v = keynum;
        for (int i = length - 1; i >= 0; i--) {
          c[i] = (char) ('0' + (v % 10));
          v /= 10;
        }
        if (v != 0 || keynum < 0) {
          throw new IllegalArgumentException("key number " + keynum + " does not fit in " + length + " digits");
        }
        return new String(c);
      }

      @Override
      public String describe() {
        return length + "-byte decimal keys";
      }
    };
  }

  /** 8-byte big-endian binary keys: byte order is numeric order for non-negative numbers. */
  public static KeyFormat binary() {
    return new KeyFormat() {
      @Override
      public String key(long keynum) {
        char[] c = new char[8];
        for (int i = 7; i >= 0; i--) {
          c[i] = (char) (keynum & 0xFF);
          keynum >>>= 8;
        }
        return new String(c);
      }

      @Override
      public String describe() {
        return "8-byte binary big-endian keys";
      }
    };
  }

  /**
   * YCSB core's keys ({@code "user" + number}), rebuilt here rather than calling core's
   * key-name method, whose signature differs between YCSB versions.
   */
  public static KeyFormat ycsb(boolean ordered, int zeropadding) {
    return new KeyFormat() {
      @Override
      public String key(long keynum) {
        long n = ordered ? keynum : site.ycsb.Utils.hash(keynum);
        String value = Long.toString(n);
        StringBuilder sb = new StringBuilder(4 + Math.max(zeropadding, value.length())).append("user");
        for (int i = value.length(); i < zeropadding; i++) {
          sb.append('0');
        }
        return sb.append(value).toString();
      }

      @Override
      public String describe() {
        return String.format(Locale.ROOT, "YCSB keys (user + %s number, zero padding %d)",
            ordered ? "ordered" : "hashed", zeropadding);
      }
    };
  }
}
