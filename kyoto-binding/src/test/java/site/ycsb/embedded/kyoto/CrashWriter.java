package site.ycsb.embedded.kyoto;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FileReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import site.ycsb.ByteIterator;
import site.ycsb.StringByteIterator;
import site.ycsb.Status;

/**
 * The writer of {@link KyotoCrashTest}, in a JVM of its own that the test kills with SIGKILL.
 * Arguments: properties file, round tag. Inserts {@link #key}(tag, 0), (tag, 1), ... through
 * {@link KyotoClient} until killed, and prints each key on stdout once its insert returned OK (a
 * batched insert once the insert that applied its batch returned OK), one write(2) per line, so
 * every printed key was acknowledged and no line is ever cut in half.
 */
public final class CrashWriter {

  private CrashWriter() {
  }

  /** The i-th key of a round: a permutation of 0..10^8-1, so inserts land all over the tree. */
  static String key(String tag, long i) {
    return String.format("%s-%08d", tag, (i * 2_654_435_761L) % 100_000_000L);
  }

  /** The value stored under a key: derived from the key, about 100 bytes, different for every key. */
  static String value(String key) {
    StringBuilder sb = new StringBuilder();
    while (sb.length() < 100) {
      sb.append(key).append('/').append(sb.length()).append(';');
    }
    return sb.toString();
  }

  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    try (Reader r = new FileReader(args[0], StandardCharsets.UTF_8)) {
      p.load(r);
    }
    String tag = args[1];
    KyotoClient db = new KyotoClient();
    db.setProperties(p);
    db.init();
    FileOutputStream out = new FileOutputStream(FileDescriptor.out);
    List<String> waiting = new ArrayList<>();
    for (long i = 0; ; i++) {
      String k = key(tag, i);
      Map<String, ByteIterator> record = Map.of("field0", new StringByteIterator(value(k)));
      Status s = db.insert("usertable", k, record);
      if (s == Status.BATCHED_OK) {
        waiting.add(k);
        continue;
      }
      if (!s.isOk()) {
        System.err.println("insert " + k + " failed: " + s);
        System.exit(4);
      }
      waiting.add(k);
      StringBuilder lines = new StringBuilder();
      for (String w : waiting) {
        lines.append(w).append('\n');
      }
      waiting.clear();
      out.write(lines.toString().getBytes(StandardCharsets.US_ASCII));
    }
  }
}
