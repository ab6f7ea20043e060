package site.ycsb.embedded.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.zip.Deflater;

import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.WorkloadException;
import site.ycsb.embedded.Keys;

class EmbeddedWorkloadTest {

  /** Records what the workload asks of a DB; the engines are tested in their own modules. */
  static final class RecordingDb extends DB {
    final List<String> inserted = new ArrayList<>();
    final List<byte[]> values = new ArrayList<>();
    final List<String> ops = new ArrayList<>();
    int scanRows = 1234;

    @Override
    public Status read(String t, String key, Set<String> f, Map<String, ByteIterator> r) {
      ops.add("READ " + key);
      return Status.OK;
    }

    @Override
    public Status scan(String t, String start, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
      ops.add("SCAN " + start + " " + n);
      for (int i = 0; i < Math.min(n, scanRows); i++) {
        r.add(new HashMap<>());
      }
      return Status.OK;
    }

    @Override
    public Status update(String t, String key, Map<String, ByteIterator> v) {
      ops.add("UPDATE " + key);
      return Status.OK;
    }

    @Override
    public Status insert(String t, String key, Map<String, ByteIterator> v) {
      inserted.add(key);
      for (ByteIterator b : v.values()) {
        values.add(b.toArray());
      }
      return Status.OK;
    }

    @Override
    public Status delete(String t, String key) {
      ops.add("DELETE " + key);
      return Status.OK;
    }
  }

  static EmbeddedWorkload workload(String... kv) throws WorkloadException {
    Properties p = new Properties();
    p.setProperty("recordcount", "10000");
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    site.ycsb.measurements.Measurements.setProperties(p); // YCSB's Client does this before any workload
    EmbeddedWorkload w = new EmbeddedWorkload();
    w.init(p);
    return w;
  }

  static RecordingDb load(EmbeddedWorkload w, int n) {
    RecordingDb db = new RecordingDb();
    for (int i = 0; i < n; i++) {
      assertTrue(w.doInsert(db, null));
    }
    return db;
  }

  @Test
  void decimalKeysAreSixteenBytesAndSequentialLoadIsInByteOrder() throws Exception {
    RecordingDb db = load(workload("keyformat", "decimal", "loadorder", "sequential"), 10000);
    assertEquals("0000000000000000", db.inserted.get(0));
    assertEquals("0000000000009999", db.inserted.get(9999));
    for (int i = 0; i < db.inserted.size(); i++) {
      assertEquals(16, Keys.UTF8.bytes(db.inserted.get(i)).length);
      if (i > 0) {
        assertTrue(Arrays.compareUnsigned(Keys.UTF8.bytes(db.inserted.get(i - 1)),
            Keys.UTF8.bytes(db.inserted.get(i))) < 0);
      }
    }
  }

  @Test
  void binaryKeysAreEightBytesBigEndianInNumericOrder() throws Exception {
    RecordingDb db = load(workload("keyformat", "binary", "loadorder", "sequential", "recordcount", "70000"), 70000);
    assertEquals(70000, db.inserted.size());
    byte[] k = Keys.LATIN1.bytes(db.inserted.get(0x1234));
    assertEquals(8, k.length);
    assertTrue(Arrays.equals(new byte[] {0, 0, 0, 0, 0, 0, 0x12, 0x34}, k));
    for (int i = 1; i < db.inserted.size(); i++) {
      assertEquals(8, Keys.LATIN1.bytes(db.inserted.get(i)).length);
      assertTrue(Arrays.compareUnsigned(Keys.LATIN1.bytes(db.inserted.get(i - 1)),
          Keys.LATIN1.bytes(db.inserted.get(i))) < 0,
          "byte order is numeric order at " + i);
    }
  }

