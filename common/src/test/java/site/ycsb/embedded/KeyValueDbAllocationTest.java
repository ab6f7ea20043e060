package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.ByteIterator;
import site.ycsb.RandomByteIterator;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * What KeyValueDB allocates around an engine call, counted by the JVM's per-thread allocation counter (a figure that
 * does not depend on a quiet machine): a client reuses its key and record arrays, so a read, an insert and a
 * read-merge-write update over an engine that allocates nothing allocate neither, and the records keep their bytes.
 */
class KeyValueDbAllocationTest {

  private static final int RECORDS = 1000;
  private static final int OPS = 20_000;
  private static final int VALUE_BYTES = 100;
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  @TempDir
  Path tmp;

  private SlotsDb db;

  /** An engine of {@link #RECORDS} preallocated slots, keyed by the number after "user": it allocates nothing. */
  static final class SlotsDb extends KeyValueDB<byte[][]> {
    @Override
    protected EngineFacts facts() {
      return EngineFacts.of("slots", null); // its property names: this class's
    }

    @Override
    protected EngineOpener<byte[][]> configure(EngineProperties props, Path dir) {
      return new EngineOpener<>() {
        @Override
        public byte[][] open() {
          return new byte[RECORDS][];
        }

        @Override
        public void close(byte[][] handle) {
        }

        @Override
        public String describe(byte[][] handle) {
          return "preallocated slots";
        }
      };
    }

    private static int slot(byte[] key) {
      int n = 0;
      for (int i = "user".length(); i < key.length; i++) {
        n = n * 10 + key[i] - '0';
      }
      return n;
    }

    @Override
    protected byte[] get(byte[][] slots, byte[] key) {
      int i = slot(key);
      return i < slots.length ? slots[i] : null;
    }

    @Override
    protected void put(byte[][] slots, byte[] key, byte[] value) {
      int i = slot(key);
      if (slots[i] == null || slots[i].length != value.length) {
        slots[i] = new byte[value.length];
      }
      System.arraycopy(value, 0, slots[i], 0, value.length); // a copy: the client reuses its arrays
    }

    @Override
    protected boolean remove(byte[][] slots, byte[] key) {
      return true;
    }

    @Override
    protected void scan(byte[][] slots, byte[] start, int count, ValueSink sink) {
    }

    @Override
    protected void applyBatch(byte[][] slots, byte[][] keys, byte[][] values, int count) {
      for (int i = 0; i < count; i++) {
        put(slots, keys[i], values[i]);
      }
    }
  }

  @AfterEach
  void close() throws Exception {
    if (db != null) {
      db.cleanup();
    }
  }

  private SlotsDb open() throws Exception {
    Properties p = new Properties();
    p.setProperty("path", tmp.resolve("db").toString());
    p.setProperty("fieldcount", "1");
    p.setProperty("diskspacemargin", "0");
    db = new SlotsDb();
    db.setProperties(p);
    db.init();
    return db;
  }

  private static String key(int i) {
    return "user" + (i % RECORDS);
  }

  private static String[] keys() {
    String[] keys = new String[OPS];
    for (int i = 0; i < OPS; i++) {
      keys[i] = key(i);
    }
    return keys;
  }

  /** One field of YCSB's random bytes per operation, made before the operations are counted. */
  private static List<Map<String, ByteIterator>> values() {
    List<Map<String, ByteIterator>> values = new ArrayList<>(OPS);
    for (int i = 0; i < OPS; i++) {
      Map<String, ByteIterator> m = new HashMap<>();
      m.put("field0", new RandomByteIterator(VALUE_BYTES));
      values.add(m);
    }
    return values;
  }

  /** The operation that rounds of {@link #OPS} run, their arguments made outside the count. */
  private interface Round {
    Status op(String key, Map<String, ByteIterator> values);
  }

  /** Bytes this thread allocated per operation in the last of six rounds (the first five let the JIT compile it). */
  private static double bytesPerOp(Round round) {
    String[] keys = keys();
    double perOp = 0;
    for (int r = 0; r < 6; r++) {
      List<Map<String, ByteIterator>> values = values();
      long before = THREADS.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < OPS; i++) {
        assertEquals(Status.OK, round.op(keys[i], values.get(i)));
      }
      perOp = (THREADS.getCurrentThreadAllocatedBytes() - before) / (double) OPS;
    }
    return perOp;
  }

  private static Map<String, ByteIterator> record(char c) {
    Map<String, ByteIterator> m = new HashMap<>();
    m.put("field0", new StringByteIterator(String.valueOf(c).repeat(VALUE_BYTES)));
    return m;
  }

  private static byte[] bytes(char c) {
    return String.valueOf(c).repeat(VALUE_BYTES).getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void anInsertAllocatesNoKeyOrRecordArrayAndEachRecordKeepsItsBytes() throws Exception {
    SlotsDb db = open();
    double perInsert = bytesPerOp((k, v) -> db.insert("usertable", k, v));
    assertTrue(perInsert < 32, perInsert + " bytes per insert; a key array and a 100-byte record are 144");
    assertEquals(Status.OK, db.insert("usertable", "user1", record('a')));
    assertEquals(Status.OK, db.insert("usertable", "user2", record('b'))); // the same arrays, written over
    assertArrayEquals(bytes('a'), db.storedBytes("user1"));
    assertArrayEquals(bytes('b'), db.storedBytes("user2"));
  }

  @Test
  void aReadAllocatesNoKeyArray() throws Exception {
    SlotsDb db = open();
    for (int i = 0; i < RECORDS; i++) {
      assertEquals(Status.OK, db.insert("usertable", key(i), record('r')));
    }
    Set<String> none = Set.of("field9"); // a field the record does not have: the result stays empty
    Map<String, ByteIterator> result = new HashMap<>();
    double perRead = bytesPerOp((k, v) -> db.read("usertable", k, none, result));
    assertTrue(result.isEmpty());
    assertTrue(perRead < 8, perRead + " bytes per read; a key array of 'user' and three digits is 24");
  }

  @Test
  void anUpdateAllocatesNoKeyOrRecordArrayNorAWriteAndMergesIntoTheRightRecord() throws Exception {
    SlotsDb db = open();
    for (int i = 0; i < RECORDS; i++) {
      assertEquals(Status.OK, db.insert("usertable", key(i), record('u')));
    }
    double perUpdate = bytesPerOp((k, v) -> db.update("usertable", k, v));
    assertTrue(perUpdate < 32, perUpdate + " bytes per update; a key array, a record and a write are 168");
    assertEquals(Status.OK, db.update("usertable", "user1", record('c')));
    assertEquals(Status.OK, db.update("usertable", "user2", record('d')));
    assertEquals(Status.NOT_FOUND, db.update("usertable", "user" + RECORDS, record('e')));
    assertArrayEquals(bytes('c'), db.storedBytes("user1"));
    assertArrayEquals(bytes('d'), db.storedBytes("user2"));
  }
}
