package site.ycsb.embedded.crash;

import java.io.FileReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;

/**
 * What the crash writer and verifier share: the command line, the binding they load by class
 * name, and the records, whose value is a function of the key so that the verifier can check
 * every byte without the writer telling it anything but the key.
 */
final class CrashRecords {

  /** The table YCSB's workloads use; the bindings ignore it. */
  static final String TABLE = "usertable";
  /** The one field of every record. */
  static final String FIELD = "field0";
  /** Bytes of the value when {@code -valuesize} is not given: a few hundred, like YCSB's own rows. */
  static final int DEFAULT_VALUE_SIZE = 300;

  final String bindingClass;
  final Properties props;
  final int valueSize;
  final long records;
  final String ackedFile;

  private CrashRecords(String bindingClass, Properties props, int valueSize, long records, String ackedFile) {
    this.bindingClass = bindingClass;
    this.props = props;
    this.valueSize = valueSize;
    this.records = records;
    this.ackedFile = ackedFile;
  }

  /** A wrong command line: the message is printed with the usage. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /**
   * Parses {@code -db CLASS [-P file]... [-p name=value]... [-valuesize B] [-records N] [-acked FILE]}.
   * One record field and the bare layout unless the properties say otherwise.
   */
  static CrashRecords parse(String[] args) throws UsageException, IOException {
    String db = null;
    Properties props = new Properties();
    props.setProperty("fieldcount", "1");
    int valueSize = DEFAULT_VALUE_SIZE;
    long records = Long.MAX_VALUE;
    String acked = null;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      if (i + 1 >= args.length) {
        throw new UsageException("option " + option + " needs a value");
      }
      String value = args[++i];
      switch (option) {
        case "-db" -> db = value;
        case "-P" -> {
          try (Reader r = new FileReader(value, StandardCharsets.UTF_8)) {
            props.load(r);
          }
        }
        case "-p" -> {
          int eq = value.indexOf('=');
          if (eq <= 0) {
            throw new UsageException("-p takes name=value, got '" + value + "'");
          }
          props.setProperty(value.substring(0, eq), value.substring(eq + 1));
        }
        case "-valuesize" -> valueSize = positive(option, value);
        case "-records" -> records = positive(option, value);
        case "-acked" -> acked = value;
        default -> throw new UsageException("unknown option " + option);
      }
    }
    if (db == null) {
      throw new UsageException("-db CLASS (the binding) is required");
    }
    return new CrashRecords(db, props, valueSize, records, acked);
  }

  private static int positive(String option, String value) throws UsageException {
    try {
      int n = Integer.parseInt(value);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(option + " takes a positive number, got '" + value + "'");
  }

  /** A new instance of the binding with the properties set, not yet initialised. */
  DB newBinding() throws ReflectiveOperationException {
    DB db = (DB) Class.forName(bindingClass).getDeclaredConstructor().newInstance();
    db.setProperties(props);
    return db;
  }

  /** The n-th key: YCSB's hashed key names, so that the writes land all over the key space. */
  static String key(long n) {
    return "user" + Long.toUnsignedString(fnv64(n));
  }

  /** The value stored under {@code key}: the key, then printable bytes drawn from the key's hash. */
  static byte[] value(String key, int size) {
    byte[] out = new byte[size];
    byte[] k = key.getBytes(StandardCharsets.ISO_8859_1);
    long state = fnv64(k);
    for (int i = 0; i < size; i++) {
      if (i < k.length) {
        out[i] = k[i];
        continue;
      }
      state ^= state << 13;       // xorshift64: cheap, deterministic, and never stuck at zero
      state ^= state >>> 7;
      state ^= state << 17;
      out[i] = (byte) (' ' + 1 + Long.remainderUnsigned(state, 94));
    }
    return out;
  }

  /** The field map YCSB would hand to insert for {@code key}. */
  static Map<String, ByteIterator> fields(String key, int size) {
    Map<String, ByteIterator> values = new TreeMap<>();
    values.put(FIELD, new ByteArrayByteIterator(value(key, size)));
    return values;
  }

  private static final long FNV_OFFSET = 0xCBF29CE484222325L;
  private static final long FNV_PRIME = 0x100000001B3L;

  private static long fnv64(long n) {
    long hash = FNV_OFFSET;
    for (int i = 0; i < 8; i++) {
      hash ^= (n >>> (8 * i)) & 0xFF;
      hash *= FNV_PRIME;
    }
    return hash == 0 ? 1 : hash;
  }

  private static long fnv64(byte[] bytes) {
    long hash = FNV_OFFSET;
    for (byte b : bytes) {
      hash ^= b & 0xFF;
      hash *= FNV_PRIME;
    }
    return hash == 0 ? 1 : hash;
  }
}
