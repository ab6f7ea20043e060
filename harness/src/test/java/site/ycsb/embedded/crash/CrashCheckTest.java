package site.ycsb.embedded.crash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/** The writer's acknowledgements and the verifier's counts, on an in-memory binding. */
class CrashCheckTest {

  /** The "disk" of {@link MemoryDb}: survives instances, like files survive a JVM. */
  static final Map<String, byte[]> STORED = new ConcurrentHashMap<>();

  /**
   * A binding kept in {@link #STORED}. Properties: {@code batch=N} queues N-1 inserts (BATCHED_OK)
   * and applies them with the N-th; {@code refuse=true} fails init.
   */
  public static final class MemoryDb extends DB {
    private final Map<String, byte[]> queued = new HashMap<>();
    private int batch;

    @Override
    public void init() throws DBException {
      if (Boolean.parseBoolean(getProperties().getProperty("refuse", "false"))) {
        throw new DBException("[memory] cannot open: not a database");
      }
      batch = Integer.parseInt(getProperties().getProperty("batch", "1"));
    }

    @Override
    public void cleanup() {
      STORED.putAll(queued);
      queued.clear();
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      byte[] v = STORED.get(key);
      if (v == null) {
        return Status.NOT_FOUND;
      }
      result.put(CrashRecords.FIELD, new ByteArrayByteIterator(v));
      return Status.OK;
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
      queued.put(key, values.get(CrashRecords.FIELD).toArray());
      if (queued.size() < batch) {
        return Status.BATCHED_OK;
      }
      cleanup();
      return Status.OK;
    }

    @Override
    public Status scan(String t, String k, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
      return Status.NOT_IMPLEMENTED;
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
      return Status.NOT_IMPLEMENTED;
    }

    @Override
    public Status delete(String table, String key) {
      return Status.NOT_IMPLEMENTED;
    }
  }

  @BeforeEach
  void empty() {
    STORED.clear();
  }

  private static CrashRecords records(String... extra) throws Exception {
    String[] base = {"-db", MemoryDb.class.getName(), "-valuesize", "64"};
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return CrashRecords.parse(args);
  }

  private static List<String> written(ByteArrayOutputStream out) {
    return CrashVerifier.ackedKeys(out.toByteArray());
  }

  @Test
  void valuesAreAFunctionOfTheKeyAndStartWithIt() {
    byte[] a = CrashRecords.value("user1", 300);
    assertEquals(300, a.length);
    assertArrayEquals(a, CrashRecords.value("user1", 300));
    assertEquals("user1", new String(a, 0, 5, StandardCharsets.ISO_8859_1));
    assertFalse(java.util.Arrays.equals(a, CrashRecords.value("user2", 300)));
    for (byte b : a) {
      assertTrue(b > ' ' && b < 127, "printable: " + b);
    }
    assertNotEquals(CrashRecords.key(0), CrashRecords.key(1));
    assertEquals(CrashRecords.key(7), CrashRecords.key(7));
  }

  @Test
  void writerPrintsEveryKeyItWroteAndTheVerifierFindsThemAll() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, CrashWriter.write(records("-records", "50"), out));
    List<String> keys = written(out);
    assertEquals(50, keys.size());
    assertEquals(CrashRecords.key(0), keys.get(0));
    assertArrayEquals(CrashRecords.value(keys.get(49), 64), STORED.get(keys.get(49)));

    CrashVerifier.Counts counts = CrashVerifier.verify(records(), keys);
    assertEquals(50, counts.acknowledged);
    assertEquals(50, counts.present);
    assertEquals(0, counts.lost + counts.wrong + counts.errors);
    assertTrue(counts.clean());
  }

  @Test
  void batchedKeysAreAcknowledgedOnlyWithTheOkThatAppliesThem() throws Exception {
    // Each write call on stdout is one acknowledgement: the keys in it must be stored already.
    List<List<String>> acknowledgements = new java.util.ArrayList<>();
    java.io.OutputStream out = new java.io.OutputStream() {
      @Override
      public void write(int b) {
        throw new AssertionError("one write call per acknowledgement");
      }

      @Override
      public void write(byte[] b, int off, int len) {
        List<String> keys = CrashVerifier.ackedKeys(java.util.Arrays.copyOfRange(b, off, off + len));
        for (String k : keys) {
          assertTrue(STORED.containsKey(k), k + " acknowledged before it was applied");
        }
        acknowledgements.add(keys);
      }
    };
    assertEquals(0, CrashWriter.write(records("-records", "7", "-p", "batch=3"), out));
    // Two batches of three acknowledged by their OKs; the seventh key by the close that applied it.
    assertEquals(List.of(3, 3, 1), acknowledgements.stream().map(List::size).toList());
    assertEquals(CrashRecords.key(6), acknowledgements.get(2).get(0));
  }

  @Test
  void verifierCountsLostAndWrongKeysAndNamesThem() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CrashWriter.write(records("-records", "20"), out);
    List<String> keys = written(out);
    STORED.remove(keys.get(3));
    STORED.remove(keys.get(4));
    STORED.put(keys.get(5), CrashRecords.value(keys.get(6), 64));   // another key's value

    CrashVerifier.Counts counts = CrashVerifier.verify(records(), keys);
    assertEquals(20, counts.acknowledged);
    assertEquals(17, counts.present);
    assertEquals(2, counts.lost);
    assertEquals(1, counts.wrong);
    assertEquals(List.of(keys.get(3), keys.get(4), keys.get(5)), counts.badKeys);
    assertFalse(counts.clean());

    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    counts.print(new PrintStream(printed, true, StandardCharsets.UTF_8));
    String text = printed.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("acknowledged=20\npresent=17\nlost=2\nwrong=1\nerrors=0\nopen=ok\n"), text);
  }

  @Test
  void verifierReportsARefusedOpenWithItsMessage() throws Exception {
    CrashVerifier.Counts counts = CrashVerifier.verify(records("-p", "refuse=true"), List.of("a", "b"));
    assertEquals(2, counts.acknowledged);
    assertEquals(0, counts.present);
    assertEquals("[memory] cannot open: not a database", counts.openError);
    assertFalse(counts.clean());
    assertEquals(3, CrashWriter.write(records("-p", "refuse=true"), new ByteArrayOutputStream()));
  }

  @Test
  void aLineCutShortByTheKillIsNotAnAcknowledgement() {
    byte[] written = "user1\nuser2\nuse".getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(List.of("user1", "user2"), CrashVerifier.ackedKeys(written));
    assertEquals(List.of(), CrashVerifier.ackedKeys("user".getBytes(StandardCharsets.ISO_8859_1)));
  }

  @Test
  void badCommandLinesAreRefusedWithTheReason() {
    Exception e = assertThrows(CrashRecords.UsageException.class, () -> CrashRecords.parse(new String[0]));
    assertTrue(e.getMessage().contains("-db"), e.getMessage());
    e = assertThrows(CrashRecords.UsageException.class,
        () -> CrashRecords.parse(new String[] {"-db", "x", "-valuesize", "0"}));
    assertTrue(e.getMessage().contains("-valuesize"), e.getMessage());
    e = assertThrows(CrashRecords.UsageException.class, () -> CrashRecords.parse(new String[] {"-db", "x", "-p", "y"}));
    assertTrue(e.getMessage().contains("name=value"), e.getMessage());
  }
}
