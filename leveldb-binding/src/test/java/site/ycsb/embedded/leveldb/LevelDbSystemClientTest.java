package site.ycsb.embedded.leveldb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Vector;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.embedded.DataLayout;

/**
 * Everything {@link LevelDbClientTest} checks (the contract included), on the system's LevelDB
 * through leveldbjni_sys, plus the options only that library has, each read back from LevelDB:
 * its table files (footer, index and filter blocks) and its properties.
 */
class LevelDbSystemClientTest extends LevelDbClientTest {

  @Override
  protected String library() {
    return LevelDbOptions.LIBRARY_SYSTEM;
  }

  @Override
  protected String levelDbVersion() {
    return "1.23"; // Debian 12's libleveldb-dev, which scripts/setup.sh installs
  }

  /** LevelDB 1.23 names its tables .ldb (a directory of .sst tables is leveldbjni's, refused by its layout). */
  @Override
  protected String tableSuffix() {
    return ".ldb";
  }

  @Override
  protected List<String[]> badProperties() {
    List<String[]> bad = new ArrayList<>(super.badProperties());
    bad.add(new String[] {"writebuffersize", "32k"}); // LevelDB 1.23 would raise it to 64k
    bad.add(new String[] {"leveldb.blocksize", "512"});
    bad.add(new String[] {"leveldb.maxopenfiles", "60"});
    bad.add(new String[] {"leveldb.bloombits", "ten"});
    return bad;
  }

  // --- LevelDB's table format (table/format.h): what a test needs to read options back ---

  /** A block's place in a table file. */
  private record BlockHandle(long offset, long size) {
  }

