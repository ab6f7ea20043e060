package site.ycsb.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import site.ycsb.ByteIterator;
import site.ycsb.Status;

/**
 * An {@link InMemoryDb} that counts its operations per data directory (in this JVM), and with
 * {@code memory.files=true} also leaves one empty file per inserted key in the directory, so that a test in
 * another JVM can count the records a load wrote there, and with {@code memory.insertmillis=N} sleeps N ms in each
 * insert (a slow load): for the tests of the warm-up.
 */
public class CountingDb extends InMemoryDb {

  /** Operations per absolute data directory. */
  static final Map<Path, AtomicLong> OPERATIONS = new ConcurrentHashMap<>();
  /** Prefix of the files that stand for records. */
  static final String RECORD_FILE = "record-";

  private Path dir;
  private boolean files;
  private long insertMillis;

  @Override
  protected EngineOpener<TreeMap<String, byte[]>> configure(EngineProperties props, Path d) {
    dir = d.toAbsolutePath().normalize();
    files = props.bool("memory.files", false);
    insertMillis = props.integer("memory.insertmillis", 0L, 0L, 1_000L);
    return super.configure(props, d);
  }

  static long operations(Path d) {
    AtomicLong n = OPERATIONS.get(d.toAbsolutePath().normalize());
    return n == null ? 0 : n.get();
  }

  private void count() {
    OPERATIONS.computeIfAbsent(dir, k -> new AtomicLong()).incrementAndGet();
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    count();
    return super.read(table, key, fields, result);
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    count();
    return super.scan(table, startkey, recordcount, fields, result);
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    count();
    return super.update(table, key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    count();
    if (insertMillis > 0) {
      try {
        Thread.sleep(insertMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Status.ERROR;
      }
    }
    if (files) {
      try {
        Files.write(dir.resolve(RECORD_FILE + key), new byte[0]);
      } catch (IOException e) {
        return failed("insert", key, e);
      }
    }
    return super.insert(table, key, values);
  }

  @Override
  public Status delete(String table, String key) {
    count();
    return super.delete(table, key);
  }
}
