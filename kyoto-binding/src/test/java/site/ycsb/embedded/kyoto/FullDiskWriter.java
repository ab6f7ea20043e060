package site.ycsb.embedded.kyoto;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import site.ycsb.ByteIterator;
import site.ycsb.StringByteIterator;
import site.ycsb.Status;

/**
 * The writer of {@link KyotoFullDiskTest}'s second case, in a JVM of its own with the free-space guard off.
 * Arguments: database directory, the path of the file the test fills the disk with. Inserts records of
 * about 1000 bytes through {@link KyotoClient} and prints each key once its insert returned OK, until an
 * insert returns ERROR; then deletes the filling file (the other process frees its room) and inserts once
 * more. After a transaction that could not be ended, Kyoto would wait for ever in the next one's begin: that
 * insert must be answered (OK, or ERROR from the handle that refuses calls), within {@link #ANSWER_SECONDS}.
 * Then closes, reopens and reads every acknowledged key back. Prints "second=STATUS", "lost=N" and
 * "wrong=N" on stderr. Exit 0; 5 when the insert after the room came back was not answered.
 */
public final class FullDiskWriter {

  /** How long the insert after the room came back may take before it counts as waiting for ever. */
  static final int ANSWER_SECONDS = 20;

  private FullDiskWriter() {
  }

  static String key(long i) {
    return String.format("k%08d", (i * 2_654_435_761L) % 100_000_000L);
  }

  static String value(String key) {
    StringBuilder sb = new StringBuilder();
    while (sb.length() < 1000) {
      sb.append(key).append('/').append(sb.length()).append(';');
    }
    return sb.toString();
  }

  private static KyotoClient open(String dir) throws Exception {
    Properties p = new Properties();
    p.setProperty("path", dir);
    p.setProperty("diskspacemargin", "0");
    p.setProperty("verbose", "true"); // the notes on the write mode and the preload, which the test reads
    KyotoClient db = new KyotoClient();
    db.setProperties(p);
    db.init();
    return db;
  }

  private static Status insert(KyotoClient db, String k) {
    return db.insert("usertable", k, Map.of("field0", new StringByteIterator(value(k))));
  }

  public static void main(String[] args) throws Exception {
    FileOutputStream out = new FileOutputStream(FileDescriptor.out);
    List<String> acked = new ArrayList<>();
    KyotoClient db = open(args[0]);
    long i = 0;
    while (insert(db, key(i)).isOk()) {
      acked.add(key(i));
      out.write((key(i) + "\n").getBytes(StandardCharsets.US_ASCII));
      i++;
    }
    System.err.println("full-disk-writer: insert " + i + " returned ERROR after " + acked.size() + " acknowledged");
    Files.deleteIfExists(Path.of(args[1]));
    Thread watchdog = new Thread(() -> {
      try {
        Thread.sleep(ANSWER_SECONDS * 1000L);
      } catch (InterruptedException e) {
        return;
      }
      System.err.println("full-disk-writer: the insert after the room came back waits for ever");
      Runtime.getRuntime().halt(5);
    });
    watchdog.setDaemon(true);
    watchdog.start();
    String again = key(++i);
    Status second = insert(db, again);
    watchdog.interrupt();
    System.err.println("second=" + second.getName());
    if (second.isOk()) {
      acked.add(again);
    }
    try {
      db.cleanup();
    } catch (Exception e) {
      System.err.println("full-disk-writer: close failed: " + e.getMessage());
    }
    KyotoClient reopened = open(args[0]);
    long lost = 0;
    long wrong = 0;
    for (String k : acked) {
      Map<String, ByteIterator> row = new HashMap<>();
      Status s = reopened.read("usertable", k, null, row);
      if (!s.isOk()) {
        lost++;
      } else if (!value(k).equals(row.get("field0").toString())) {
        wrong++;
      }
    }
    reopened.cleanup();
    System.err.println("lost=" + lost);
    System.err.println("wrong=" + wrong);
  }
}
