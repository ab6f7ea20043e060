package site.ycsb.embedded.leveldb;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A test main run in a JVM of its own by {@link LevelDbFullDiskTest}, since the old failure was a SIGBUS
 * that kills the JVM: keeps {@code ballast} bytes of the disk in a file, inserts 1000-byte records through
 * {@link LevelDbClient} (with the given properties) printing each key once it returned OK, until an insert
 * does not; then deletes the ballast, so that the disk has room again, tries one more insert, prints
 * {@code after=STATUS}, and closes, printing {@code close=OK} or {@code close=FAILED} and the exception.
 * {@code writer.keepfull=true} keeps the ballast (the disk stays full through the close);
 * {@code writer.checkbeforeflush=false} makes the close start its flush without first checking the room
 * and LevelDB's LOG ({@link JniLevelDb#checkBeforeFlush}), as when another process takes the room after
 * the checks.
 *
 * <p>Usage: FullDiskWriter BALLAST_FILE BALLAST_BYTES name=value...
 */
public final class FullDiskWriter {

  /** Bytes of every record's value. */
  static final int VALUE_SIZE = 1000;

  private FullDiskWriter() {
  }

  /** The value stored under {@code key}: the key repeated, so a reader can check every byte. */
  static byte[] value(String key) {
    byte[] k = key.getBytes(StandardCharsets.US_ASCII);
    byte[] v = new byte[VALUE_SIZE];
    for (int i = 0; i < v.length; i++) {
      v[i] = k[i % k.length];
    }
    return v;
  }

  public static void main(String[] args) throws IOException, DBException {
    Path ballast = Path.of(args[0]);
    Files.write(ballast, new byte[Integer.parseInt(args[1])]);
    Properties props = new Properties();
    props.setProperty("fieldcount", "1");
    for (int i = 2; i < args.length; i++) {
      String[] nv = args[i].split("=", 2);
      props.setProperty(nv[0], nv[1]);
    }
    boolean keepFull = Boolean.parseBoolean((String) props.remove("writer.keepfull"));
    JniLevelDb.checkBeforeFlush = !"false".equals(props.remove("writer.checkbeforeflush"));
    LevelDbClient db = new LevelDbClient();
    db.setProperties(props);
    db.init();
    OutputStream out = new FileOutputStream(FileDescriptor.out);
    for (long n = 0; ; n++) {
      String key = String.format("full%09d", n);
      if (!Status.OK.equals(insert(db, key))) {
        break;
      }
      out.write((key + "\n").getBytes(StandardCharsets.US_ASCII));
    }
    if (!keepFull) {
      Files.delete(ballast);
    }
    out.write(("after=" + insert(db, "after-the-disk-has-room").getName() + "\n").getBytes(StandardCharsets.US_ASCII));
    String closed = "close=OK";
    try {
      db.cleanup();
    } catch (DBException e) {
      e.printStackTrace();
      closed = "close=FAILED";
    }
    out.write((closed + "\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static Status insert(LevelDbClient db, String key) {
    Map<String, ByteIterator> rec = Map.of("field0", new ByteArrayByteIterator(value(key)));
    return db.insert("usertable", key, rec);
  }
}