  @Test
  void randomLoadWritesEveryKeyExactlyOnceOutOfOrder() throws Exception {
    RecordingDb db = load(workload("keyformat", "decimal", "loadorder", "random"), 10000);
    Set<String> distinct = new HashSet<>(db.inserted);
    assertEquals(10000, distinct.size(), "no key twice");
    for (int i = 0; i < 10000; i++) {
      assertTrue(distinct.contains(String.format("%016d", i)), "key " + i + " written");
    }
    int inOrder = 0;
    for (int i = 1; i < db.inserted.size(); i++) {
      if (db.inserted.get(i).compareTo(db.inserted.get(i - 1)) > 0) {
        inOrder++;
      }
    }
    assertTrue(inOrder > 4000 && inOrder < 6000, "about half the steps go up in a random order: " + inOrder);
  }

  @Test
  void loadSeedChoosesTheRandomOrderAndRepeatsIt() throws Exception {
    String[] common = {"keyformat", "decimal", "loadorder", "random", "recordcount", "1000"};
    List<String> a = load(workload(with(common, "loadseed", "1")), 1000).inserted;
    List<String> again = load(workload(with(common, "loadseed", "1")), 1000).inserted;
    List<String> b = load(workload(with(common, "loadseed", "2")), 1000).inserted;
    assertTrue(a.equals(again), "the same seed gives the same order");
    assertTrue(!a.equals(b), "another seed gives another order");
    assertTrue(new HashSet<>(a).equals(new HashSet<>(b)), "of the same keys");
  }

  @Test
  void replacementLoadDrawsKeysWithRepeatsAsDbBenchDoes() throws Exception {
    int n = 100_000;
    RecordingDb db = load(workload("keyformat", "decimal", "loadorder", "replacement", "recordcount",
        Integer.toString(n)), n);
    assertEquals(n, db.inserted.size(), "one insert per record, repeats included");
    Set<String> distinct = new HashSet<>(db.inserted);
    for (String key : distinct) {
      assertEquals(16, key.length(), key);
      assertTrue(Long.parseLong(key) < n, key + " outside [0, " + n + ")");
    }
    // Deterministic for the default seed (63,131 distinct), so this bound cannot flake.
    double expected = n * (1 - Math.exp(-1));
    assertTrue(Math.abs(distinct.size() - expected) <= 0.005 * n,
        distinct.size() + " distinct keys, expected about " + expected);
    assertEquals(63_131, distinct.size());
  }

  @Test
  void replacementDrawsAreSplitMix64OfSeedAndIndexAsTheCFloorComputesThem() throws Exception {
    // Computed apart from this code (a few lines of Python over SplitMix64): the C floor's draw()
    // must give these too, and SqliteBenchTest (sqlite-binding/bench) checks that it writes the same rows.
    long[] golden = {600_989, 334_309, 387_726, 203_109, 837_401};
    RecordingDb db = load(workload("keyformat", "decimal", "loadorder", "replacement", "recordcount", "1000000"),
        golden.length);
    for (int i = 0; i < golden.length; i++) {
      assertEquals(golden[i], SplitMix64.draw(20110727L, i, 1_000_000));
      assertEquals(String.format("%016d", golden[i]), db.inserted.get(i), "insert " + i);
    }
  }

