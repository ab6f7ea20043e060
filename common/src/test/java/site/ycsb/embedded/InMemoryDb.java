package site.ycsb.embedded;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * A KeyValueDB on a map in memory, for tests of what KeyValueDB does around any engine. With
 * {@code memory.failwrites=true} every write throws, as an engine on a broken disk would.
 */
public class InMemoryDb extends KeyValueDB<TreeMap<String, byte[]>> {

  /** Every put and remove throws: to see how failed operations are reported. */
  public static final String FAIL_WRITES = "memory.failwrites";

  private boolean failWrites;

  @Override
  protected EngineFacts facts() {
    return EngineFacts.of("memory", null); // its property names: this class's
  }

  @Override
  protected EngineOpener<TreeMap<String, byte[]>> configure(EngineProperties props, Path dir) {
    failWrites = props.bool(FAIL_WRITES, false);
    return new EngineOpener<>() {
      @Override
      public TreeMap<String, byte[]> open() {
        return new TreeMap<>();
      }

      @Override
      public void close(TreeMap<String, byte[]> handle) {
      }

      @Override
      public String describe(TreeMap<String, byte[]> handle) {
        return "a map in memory";
      }
    };
  }

  private void write() throws java.io.IOException {
    if (failWrites) {
      throw new java.io.IOException("memory.failwrites=true: this engine fails every write");
    }
  }

  @Override
  protected byte[] get(TreeMap<String, byte[]> db, byte[] key) {
    synchronized (db) {
      return db.get(new String(key, java.nio.charset.StandardCharsets.ISO_8859_1));
    }
  }

  @Override
  protected void put(TreeMap<String, byte[]> db, byte[] key, byte[] value) throws java.io.IOException {
    write();
    synchronized (db) {
      db.put(new String(key, java.nio.charset.StandardCharsets.ISO_8859_1), value.clone()); // the client reuses it
    }
  }

  @Override
  protected boolean remove(TreeMap<String, byte[]> db, byte[] key) throws java.io.IOException {
    write();
    synchronized (db) {
      return db.remove(new String(key, java.nio.charset.StandardCharsets.ISO_8859_1)) != null;
    }
  }

  @Override
  protected void scan(TreeMap<String, byte[]> db, byte[] start, int count, ValueSink sink) {
    synchronized (db) {
      int n = 0;
      for (Map.Entry<String, byte[]> e
          : db.tailMap(new String(start, java.nio.charset.StandardCharsets.ISO_8859_1)).entrySet()) {
        if (n++ == count) {
          return;
        }
        sink.accept(e.getValue());
      }
    }
  }

  @Override
  protected void applyBatch(TreeMap<String, byte[]> db, byte[][] keys, byte[][] values, int count)
      throws java.io.IOException {
    for (int i = 0; i < count; i++) {
      put(db, keys[i], values[i]);
    }
  }
}
