package site.ycsb.embedded.kyoto;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Vector;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.Status;

/**
 * Runs in a JVM of its own with a fixed, pre-touched heap (so that the heap cannot be what
 * grows): loads 1,000 records with 200-byte keys and 1,000-byte values, warms up, then runs
 * {@code ops} operations through the JNI layer on every path (hit, miss, scan, delete of a
 * missing key, update) and prints the resident set size before and after, in kB.
 * A leak of one key or value copy per call would add 200 MB to 1 GB per million calls.
 *
 * <p>Arguments: data directory, warm-up operations, measured operations.
 */
public final class RssProbe {

  private RssProbe() {
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int warmup = Integer.parseInt(args[1]);
    int ops = Integer.parseInt(args[2]);
    Properties p = new Properties();
    p.setProperty("path", dir.toString());
    p.setProperty("fieldcount", "1");
    KyotoClient db = new KyotoClient();
    db.setProperties(p);
    db.init();
    String[] keys = new String[1000];
    byte[] value = new byte[1000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = String.format("%0200d", i);
      value[i % value.length] = (byte) i;
      if (db.insert("usertable", keys[i], record(value)) != Status.OK) {
        throw new IllegalStateException("insert " + i);
      }
    }
    run(db, keys, value, warmup);
    long before = rssKb();
    long counted = run(db, keys, value, ops);
    long after = rssKb();
    db.cleanup();
    System.out.println("RSS " + before + " " + after + " " + counted);
  }

  private static Map<String, ByteIterator> record(byte[] value) {
    Map<String, ByteIterator> m = new HashMap<>();
    m.put("field0", new ByteArrayByteIterator(value));
    return m;
  }

  /** Runs n operations; returns how many hits came back with the right length. */
  private static long run(KyotoClient db, String[] keys, byte[] value, int n) {
    long hits = 0;
    Map<String, ByteIterator> row = new HashMap<>();
    for (int i = 0; i < n; i++) {
      String key = keys[i % keys.length];
      int kind = i % 100;
      Status s;
      if (kind == 0) {
        Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
        s = db.scan("usertable", key, 10, null, rows);
      } else if (kind <= 10) {
        s = db.read("usertable", key + "-missing", null, row) == Status.NOT_FOUND ? Status.OK : Status.ERROR;
      } else if (kind == 11) {
        s = db.delete("usertable", key + "-missing") == Status.NOT_FOUND ? Status.OK : Status.ERROR;
      } else if (kind == 12) {
        s = db.update("usertable", key, record(value));
      } else {
        row.clear();
        s = db.read("usertable", key, null, row);
        if (row.get("field0").bytesLeft() == value.length) {
          hits++;
        }
      }
      if (s != Status.OK) {
        throw new IllegalStateException("operation " + i + " (kind " + kind + ") returned " + s);
      }
    }
    return hits;
  }

  static long rssKb() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IOException("no VmRSS in /proc/self/status");
  }
}