  @Test
  void startUpLineSaysTheKeysAreDrawnWithReplacementAndFromWhichSeed() throws Exception {
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      workload("keyformat", "decimal", "loadorder", "replacement", "loadseed", "42");
    } finally {
      System.setErr(err);
    }
    String line = captured.toString(StandardCharsets.UTF_8);
    assertTrue(line.startsWith("[workload] 16-byte decimal keys, replacement (keys drawn uniformly with repeats,"
        + " seed 42: about 63 % distinct) load"), line);
  }

  @Test
  void replacementKeysDependOnTheInsertIndexOnly() throws Exception {
    String[] common = {"keyformat", "decimal", "loadorder", "replacement", "recordcount", "1000", "loadseed", "7"};
    List<String> whole = load(workload(common), 1000).inserted;
    // Two clients that split the load by insertstart (YCSB's way to load from several processes).
    List<String> parts = new ArrayList<>(load(workload(with(common, "insertstart", "0", "insertcount", "500")), 500)
        .inserted);
    parts.addAll(load(workload(with(common, "insertstart", "500", "insertcount", "500")), 500).inserted);
    assertEquals(whole, parts);
    List<String> other = load(workload(with(common, "loadseed", "8")), 1000).inserted;
    assertTrue(!whole.equals(other), "another seed draws other keys");
  }

  @Test
  void loadRepeatsAsUpdatesInsertEachKeyOnceAndUpdateItsLaterDraws() throws Exception {
    String[] common = {"keyformat", "decimal", "loadorder", "replacement", "recordcount", "1000", "loadseed", "7"};
    List<String> drawn = load(workload(common), 1000).inserted;
    RecordingDb db = load(workload(with(common, "loadrepeats", "update")), 1000);
    List<String> firsts = new ArrayList<>();
    List<String> repeats = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String key : drawn) {
      (seen.add(key) ? firsts : repeats).add("UPDATE " + key);
    }
    assertEquals(firsts.size(), new HashSet<>(db.inserted).size());
    assertEquals(db.inserted.size(), new HashSet<>(db.inserted).size(), "no key inserted twice");
    assertEquals(drawn.stream().distinct().toList(), db.inserted, "the first draws, in order");
    assertEquals(repeats, db.ops, "every later draw an update, in order");
    assertTrue(!repeats.isEmpty());
    // A second process's part of the load knows the draws below its insertstart.
    RecordingDb part = load(workload(with(common, "loadrepeats", "update", "insertstart", "500", "insertcount", "500")),
        500);
    Set<String> before = new HashSet<>(drawn.subList(0, 500));
    assertEquals(drawn.subList(500, 1000).stream().filter(k -> !before.contains(k)).distinct().toList(),
        part.inserted);
  }

  @Test
  void loadRepeatsAsUpdatesWithoutDrawnKeysIsRefused() {
    WorkloadException e = assertThrows(WorkloadException.class,
        () -> workload("keyformat", "decimal", "loadorder", "random", "loadrepeats", "update"));
    assertTrue(e.getMessage().contains("loadrepeats"), e.getMessage());
  }

  private static String[] with(String[] kv, String... more) {
    String[] out = Arrays.copyOf(kv, kv.length + more.length);
    System.arraycopy(more, 0, out, kv.length, more.length);
    return out;
  }

  @Test
  void permutationCoversAwkwardSizes() {
    for (long n : new long[] {1, 2, 3, 5, 17, 1000, 65537}) {
      Permutation p = new Permutation(n, 99);
      boolean[] seen = new boolean[(int) n];
      for (long i = 0; i < n; i++) {
        long x = p.apply(i);
        assertTrue(x >= 0 && x < n && !seen[(int) x]);
        seen[(int) x] = true;
      }
    }
  }

  @Test
  void halfCompressibleValuesCompressToAboutHalf() throws Exception {
    RecordingDb db = load(workload("keyformat", "decimal", "fieldcount", "1", "fieldlength", "100",
        "valuecompressionratio", "0.5"), 2000);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    long snappyEach = 0;
    for (byte[] v : db.values) {
      assertEquals(100, v.length);
      snappyEach += Snappy.compress(v).length;
      all.write(v);
    }
    double perValue = snappyEach / (100.0 * db.values.size());
    assertTrue(perValue >= 0.40 && perValue <= 0.60, "Snappy per 100-byte value: " + perValue);
    byte[] whole = all.toByteArray();
    double snappyWhole = Snappy.compress(whole).length / (double) whole.length;
    assertTrue(snappyWhole >= 0.40 && snappyWhole <= 0.60, "Snappy over all values: " + snappyWhole);
    Deflater d = new Deflater();
    d.setInput(whole);
    d.finish();
    byte[] out = new byte[whole.length];
    double deflate = d.deflate(out) / (double) whole.length;
    assertTrue(deflate >= 0.40 && deflate <= 0.60, "deflate: " + deflate);
  }

  @Test
  void ycsbValuesDoNotCompressWithSnappy() throws Exception {
    RecordingDb db = load(workload("keyformat", "decimal", "fieldcount", "1", "fieldlength", "100"), 500);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] v : db.values) {
      all.write(v);
    }
    double ratio = Snappy.compress(all.toByteArray()).length / (double) all.size();
    assertTrue(ratio > 0.9, "YCSB's printable random values stay incompressible: " + ratio);
  }

  @Test
  void largeValuesAreCompressibleToo() throws Exception {
    RecordingDb db = load(workload("keyformat", "decimal", "fieldcount", "1", "fieldlength", "100000",
        "valuecompressionratio", "0.5"), 5);
    for (byte[] v : db.values) {
      double r = Snappy.compress(v).length / (double) v.length;
      assertTrue(r >= 0.40 && r <= 0.60, "100,000-byte value: " + r);
    }
  }

  @Test
  void readsUseTheLoadedKeyFormatAndDeletesAndFullScansRun() throws Exception {
    EmbeddedWorkload w = workload("keyformat", "decimal", "keylength", "12", "recordcount", "100",
        "readproportion", "0.5", "updateproportion", "0", "deleteproportion", "0.3", "readseqproportion", "0.2");
    RecordingDb db = new RecordingDb();
    for (int i = 0; i < 1000; i++) {
      assertTrue(w.doTransaction(db, null));
    }
    long reads = db.ops.stream().filter(o -> o.startsWith("READ ")).count();
    long deletes = db.ops.stream().filter(o -> o.startsWith("DELETE ")).count();
    long passes = db.ops.stream().filter(o -> o.equals("SCAN  " + Integer.MAX_VALUE)).count();
    assertEquals(1000, reads + deletes + passes);
    assertTrue(reads > 400 && deletes > 200 && passes > 100, reads + " " + deletes + " " + passes);
    for (String op : db.ops) {
      if (!op.startsWith("SCAN")) {
        String key = op.substring(op.indexOf(' ') + 1);
        assertEquals(12, key.length());
        assertTrue(Long.parseLong(key) < 100);
      }
    }
  }

  @Test
  void withoutItsPropertiesItIsCoreWorkload() throws Exception {
    RecordingDb db = load(workload("insertorder", "ordered", "zeropadding", "12"), 3);
    assertEquals(List.of("user000000000000", "user000000000001", "user000000000002"), db.inserted);
  }

  @Test
  void ycsbKeysRebuiltLikeCore() throws Exception {
    RecordingDb core = load(workload(), 50);
    RecordingDb ours = load(workload("valuecompressionratio", "0.5"), 50);
    assertEquals(core.inserted, ours.inserted, "hashed core keys are the same with our values");
  }

  @Test
  void badValuesAreRefused() {
    var e = assertThrows(WorkloadException.class, () -> workload("keyformat", "hex"));
    assertTrue(e.getMessage().contains("keyformat") && e.getMessage().contains("'hex'"), e.getMessage());
    assertThrows(WorkloadException.class, () -> workload("keyformat", "decimal", "keylength", "3"));
    assertThrows(WorkloadException.class, () -> workload("valuecompressionratio", "1.5"));
    e = assertThrows(WorkloadException.class, () -> workload("loadorder", "backwards"));
    assertTrue(e.getMessage().contains("loadorder") && e.getMessage().contains("'backwards'")
        && e.getMessage().contains("replacement"), e.getMessage());
    assertThrows(WorkloadException.class, () -> workload("keyformat", "binary", "dataintegrity", "true"));
  }

  @Test
  void compressionRatioRefusalSaysTheRangeInWords() throws Exception {
    // It printed "expected a number from 4.9E-324 to 1.0": Double.MIN_VALUE as the lower bound.
    for (String bad : List.of("0", "1.5", "-0.5", "half")) {
      var e = assertThrows(WorkloadException.class, () -> workload("valuecompressionratio", bad));
      String m = e.getMessage();
      assertTrue(m.contains("property valuecompressionratio") && m.contains(" = '" + bad + "' is not allowed")
          && m.contains("above 0 and at most 1")
          && m.contains("or off") && !m.contains("E-"), m);
    }
    RecordingDb db = load(workload("keyformat", "decimal", "valuecompressionratio", "1"), 1);
    assertEquals(1, db.inserted.size());
    load(workload("valuecompressionratio", "off"), 1);
  }
}
