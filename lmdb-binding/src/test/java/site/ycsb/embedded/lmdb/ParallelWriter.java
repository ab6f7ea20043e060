package site.ycsb.embedded.lmdb;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.Status;

/**
 * A test main: inserts records through {@link LmdbClient} from several client threads at once, and prints each
 * key on stdout once its insert returned OK (one write(2) a key). Arguments: {@code THREADS VALUE_BYTES
 * RECORDS_PER_THREAD GO_FILE name=value...}. One record is inserted first, "ready" is printed on stderr, and the
 * threads start once {@code GO_FILE} exists (so that a test can start a reader of another process in between).
 * A thread stops at its first insert that is not OK. Exit status: 0 every insert OK, 1 some returned ERROR.
 */
public final class ParallelWriter {

  private ParallelWriter() {
  }

  /** The value stored under {@code key}: {@code bytes} bytes drawn from the key. */
  static byte[] value(String key, int bytes) {
    byte[] v = new byte[bytes];
    new Random(key.hashCode()).nextBytes(v);
    return v;
  }

  public static void main(String[] args) throws Exception {
    int threads = Integer.parseInt(args[0]);
    int valueBytes = Integer.parseInt(args[1]);
    int records = Integer.parseInt(args[2]);
    Path go = Path.of(args[3]);
    Properties p = new Properties();
    p.setProperty("fieldcount", "1");
    p.setProperty("threadcount", Integer.toString(threads + 1));
    for (int i = 4; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      p.setProperty(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    FileOutputStream out = new FileOutputStream(FileDescriptor.out);
    LmdbClient first = new LmdbClient();
    first.setProperties(p);
    first.init();
    AtomicInteger failed = new AtomicInteger();
    insert(first, "first", valueBytes, out, failed);
    System.err.println("ready");
    while (!Files.exists(go)) {
      Thread.sleep(10);
    }
    List<Thread> running = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      String prefix = "t" + t + "-";
      LmdbClient db = new LmdbClient();
      db.setProperties(p);
      db.init();
      Thread thread = new Thread(() -> {
        try {
          for (int n = 0; n < records && insert(db, prefix + n, valueBytes, out, failed); n++) {
            continue;
          }
          db.cleanup();
        } catch (Exception e) {
          failed.incrementAndGet();
          e.printStackTrace();
        }
      });
      thread.start();
      running.add(thread);
    }
    for (Thread thread : running) {
      thread.join();
    }
    first.cleanup();
    System.exit(failed.get() == 0 ? 0 : 1);
  }

  /** Inserts one record; prints its key when the insert returned OK. */
  private static boolean insert(LmdbClient db, String key, int valueBytes, FileOutputStream out, AtomicInteger failed)
      throws IOException {
    Status s = db.insert("usertable", key, Map.of("field0", new ByteArrayByteIterator(value(key, valueBytes))));
    if (s != Status.OK) {
      failed.incrementAndGet();
      System.err.println("insert of " + key + " returned " + s);
      return false;
    }
    synchronized (out) {
      out.write((key + "\n").getBytes(StandardCharsets.US_ASCII));
    }
    return true;
  }
}