  /** The table files (.ldb) in {@code dir}. */
  private static List<Path> tables(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(f -> f.toString().endsWith(".ldb")).sorted().toList();
    }
  }

  private static long varint(byte[] b, int[] at) {
    long v = 0;
    for (int shift = 0; ; shift += 7) {
      int x = b[at[0]++] & 0xff;
      v |= (long) (x & 0x7f) << shift;
      if (x < 0x80) {
        return v;
      }
    }
  }

  /** The metaindex and index handles in the 48-byte footer. */
  private static BlockHandle[] footer(byte[] file) {
    int[] at = {file.length - 48};
    BlockHandle meta = new BlockHandle(varint(file, at), varint(file, at));
    BlockHandle index = new BlockHandle(varint(file, at), varint(file, at));
    return new BlockHandle[] {meta, index};
  }

  /** The last uint32 of an uncompressed block: its number of restart points. */
  private static int restarts(byte[] file, BlockHandle h) {
    assertEquals(0, file[(int) (h.offset + h.size)], "block stored uncompressed (compression=none)");
    int p = (int) (h.offset + h.size - 4);
    return (file[p] & 0xff) | (file[p + 1] & 0xff) << 8 | (file[p + 2] & 0xff) << 16 | (file[p + 3] & 0xff) << 24;
  }

  /** The first entry of the metaindex block, name and handle; null when it is empty. */
  private static Object[] firstMetaEntry(byte[] file, BlockHandle meta) {
    if (restarts(file, meta) * 4 + 4 >= meta.size) {
      return null; // nothing but the restart array
    }
    int[] at = {(int) meta.offset};
    varint(file, at); // shared prefix: 0 in the first entry
    int nameLength = (int) varint(file, at);
    varint(file, at); // value length
    String name = new String(file, at[0], nameLength, StandardCharsets.US_ASCII);
    at[0] += nameLength;
    return new Object[] {name, new BlockHandle(varint(file, at), varint(file, at))};
  }

  private static HashMap<String, ByteIterator> bareRecord(byte[] value) {
    HashMap<String, ByteIterator> rec = new HashMap<>();
    rec.put("field0", new ByteArrayByteIterator(value));
    return rec;
  }

  /** {@code count} records of {@code valueBytes} random bytes (they do not compress), in key order. */
  private static void load(DB db, int count, int valueBytes) {
    load(db, count, valueBytes, false, 1.0);
  }

  /**
   * {@code count} records whose values are {@code randomShare} random bytes and zeros after them,
   * in key order or in a random order (so that the level-0 tables overlap and must be merged).
   */
  private static void load(DB db, int count, int valueBytes, boolean shuffled, double randomShare) {
    Random random = new Random(count);
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      order.add(i);
    }
    if (shuffled) {
      java.util.Collections.shuffle(order, random);
    }
    for (int i : order) {
      byte[] v = new byte[valueBytes];
      byte[] noise = new byte[(int) (valueBytes * randomShare)];
      random.nextBytes(noise);
      System.arraycopy(noise, 0, v, 0, noise.length);
      assertEquals(Status.OK, db.insert("usertable", String.format("user%08d", i), bareRecord(v)));
    }
  }

  private Properties tuned(String... nameValue) {
    Properties p = properties(tmp.resolve("db"));
    p.setProperty("fieldcount", "1");
    p.setProperty("leveldb.compression", "none");
    for (int i = 0; i < nameValue.length; i += 2) {
      p.setProperty(nameValue[i], nameValue[i + 1]);
    }
    return p;
  }

  /** Filter block bytes per key over every table, or 0 when the tables carry no filter. */
  private double filterBytesPerKey(String bloomBits) throws Exception {
    DB db = open(tuned("leveldb.bloombits", bloomBits, "destroy", "true"));
    int keys = 20_000;
    load(db, keys, 100);
    ((LevelDbClient) db).handle().compactAll();
    close(db);
    long filterBytes = 0;
    for (Path t : tables(tmp.resolve("db"))) {
      byte[] file = Files.readAllBytes(t);
      Object[] entry = firstMetaEntry(file, footer(file)[0]);
      if (entry != null) {
        assertEquals("filter.leveldb.BuiltinBloomFilter2", entry[0], t.toString());
        filterBytes += ((BlockHandle) entry[1]).size;
      }
    }
    return (double) filterBytes / keys;
  }

  @Test
  void bloomBitsSetTheFilterBlockOfEveryTable() throws Exception {
    assertEquals(0.0, filterBytesPerKey("0"), "no filter by default");
    double ten = filterBytesPerKey("10");
    double twenty = filterBytesPerKey("20");
    // bits/8 bytes per key, plus a few bytes per 2 KB of data (offsets, probe count)
    assertTrue(ten >= 1.25 && ten < 1.25 + 0.5, "10 bits per key: " + ten + " bytes per key");
    assertTrue(twenty >= 2.5 && twenty < 2.5 + 0.5, "20 bits per key: " + twenty + " bytes per key");
  }

  /** Average data bytes per data block over every table, from each table's index block. */
  private double dataBytesPerBlock(String blockSize) throws Exception {
    DB db = open(tuned("leveldb.blocksize", blockSize, "destroy", "true"));
    load(db, 5000, 200);
    close(db);
    long blocks = 0;
    long dataBytes = 0;
    for (Path t : tables(tmp.resolve("db"))) {
      byte[] file = Files.readAllBytes(t);
      BlockHandle[] f = footer(file);
      blocks += restarts(file, f[1]); // the index block has one restart per data block
      dataBytes += f[0].offset; // data blocks come first, then the metaindex (no filter here)
    }
    return (double) dataBytes / blocks;
  }

  @Test
  void blockSizeSetsTheSizeOfTheDataBlocks() throws Exception {
    double small = dataBytesPerBlock("1024");
    double large = dataBytesPerBlock("16384");
    // A block is cut at the first entry that takes it past the block size (one entry ~ 220 bytes).
    assertTrue(small >= 1024 && small < 1024 + 300, "1 KB blocks: " + small);
    assertTrue(large >= 16384 * 0.95 && large < 16384 + 300, "16 KB blocks: " + large);
  }

  private static final Pattern SSTABLE = Pattern.compile("^ *(\\d+):(\\d+)\\[", Pattern.MULTILINE);

  /** Sizes of the table files LevelDB lists in leveldb.sstables below level 0. */
  private static List<Long> deeperTableSizes(String sstables) {
    List<Long> sizes = new ArrayList<>();
    int level0End = sstables.indexOf("--- level 1 ---");
    Matcher m = SSTABLE.matcher(sstables);
    while (m.find()) {
      if (m.start() > level0End) {
        sizes.add(Long.parseLong(m.group(2)));
      }
    }
    return sizes;
  }

  private List<Long> tableSizesAfterCompaction(String maxFileSize) throws Exception {
    DB db = open(tuned("leveldb.maxfilesize", maxFileSize, "writebuffersize", "1m", "destroy", "true"));
    load(db, 8000, 1000, true, 1.0); // 8 MB that do not compress, in overlapping level-0 tables
    LevelDbHandle h = ((LevelDbClient) db).handle();
    h.compactAll();
    List<Long> sizes = deeperTableSizes(h.property("leveldb.sstables"));
    close(db);
    return sizes;
  }

  @Test
  void maxFileSizeSplitsCompactionOutput() throws Exception {
    List<Long> oneMb = tableSizesAfterCompaction("1m");
    assertTrue(oneMb.size() >= 7, "8 MB in files of about 1 MB: " + oneMb);
    for (long s : oneMb) {
      assertTrue(s <= (1 << 20) + (32 << 10),
          "a file is cut after the block that passes 1 MB (then gets its index): " + oneMb);
    }
    assertTrue(oneMb.stream().filter(s -> s >= 1 << 20).count() >= 6, "cut at 1 MB, not earlier: " + oneMb);
    List<Long> fourMb = tableSizesAfterCompaction("4m");
    assertTrue(fourMb.size() <= 3 && fourMb.stream().anyMatch(s -> s > 3L << 20), "files of about 4 MB: " + fourMb);
  }

  /**
   * leveldb.approximate-memory-usage after one full pass over 8 MB. The values compress with
   * Snappy: LevelDB 1.23 reads uncompressed blocks straight from its mmap of the table file and
   * caches only blocks it had to decompress.
   */
  private long memoryAfterFullPass(String cacheSize) throws Exception {
    DB db = open(tuned("leveldb.compression", "snappy", "destroy", "true"));
    load(db, 8000, 1000, false, 0.5);
    close(db);
    DB again = open(tuned("leveldb.compression", "snappy", "cachesize", cacheSize));
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, again.scan("usertable", "", 1_000_000, null, rows));
    assertEquals(8000, rows.size());
    long usage = Long.parseLong(((LevelDbClient) again).handle().property("leveldb.approximate-memory-usage"));
    close(again);
    return usage;
  }

  @Test
  void cacheSizeBoundsTheBlockCache() throws Exception {
    long small = memoryAfterFullPass("1m");
    long large = memoryAfterFullPass("64m");
    // Usage = decompressed blocks in the cache + the (empty) memtable.
    assertTrue(small <= (1 << 20) + (256 << 10), "a 1 MB cache holds at most 1 MB of blocks: " + small);
    assertTrue(large >= 7L << 20, "a 64 MB cache keeps all 8 MB read: " + large);
  }

  @Test
  void writeBufferSizeHoldsWritesInTheMemtable() throws Exception {
    DB big = open(tuned("writebuffersize", "16m", "destroy", "true"));
    load(big, 4000, 1000);
    LevelDbHandle h = ((LevelDbClient) big).handle();
    assertFalse(SSTABLE.matcher(h.property("leveldb.sstables")).find(), "4 MB stay in a 16 MB memtable");
    assertTrue(Long.parseLong(h.property("leveldb.approximate-memory-usage")) >= 4L << 20);
    close(big);
    DB small = open(tuned("writebuffersize", "256k", "destroy", "true"));
    load(small, 4000, 1000);
    h = ((LevelDbClient) small).handle();
    long tables = SSTABLE.matcher(h.property("leveldb.sstables")).results().count();
    assertTrue(tables >= 4, "a 256 KB memtable is written out again and again: " + h.property("leveldb.sstables"));
    assertTrue(Long.parseLong(h.property("leveldb.approximate-memory-usage")) < 4L << 20);
    close(small);
  }

  @Test
  void scanFetchesManyBuffersAndValuesLargerThanTheBuffer() throws Exception {
    DB db = open(tuned());
    // mostly 100-byte values (several buffers full), and some larger than the whole buffer
    List<byte[]> stored = assertScansAcrossBuffers(db, 6000,
        i -> i % 1000 == 500 ? SystemLevelDb.SCAN_BUFFER_BYTES + 1000 * i : 100);
    // The full pass counts the lengths where the native fill wrote them (no array per value).
    site.ycsb.embedded.workload.FullScanSink counted = new site.ycsb.embedded.workload.FullScanSink();
    assertEquals(Status.OK, db.scan("usertable", "", 10_000, null, counted));
    assertEquals(stored.size(), counted.rows());
    assertEquals(stored.stream().mapToLong(v -> v.length).sum(), counted.bytes());
  }

  /**
   * Puts through the thread's direct put buffer (key and value up to {@link SystemLevelDb#PUT_BUFFER_BYTES})
   * and through the two-array put above it, from four threads at once, each key written twice (the second
   * value of another size), every value read back byte for byte; a put after a delete does not bring the
   * deleted key back (a put carries nothing of the thread's earlier puts).
   */
  @Test
  void putsOnBothSidesOfThePutBufferStoreEveryByteFromManyThreads() throws Exception {
    DB db = open(tuned("destroy", "true"));
    LevelDbHandle h = ((LevelDbClient) db).handle();
    int limit = SystemLevelDb.PUT_BUFFER_BYTES;
    // with a 16-byte key: empty, small, the buffer's last bytes, one byte over, far over
    int[] sizes = {0, 1, 100, limit - 17, limit - 16, limit - 15, limit, 3 * limit};
    int threads = 4;
    int keysPerThread = 200;
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
    try {
      List<java.util.concurrent.Future<Map<String, byte[]>>> written = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        written.add(pool.submit(() -> {
          Random random = new Random(thread);
          Map<String, byte[]> last = new HashMap<>();
          for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < keysPerThread; i++) {
              String key = String.format("put%02d-%010d", thread, i);
              byte[] v = new byte[sizes[(i + pass) % sizes.length]];
              random.nextBytes(v);
              h.put(key.getBytes(StandardCharsets.UTF_8), v);
              last.put(key, v);
            }
          }
          return last;
        }));
      }
      int checked = 0;
      for (java.util.concurrent.Future<Map<String, byte[]>> f : written) {
        for (Map.Entry<String, byte[]> e : f.get().entrySet()) {
          assertArrayEquals(e.getValue(), h.get(e.getKey().getBytes(StandardCharsets.UTF_8)), e.getKey());
          checked++;
        }
      }
      assertEquals(threads * keysPerThread, checked);
    } finally {
      pool.shutdown();
    }
    // Nothing of a thread's earlier put is written again by its next one: a deleted key stays deleted.
    byte[] deleted = "put-then-deleted".getBytes(StandardCharsets.UTF_8);
    h.put(deleted, new byte[] {1});
    h.delete(deleted);
    h.put("put-after-delete".getBytes(StandardCharsets.UTF_8), new byte[] {2});
    assertNull(h.get(deleted));
    assertArrayEquals(new byte[] {2}, h.get("put-after-delete".getBytes(StandardCharsets.UTF_8)));
    close(db);
  }

  @Test
  void theHeaderNamesTheLibraryAndItsVersion() throws Exception {
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    java.io.PrintStream saved = System.err;
    System.setErr(new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      Properties p = properties(tmp.resolve("db"));
      p.setProperty("verbose", "true"); // every property, the defaults too
      open(p);
    } finally {
      System.setErr(saved);
    }
    String printed = err.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("engine: LevelDB 1.23 (leveldb.library=system"), printed);
    assertTrue(printed.contains("leveldb.bloombits = 0 (default)"), printed);
  }

  /** The table file sizes are what LevelDB itself reports (a sanity check of the parsing above). */
  @Test
  void tableFilesMatchWhatLevelDbLists() throws Exception {
    DB db = open(tuned("writebuffersize", "256k"));
    load(db, 2000, 1000);
    LevelDbHandle h = ((LevelDbClient) db).handle();
    h.compactAll();
    String listed = h.property("leveldb.sstables");
    Matcher m = SSTABLE.matcher(listed);
    int n = 0;
    while (m.find()) {
      Path f = tmp.resolve("db").resolve(String.format("%06d.ldb", Long.parseLong(m.group(1))));
      try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "r")) {
        assertEquals(Long.parseLong(m.group(2)), r.length(), f.toString());
      }
      n++;
    }
    assertTrue(n >= 1, listed);
  }

  /**
   * A write the filesystem refuses is Status.ERROR with LevelDB's message, and the JVM lives on to
   * close the database: LevelDB 1.23 writes with write(), where leveldbjni's 1.13 writes through
   * mmap and dies of SIGBUS. A file-size limit (ulimit -f, no root needed) stands in for a full
   * disk here; README.md records the same on a full 20 MB tmpfs ("No space left on device").
   */
  @Test
  void aRefusedWriteIsAnErrorNotACrash() throws Exception {
    Path dir = tmp.resolve("limited");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String command = "ulimit -f 512; exec '" + java + "' --enable-native-access=ALL-UNNAMED"
        + " -Djava.library.path='" + System.getProperty("java.library.path") + "'"
        + " -cp '" + System.getProperty("java.class.path") + "' site.ycsb.Client -load"
        + " -db " + LevelDbClient.class.getName()
        + " -p workload=site.ycsb.workloads.CoreWorkload -p recordcount=20000 -p fieldcount=1 -p fieldlength=1000"
        + " -p leveldb.library=system -p path='" + dir + "'";
    Process proc = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true).start();
    String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int exit = proc.waitFor();
    assertEquals(4, exit, "YCSB ends normally, no crash, and exits 4 because an operation returned ERROR:\n" + out);
    assertTrue(out.contains("[INSERT], Return=ERROR, 1"), out);
    assertTrue(out.contains("LevelDB: IO error: ") && out.contains("File too large"), out);
    assertTrue(out.contains("[leveldb] closed " + dir.toAbsolutePath()),
        "the database is closed after the error:\n" + out);
  }

  // --- switching library: LevelDB 1.23 writes .ldb tables, which leveldbjni's 1.13 cannot read ---

  /** Properties for the other library, leveldbjni, on {@code dir}. */
  private Properties leveldbjni(Path dir) {
    Properties p = properties(dir);
    p.setProperty(LevelDbOptions.LIBRARY, LevelDbOptions.LIBRARY_LEVELDBJNI);
    return p;
  }

  private static List<String> names(Path dir, String suffix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(suffix)).sorted().toList();
    }
  }

  @Test
  void aLeveldbjniDatabaseIsRefusedUntouchedUnlessConvertedAndThenOnlyOneWay() throws Exception {
    Path dir = tmp.resolve("db");
    DB jni = open(leveldbjni(dir));
    for (int i = 0; i < 100; i++) {
      assertEquals(Status.OK, jni.insert("usertable", "k" + i, record("f", "v" + i)));
    }
    close(jni);
    assertFalse(names(dir, ".sst").isEmpty(), "leveldbjni's close wrote .sst tables");
    String[] refusal = {LevelDbOptions.LIBRARY + "=leveldbjni (LevelDB 1.13; recorded in " + DataLayout.FILE,
        "nothing in it was changed", "-p " + LevelDbOptions.LIBRARY + "=leveldbjni", "-p " + LevelDbOptions.CONVERT
        + "=true (one way"};
    assertRefusedUntouched(properties(dir), refusal);
    Files.copy(dir.resolve(DataLayout.FILE), tmp.resolve("record"));
    Files.delete(dir.resolve(DataLayout.FILE)); // as written before layouts were recorded: the .sst files tell
    refusal[0] = LevelDbOptions.LIBRARY + "=leveldbjni (LevelDB 1.13; no layout record; its tables are .sst files)";
    assertRefusedUntouched(properties(dir), refusal);
    Files.copy(tmp.resolve("record"), dir.resolve(DataLayout.FILE));

    Properties convert = properties(dir);
    convert.setProperty(LevelDbOptions.CONVERT, "true");
    String printed = capturingStderr(() -> {
      DB sys = open(convert);
      assertEquals(Map.of("f", "v7"), read(sys, "k7", null), "1.23 reads 1.13's tables");
      for (int i = 100; i < 200; i++) {
        assertEquals(Status.OK, sys.insert("usertable", "k" + i, record("f", "v" + i)));
      }
      close(sys);
    });
    assertTrue(printed.contains("converting " + dir.toAbsolutePath() + " from " + LevelDbOptions.LIBRARY
        + "=leveldbjni (LevelDB 1.13) to system (LevelDB 1.23), as " + LevelDbOptions.CONVERT + "=true asks"), printed);
    assertEquals("system", DataLayout.read(layoutRecord(dir)).get(LevelDbOptions.LIBRARY),
        "the record says system now");
    assertFalse(names(dir, ".ldb").isEmpty(), "1.23 wrote .ldb tables");
    DB again = open(properties(dir)); // no conversion asked any more: it is system's database
    assertEquals(Map.of("f", "v150"), read(again, "k150", null));
    assertEquals(Map.of("f", "v7"), read(again, "k7", null));
    close(again);

    String[] back = {"holds tables written by LevelDB 1.14 or later (" + names(dir, ".ldb").get(0),
        "which leveldbjni's LevelDB 1.13 cannot read", "nothing in it was changed",
        "-p " + LevelDbOptions.LIBRARY + "=system", "does not convert back"};
    assertRefusedUntouched(leveldbjni(dir), back);
    Files.delete(dir.resolve(DataLayout.FILE)); // the .ldb files alone say it
    assertRefusedUntouched(leveldbjni(dir), back);
    Properties backwards = leveldbjni(dir);
    backwards.setProperty(LevelDbOptions.CONVERT, "true");
    assertRefusedUntouched(backwards, "property " + LevelDbOptions.CONVERT + " = 'true' is not allowed: expected false"
        + " with " + LevelDbOptions.LIBRARY + " (leveldbjni)", "never back");
  }

  @Test
  void aSystemDatabaseWithoutTablesIsRefusedByLeveldbjniByItsRecord() throws Exception {
    Path dir = tmp.resolve("db");
    close(open(properties(dir)));
    assertEquals(List.of(), names(dir, ".ldb"), "nothing written: no table");
    assertRefusedUntouched(leveldbjni(dir), "written with " + LevelDbOptions.LIBRARY + "=system (LevelDB 1.23;"
        + " recorded in " + DataLayout.FILE + ")", "-p " + LevelDbOptions.LIBRARY + "=system");
  }

  /**
   * A put copies the key and value into the thread's direct buffer and an update of a one-field record asks LevelDB
   * whether the key is there without copying its value into the JVM: neither allocates beyond the workload's value
   * wrapper (24 bytes).
   */
  @Test
  void aWriteAllocatesNothingButTheWorkloadsValue() throws Exception {
    double[] perWrite = oneFieldWriteAllocation();
    assertTrue(perWrite[0] < 64, perWrite[0] + " bytes per insert");
    assertTrue(perWrite[1] < 64, perWrite[1] + " bytes per update; a copy of the stored value would add 120");
  }
}
