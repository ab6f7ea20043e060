package site.ycsb.embedded.workload;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * A key-value trace read one line at a time (never more than one line and the stream's buffers in memory),
 * plain or gzip (told by the first two bytes, 1f 8b). Two formats:
 * <ul>
 *   <li>{@code twitter}: the public Twitter cache traces (twitter/cache-trace), one request a line,
 *       {@code timestamp,anonymized key,key size,value size,client id,operation,TTL}, timestamp in seconds.
 *       A key holding commas still parses: the key is everything between the first field and the last five.</li>
 *   <li>{@code kvtrace}: the project's own, a header line naming the columns ({@code time,key,keysize,valuesize,op}
 *       in any order; {@code key} and {@code op} required), comma- or tab-separated (a tab in the header makes it
 *       tab), time in seconds (decimals allowed).</li>
 * </ul>
 * Blank lines and lines starting with {@code #} are skipped in both. Bytes are read as ISO-8859-1, one char a
 * byte, so that every distinct byte string stays a distinct key.
 */
final class TraceFile implements Closeable {

  /** One operation of the trace. */
  static final class Line {
    long number;
    double time;
    String key;
    /** The trace's key size column, or the key's length when the format has none. */
    long keySize;
    long valueSize;
    /** The trace's operation name, lower case. */
    String op;
  }

  private static final int WARNINGS = 5;

  private final BufferedReader in;
  private final String format;
  private final char delimiter;
  private int timeColumn = -1;
  private int keyColumn = -1;
  private int keySizeColumn = -1;
  private int valueSizeColumn = -1;
  private int opColumn = -1;
  private int columns;
  private String pending;
  private long pendingNumber;
  private long number;
  private long malformed;

  private boolean compressed;

  private TraceFile(BufferedReader in, String format, char delimiter) {
    this.in = in;
    this.format = format;
    this.delimiter = delimiter;
  }

  /**
   * Opens {@code path} as {@code format} ({@code auto}, {@code twitter} or {@code kvtrace}); auto takes a first
   * line naming {@code key} and {@code op} for a kvtrace header, anything else for Twitter's.
   */
  static TraceFile open(Path path, String format) throws IOException {
    InputStream raw = new BufferedInputStream(Files.newInputStream(path), 1 << 16);
    try {
      raw.mark(4);
      byte[] magic = raw.readNBytes(4);
      raw.reset();
      InputStream data = raw;
      if (magic.length >= 2 && (magic[0] & 0xFF) == 0x1F && (magic[1] & 0xFF) == 0x8B) {
        data = new GZIPInputStream(raw, 1 << 16);
      } else if (magic.length == 4 && (magic[0] & 0xFF) == 0x28 && (magic[1] & 0xFF) == 0xB5
          && (magic[2] & 0xFF) == 0x2F && (magic[3] & 0xFF) == 0xFD) {
        throw new IllegalArgumentException(path + " is zstd-compressed (as the Twitter traces are published):"
            + " decompress it first (zstd -d), or recompress it with gzip");
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(data, StandardCharsets.ISO_8859_1), 1 << 16);
      TraceFile t = start(reader, path, format);
      t.compressed = data != raw;
      return t;
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
  }

  private static TraceFile start(BufferedReader reader, Path path, String format) throws IOException {
    long n = 0;
    String first;
    do {
      first = reader.readLine();
      n++;
    } while (first != null && skippable(first));
    if (first == null) {
      throw new IllegalArgumentException(path + " holds no trace line");
    }
    char delimiter = first.indexOf('\t') >= 0 ? '\t' : ',';
    String[] names = first.split(String.valueOf(delimiter), -1);
    boolean header = indexOf(names, "key") >= 0 && indexOf(names, "op") >= 0;
    if (format.equals("kvtrace") || (format.equals("auto") && header)) {
      if (!header) {
        throw new IllegalArgumentException(path + " line " + n + ": a kvtrace file starts with a header naming its"
            + " columns (time,key,keysize,valuesize,op; key and op required), found: " + cut(first));
      }
      TraceFile t = new TraceFile(reader, "kvtrace", delimiter);
      t.columns = names.length;
      t.timeColumn = indexOf(names, "time");
      t.keyColumn = indexOf(names, "key");
      t.keySizeColumn = indexOf(names, "keysize");
      t.valueSizeColumn = indexOf(names, "valuesize");
      t.opColumn = indexOf(names, "op");
      t.number = n;
      return t;
    }
    TraceFile t = new TraceFile(reader, "twitter", ',');
    if (t.parse(first, new Line()) == null) {
      throw new IllegalArgumentException(path + " line " + n + " is neither a kvtrace header (naming key and op)"
          + " nor a Twitter cache-trace line (timestamp,key,key size,value size,client id,operation,TTL): "
          + cut(first));
    }
    t.pending = first;
    t.pendingNumber = n;
    t.number = n;
    return t;
  }

  String format() {
    return format;
  }

  /** Whether the file is gzip-compressed. */
  boolean compressed() {
    return compressed;
  }

  /** Whether the lines carry a time (pacing needs it). */
  boolean timed() {
    return format.equals("twitter") || timeColumn >= 0;
  }

  /** Lines skipped as malformed so far (the first few are named on stderr). */
  long malformed() {
    return malformed;
  }

  /** Fills {@code into} with the next operation and returns it, or returns null at the end of the trace. */
  Line next(Line into) throws IOException {
    while (true) {
      String s;
      long n;
      if (pending != null) {
        s = pending;
        n = pendingNumber;
        pending = null;
      } else {
        s = in.readLine();
        n = ++number;
      }
      if (s == null) {
        return null;
      }
      if (skippable(s)) {
        continue;
      }
      into.number = n;
      if (parse(s, into) != null) {
        return into;
      }
      if (malformed++ < WARNINGS) {
        System.err.println("[trace] line " + n + " skipped, not a " + format + " line: " + cut(s));
      }
    }
  }

  private Line parse(String s, Line into) {
    try {
      if (format.equals("twitter")) {
        int c1 = s.indexOf(',');
        int[] last = new int[5];
        int end = s.length();
        for (int i = 4; i >= 0; i--) {
          end = s.lastIndexOf(',', end - 1);
          if (end <= c1) {
            return null;
          }
          last[i] = end;
        }
        into.time = Double.parseDouble(s.substring(0, c1));
        into.key = s.substring(c1 + 1, last[0]);
        into.keySize = Long.parseLong(s.substring(last[0] + 1, last[1]));
        into.valueSize = Long.parseLong(s.substring(last[1] + 1, last[2]));
        into.op = s.substring(last[3] + 1, last[4]).trim().toLowerCase(Locale.ROOT);
      } else {
        String[] f = s.split(String.valueOf(delimiter), -1);
        if (f.length != columns) {
          return null;
        }
        into.key = f[keyColumn];
        into.op = f[opColumn].trim().toLowerCase(Locale.ROOT);
        into.time = timeColumn >= 0 ? Double.parseDouble(f[timeColumn]) : 0;
        into.keySize = keySizeColumn >= 0 && !f[keySizeColumn].isBlank() ? Long.parseLong(f[keySizeColumn].trim())
            : into.key.length();
        into.valueSize = valueSizeColumn >= 0 && !f[valueSizeColumn].isBlank()
            ? Long.parseLong(f[valueSizeColumn].trim()) : 0;
      }
    } catch (NumberFormatException e) {
      return null;
    }
    // an empty key is no key: engines refuse it (LMDB), so the line is malformed rather than a failed operation
    return into.op.isEmpty() || into.key.isEmpty() || Double.isNaN(into.time) ? null : into;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  private static boolean skippable(String s) {
    return s.isBlank() || s.charAt(0) == '#';
  }

  private static int indexOf(String[] names, String name) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].trim().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  private static String cut(String s) {
    return s.length() <= 120 ? s : s.substring(0, 120) + "...";
  }
}
