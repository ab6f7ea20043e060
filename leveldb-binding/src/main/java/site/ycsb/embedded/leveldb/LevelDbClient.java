package site.ycsb.embedded.leveldb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.fusesource.leveldbjni.JniDBFactory;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;

import site.ycsb.embedded.DataLayout;
import site.ycsb.embedded.DiskSpaceGuard;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.KeyValueDB;

/**
 * YCSB binding for LevelDB through one of two libraries ({@value #LIBRARY}): leveldbjni (fusesource
 * 1.8, LevelDB 1.13 with Snappy) or the system's LevelDB (1.23 on Debian 12) through the binding's
 * own JNI layer. Property table: leveldb-binding/README.md.
 */
public class LevelDbClient extends KeyValueDB<LevelDbClient.Handle> {

  // Engine-neutral knobs (leveldb.<name> overrides <name>); see EngineProperties.
  /** Block cache in bytes. LevelDB's own default is 8 MB. */
  public static final long CACHE_SIZE_DEFAULT = 8L << 20;
  /** Write buffer (memtable) in bytes. LevelDB's own default is 4 MB. */
  public static final long WRITE_BUFFER_SIZE_DEFAULT = 4L << 20;
  /** snappy or none. */
  public static final String COMPRESSION_DEFAULT = "snappy";

  // LevelDB-only options.
  /** Create the database when the directory holds none. */
  public static final String CREATE_IF_MISSING = "leveldb.createifmissing";
  /** Uncompressed size of a table block in bytes. */
  public static final String BLOCK_SIZE = "leveldb.blocksize";
  public static final int BLOCK_SIZE_DEFAULT = 4096;
  /** Table files LevelDB keeps open. */
  public static final String MAX_OPEN_FILES = "leveldb.maxopenfiles";
  public static final int MAX_OPEN_FILES_DEFAULT = 1000;
  /** Check every stored structure aggressively; stop on the first corruption. */
  public static final String PARANOID_CHECKS = "leveldb.paranoidchecks";
  /** Verify block checksums on every read. */
  public static final String VERIFY_CHECKSUMS = "leveldb.verifychecksums";
  /**
   * Run LevelDB's RepairDB on the directory before opening it: rebuilds CURRENT and a MANIFEST from the
   * tables and logs (a directory without CURRENT is refused otherwise). Never implicit.
   */
  public static final String REPAIR = "leveldb.repair";

  // Choice of library.
  /** leveldbjni (fusesource 1.8, LevelDB 1.13) or system (the system's libleveldb through leveldbjni_sys). */
  public static final String LIBRARY = "leveldb.library";
  public static final String LIBRARY_DEFAULT = "leveldbjni";
  public static final String LIBRARY_LEVELDBJNI = "leveldbjni";
  public static final String LIBRARY_SYSTEM = "system";
  /**
   * Open with leveldb.library=system a database leveldbjni (LevelDB 1.13) wrote: LevelDB 1.23 writes its
   * tables as .ldb, which 1.13 cannot read, so the database is 1.23's from then on. Without it, refused.
   */
  public static final String CONVERT = "leveldb.convert";

  // Options only the system library (LevelDB 1.23's C API) has; leveldbjni refuses them.
  /** Bloom filter bits per key; 0: no filter (LevelDB's default). */
  public static final String BLOOM_BITS = "leveldb.bloombits";
  public static final int BLOOM_BITS_DEFAULT = 0;
  /** Size at which a compaction starts a new table file, bytes (LevelDB clips it to 1 MB..1 GB). */
  public static final String MAX_FILE_SIZE = "leveldb.maxfilesize";
  public static final long MAX_FILE_SIZE_DEFAULT = 2L << 20;

  /** The LevelDB release inside leveldbjni-all 1.8 (it exposes no version call). */
  static final String LEVELDBJNI_LEVELDB_VERSION = "1.13";

  /**
   * Copies of one write LevelDB may hold on disk at once, counted before a large write: the log record;
   * the level-0 table the memtable flush writes before it deletes that log (two at once); and one more
   * for the flush or compaction of the previous large write, which the free space does not show yet
   * (a compaction, too, writes its output before deleting its input).
   */
  static final double WRITE_COPIES = 3;

  /**
   * Below this much free space the start-up lines say what another process filling the disk would do
   * to leveldbjni: 1 GiB is a few seconds of one other writer (dd onto tmpfs ran at 60 MB/s to 1.7 GB/s
   * on this shared machine), well within one load, and far beyond the margin the guard keeps for
   * LevelDB's own writes (36 MB by default), which another process is free to take.
   */
  static final long LOW_FREE_SPACE = 1L << 30;

  /**
   * The open database, shared by every client thread: the primitives of one LevelDB library
   * (leveldbjni or the system library), so that the client and its tests are the same for both.
   */
  public abstract static class Handle {
    /**
     * Whether a client wrote since open (set by every write, read at close). Open already writes a
     * log it replays to a table, so a session without writes has nothing to flush at close.
     */
    boolean written;

    /** "leveldbjni" or "system". */
    public abstract String library();

    /** The LevelDB release ("1.13", "1.23"). */
    public abstract String levelDbVersion();

    abstract byte[] get(byte[] key) throws IOException;

    abstract void put(byte[] key, byte[] value) throws IOException;

    abstract void delete(byte[] key) throws IOException;

    abstract void write(byte[][] keys, byte[][] values, int count) throws IOException;

    abstract void scan(byte[] start, int count, ValueSink sink) throws IOException;

    /** The stored lengths of what {@link #scan} would give: by default through it. */
    void scanSizes(byte[] start, int count, SizeSink sink) throws IOException {
      scan(start, count, value -> sink.accept(value.length));
    }

    /** A LevelDB property ("leveldb.stats", "leveldb.sstables", ...), or null when unknown. */
    public abstract String property(String name);

    /** Compacts the whole key range (tests use it to push every table below level 0). */
    public abstract void compactAll();

    /** Writes the memtable to a table file: CompactRange("", "") compacts nothing else. */
    abstract void flushMemtable();

    abstract void close() throws IOException;

    /** LevelDB's own statistics ("leveldb.stats"): files, sizes and compaction work per level. */
    public String stats() {
      return property("leveldb.stats");
    }
  }

  /** LevelDB 1.13 through leveldbjni 1.8. */
  static final class JniHandle extends Handle {
    final DB db;
    final ReadOptions readOptions;
    final WriteOptions writeOptions;
    /**
     * The first failed write's error, after which every write is refused until the database is reopened:
     * LevelDB 1.13's log writer counts a record it failed to append (a full disk) as written, so the
     * records after it would sit out of step with the log's blocks and be unreadable after a crash.
     */
    private volatile String failedWrite;

    JniHandle(DB db, ReadOptions readOptions, WriteOptions writeOptions) {
      this.db = db;
      this.readOptions = readOptions;
      this.writeOptions = writeOptions;
    }

    @Override
    public String library() {
      return LIBRARY_LEVELDBJNI;
    }

    @Override
    public String levelDbVersion() {
      return LEVELDBJNI_LEVELDB_VERSION;
    }

    @Override
    byte[] get(byte[] key) {
      return db.get(key, readOptions);
    }

    @Override
    void put(byte[] key, byte[] value) throws IOException {
      writable();
      try {
        db.put(key, value, writeOptions);
      } catch (RuntimeException e) {
        throw failed(e);
      }
    }

    @Override
    void delete(byte[] key) throws IOException {
      writable();
      try {
        db.delete(key, writeOptions);
      } catch (RuntimeException e) {
        throw failed(e);
      }
    }

    @Override
    void write(byte[][] keys, byte[][] values, int count) throws IOException {
      writable();
      try (WriteBatch batch = db.createWriteBatch()) {
        for (int i = 0; i < count; i++) {
          batch.put(keys[i], values[i]);
        }
        db.write(batch, writeOptions);
      } catch (RuntimeException e) {
        throw failed(e);
      }
    }

    private void writable() throws IOException {
      String first = failedWrite;
      if (first != null) {
        throw new IOException("leveldbjni accepts no write until the database is reopened: an earlier write"
            + " failed (" + first + "), and LevelDB 1.13 leaves its log out of step after a failed append");
      }
    }

    private RuntimeException failed(RuntimeException e) {
      failedWrite = String.valueOf(e.getMessage());
      return e;
    }

    @Override
    void scan(byte[] start, int count, ValueSink sink) throws IOException {
      try (DBIterator it = db.iterator(readOptions)) {
        it.seek(start);
        for (int n = 0; n < count && it.hasNext(); n++) {
          Map.Entry<byte[], byte[]> e = it.next();
          sink.accept(e.getValue());
        }
      }
    }

    @Override
    public String property(String name) {
      return db.getProperty(name);
    }

    @Override
    public void compactAll() {
      db.compactRange(null, null);
    }

    @Override
    void flushMemtable() {
      db.compactRange(new byte[0], new byte[0]);
    }

    @Override
    void close() throws IOException {
      db.close();
    }
  }

  @Override
  protected String engineName() {
    return "leveldb";
  }

  /** The chosen library, before YCSB's clock starts (see KeyValueDB): leveldbjni unpacks it from its jar. */
  @Override
  protected void loadEngineLibrary() throws IOException {
    if (LIBRARY_SYSTEM.equals(getProperties().getProperty(LIBRARY))) {
      LevelDbNative.ensureLoaded();
    } else {
      org.fusesource.leveldbjni.internal.NativeDB.LIBRARY.load();
    }
  }

  /** The write buffer configure() read: the free-space margin is measured in it. */
  private long writeBufferSize = WRITE_BUFFER_SIZE_DEFAULT;
  /** Whether configure() chose leveldbjni, which writes through mmap. */
  private boolean leveldbjni = true;
  /** The library configure() chose, recorded in the database's layout. */
  private String library = LIBRARY_DEFAULT;
  /** Whether configure() read leveldb.convert=true. */
  private boolean convert;

  @Override
  protected EngineOpener<Handle> configure(EngineProperties props, Path dir) throws Exception {
    String library = props.choice(LIBRARY, LIBRARY_DEFAULT, LIBRARY_LEVELDBJNI, LIBRARY_SYSTEM);
    boolean system = library.equals(LIBRARY_SYSTEM);
    leveldbjni = !system;
    this.library = library;
    convert = props.bool(CONVERT, false);
    props.require(!convert || system, CONVERT, "false with", LIBRARY,
        "a database converts from LevelDB 1.13 (leveldbjni) to 1.23 (system) only, never back");
    boolean createIfMissing = props.bool(CREATE_IF_MISSING, true);
    long cacheSize = props.size(EngineProperties.CACHE_SIZE, CACHE_SIZE_DEFAULT);
    // LevelDB 1.23 clips these silently to other bounds than 1.13: refuse what it would change.
    int writeBufferSize = (int) props.size(EngineProperties.WRITE_BUFFER_SIZE, WRITE_BUFFER_SIZE_DEFAULT,
        system ? 64 << 10 : 0, system ? 1 << 30 : Integer.MAX_VALUE);
    this.writeBufferSize = writeBufferSize; // the free-space margin is measured in it
    int blockSize = props.integer(BLOCK_SIZE, BLOCK_SIZE_DEFAULT, system ? 1024 : 256, system ? 4 << 20 : 64 << 20);
    int maxOpenFiles = props.integer(MAX_OPEN_FILES, MAX_OPEN_FILES_DEFAULT, system ? 74 : 20,
        system ? 50_000 : 1 << 20);
    boolean snappy = props.choice(EngineProperties.COMPRESSION, COMPRESSION_DEFAULT, "snappy", "none")
        .equals("snappy");
    boolean paranoidChecks = props.bool(PARANOID_CHECKS, false);
    boolean verifyChecksums = props.bool(VERIFY_CHECKSUMS, false);
    boolean sync = props.bool(EngineProperties.SYNC, false);
    repair = props.bool(REPAIR, false);
    if (system) {
      int bloomBits = props.integer(BLOOM_BITS, BLOOM_BITS_DEFAULT, 0, 1000);
      long maxFileSize = props.size(MAX_FILE_SIZE, MAX_FILE_SIZE_DEFAULT, 1L << 20, 1L << 30);
      SystemLevelDb.Options o = new SystemLevelDb.Options(createIfMissing, paranoidChecks, writeBufferSize,
          maxOpenFiles, cacheSize, blockSize, maxFileSize, snappy, bloomBits, verifyChecksums, sync);
      return opener(dir, () -> SystemLevelDb.repair(dir, o), () -> SystemLevelDb.open(dir, o));
    }
    for (String only : new String[] {BLOOM_BITS, MAX_FILE_SIZE}) {
      if (props.isSet(only)) {
        String value = props.string(only, "");
        throw new EngineProperties.BadPropertyException("property " + only + " = '" + value + "' is not allowed with "
            + LIBRARY + "=leveldbjni (LevelDB 1.13 through leveldbjni has no such option): expected "
            + LIBRARY + "=system, or no " + only);
      }
    }
    Options options = new Options()
        .createIfMissing(createIfMissing)
        .cacheSize(cacheSize)
        .writeBufferSize(writeBufferSize)
        .blockSize(blockSize)
        .maxOpenFiles(maxOpenFiles)
        .compressionType(snappy ? CompressionType.SNAPPY : CompressionType.NONE)
        .paranoidChecks(paranoidChecks);
    ReadOptions readOptions = new ReadOptions().verifyChecksums(verifyChecksums);
    WriteOptions writeOptions = new WriteOptions().sync(sync);
    return opener(dir, () -> JniDBFactory.factory.repair(dir.toFile(), options),
        () -> new JniHandle(JniDBFactory.factory.open(dir.toFile(), options), readOptions, writeOptions));
  }

  /** The library is part of the layout: a LevelDB 1.23 table (.ldb) cannot be read by leveldbjni's 1.13. */
  @Override
  protected DataLayout layout(DataLayout common) {
    return common.with(LIBRARY, library, null);
  }

  /**
   * Refuses a database that the other library wrote, untouched, unless it is leveldbjni's and
   * leveldb.convert=true asks for system. Which library wrote it: the layout record, or for a directory
   * without one its tables (1.13 names them .sst, 1.14 and later .ldb). leveldbjni refuses any .ldb table.
   */
  @Override
  protected String admitLayout(Path dir, DataLayout recorded, DataLayout wanted) throws IOException {
    List<String> newTables = tables(dir, ".ldb");
    List<String> oldTables = tables(dir, ".sst");
    String to = wanted.get(LIBRARY);
    String refused = ": refusing to open it, and nothing in it was changed. ";
    if (to.equals(LIBRARY_LEVELDBJNI) && !newTables.isEmpty()) {
      throw new IOException("data directory " + dir.toAbsolutePath() + " holds tables written by LevelDB 1.14 or"
          + " later (" + shown(newTables) + "), which leveldbjni's LevelDB 1.13 cannot read (it reports them as"
          + " missing .sst files)" + refused + "Open it with -p " + LIBRARY + "=system (LevelDB 1.23), which wrote"
          + " them; a database does not convert back to LevelDB 1.13");
    }
    String from = recorded != null ? recorded.get(LIBRARY)
        : !newTables.isEmpty() ? LIBRARY_SYSTEM : !oldTables.isEmpty() ? LIBRARY_LEVELDBJNI : null;
    String how = recorded != null && from != null ? "recorded in " + DataLayout.FILE
        : "no layout record; its tables are " + (newTables.isEmpty() ? ".sst files" : ".ldb files");
    if (from == null || from.equals(to)) {
      return super.admitLayout(dir, recorded, wanted);
    }
    if (to.equals(LIBRARY_LEVELDBJNI)) {
      throw new IOException("data directory " + dir.toAbsolutePath() + " holds a database written with " + LIBRARY
          + "=system (LevelDB 1.23; " + how + ")" + refused + "Open it with -p " + LIBRARY + "=system; a database"
          + " does not convert back to LevelDB 1.13");
    }
    if (!convert) {
      throw new IOException("data directory " + dir.toAbsolutePath() + " holds a database written with " + LIBRARY
          + "=leveldbjni (LevelDB 1.13; " + how + "); " + LIBRARY + "=system (LevelDB 1.23) would write its tables"
          + " as .ldb files, which leveldbjni cannot read" + refused + "Open it with -p " + LIBRARY + "=leveldbjni,"
          + " or convert it for good with -p " + CONVERT + "=true (one way: leveldbjni cannot open it afterwards)");
    }
    super.admitLayout(dir, recorded == null ? null : recorded.with(LIBRARY, to, null), wanted);
    return "converting " + dir.toAbsolutePath() + " from " + LIBRARY + "=leveldbjni (LevelDB 1.13) to system"
        + " (LevelDB 1.23), as " + CONVERT + "=true asks: its .sst tables (" + oldTables.size() + ") are read as"
        + " they are, every table written from now on is .ldb, and the layout record says system: leveldbjni"
        + " refuses this directory from now on";
  }

  /** The names of the table files in {@code dir} ending in {@code suffix}, sorted. */
  private static List<String> tables(Path dir, String suffix) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(suffix)).sorted().toList();
    }
  }

  /** At most three names, then how many more. */
  private static String shown(List<String> names) {
    return String.join(", ", names.subList(0, Math.min(3, names.size())))
        + (names.size() > 3 ? " and " + (names.size() - 3) + " more" : "");
  }

  /** Opens one library's handle. */
  @FunctionalInterface
  interface Open {
    Handle open() throws IOException;
  }

  /** Runs one library's RepairDB on the directory. */
  @FunctionalInterface
  interface Repair {
    void repair() throws IOException;
  }

  /** Whether configure() read leveldb.repair=true. */
  private boolean repair;

  @Override
  protected boolean repairs() {
    return repair;
  }

  /** LevelDB renames LOG to LOG.old and starts a new LOG before it finds that it cannot open. */
  @Override
  protected Set<String> filesAFailedOpenRewrites() {
    return Set.of("LOG", "LOG.old");
  }

  /**
   * Runs RepairDB when leveldb.repair asks for it and the directory holds LevelDB files, and prints
   * what it did: the files it changed and the lines it wrote to LOG.
   */
  private void repairIfAsked(Path dir, Repair how) throws IOException {
    if (!repair) {
      return;
    }
    List<String> before = listing(dir);
    if (before.stream().noneMatch(n -> n.startsWith("MANIFEST-") || n.matches("[0-9]+\\.(ldb|sst|log) .*"))) {
      System.err.println("[leveldb] " + REPAIR + "=true: " + dir.toAbsolutePath() + " holds no LevelDB files, nothing"
          + " to repair");
      return;
    }
    how.repair();
    List<String> after = listing(dir);
    String tag = "[leveldb] repair: ";
    StringBuilder said = new StringBuilder(tag).append("LevelDB's RepairDB rebuilt ").append(dir.toAbsolutePath())
        .append(System.lineSeparator()).append(tag).append("files before: ").append(before)
        .append(System.lineSeparator()).append(tag).append("files after:  ").append(after)
        .append(System.lineSeparator());
    Path log = dir.resolve("LOG"); // RepairDB starts a new LOG: every line in it is the repair's
    if (Files.isRegularFile(log)) {
      for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
        said.append(tag).append(line).append(System.lineSeparator());
      }
    }
    System.err.print(said);
  }

  /** The sorted names in {@code dir} with their sizes ("000005.ldb 1234"). */
  private static List<String> listing(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      List<String> out = new ArrayList<>();
      for (Path p : (Iterable<Path>) s.sorted()::iterator) {
        out.add(p.getFileName() + (Files.isRegularFile(p) ? " " + Files.size(p) : "/"));
      }
      return out;
    }
  }

  private EngineOpener<Handle> opener(Path dir, Repair repairDb, Open how) {
    return new EngineOpener<Handle>() {
      @Override
      public Handle open() throws IOException {
        try {
          repairIfAsked(dir, repairDb);
          return how.open();
        } catch (IOException | RuntimeException e) {
          throw explain(dir, e);
        }
      }

      @Override
      public void close(Handle h) throws IOException {
        // LevelDB has no flush call, but CompactRange always writes the memtable to a table
        // first, and an empty range compacts nothing else. Without it the next run replays the
        // log inside its timed window. On a full disk that write would be a SIGBUS with leveldbjni
        // (mmap): the log keeps every write, so the flush is left to the next open.
        String shortage = diskSpaceShortage("the flush of the memtable at close");
        String stats;
        try {
          if (shortage == null) {
            if (h.written) { // a read-only run leaves the files as it found them (no new log, no MANIFEST edit)
              h.flushMemtable();
            }
          } else {
            System.err.printf("[leveldb] %s; the log keeps the writes and the next open replays it%n", shortage);
          }
          stats = h.stats();
        } finally {
          h.close();
        }
        // no Formatter here: see KeyValueDB.millisSince
        System.err.print("[leveldb] leveldb.stats at close:" + System.lineSeparator() + stats);
      }

      @Override
      public String describe(Handle h) {
        if (h instanceof JniHandle) {
          return "LevelDB " + h.levelDbVersion() + " (leveldb.library=leveldbjni: leveldbjni " + JniDBFactory.VERSION
              + ", " + System.getProperty("os.arch") + ")";
        }
        return "LevelDB " + h.levelDbVersion() + " (leveldb.library=system: the system libleveldb through"
            + " leveldbjni_sys, " + System.getProperty("os.arch") + ")";
      }
    };
  }

  /**
   * LevelDB 1.13 writes through mmap (a full disk is a SIGBUS), and after the last accepted write
   * may still flush the memtable being filled and the one being flushed, compact up to four level-0
   * tables with the overlapping 10 MB of level 1, and flush the memtable at close: six write
   * buffers and 12 MB.
   */
  @Override
  protected long diskSpaceMargin() {
    return 6 * writeBufferSize + (12L << 20);
  }

  @Override
  protected double diskSpaceWriteFactor() {
    return WRITE_COPIES;
  }

  /** With leveldbjni below {@link #LOW_FREE_SPACE}: what another process filling the disk would do. */
  @Override
  protected String diskSpaceNote(DiskSpaceGuard guard) {
    long free = guard.free();
    return leveldbjni && free >= 0 && free < LOW_FREE_SPACE ? lowSpaceNote(free, guard.filesystem(),
        MmapSpace.preloaded()) : null;
  }

  static String lowSpaceNote(long free, String filesystem, boolean preloaded) {
    String where = (free >> 20) + " MB free on " + filesystem + " (under " + (LOW_FREE_SPACE >> 30) + " GiB)";
    if (preloaded) {
      return "disk: " + where + ": should another process fill it, writes return ERROR (" + MmapSpace.LIBRARY
          + " is preloaded: leveldbjni's memory-mapped files get their blocks before they are written)";
    }
    return "WARNING: " + where + ": should another process fill it, leveldbjni (writes through mmap) kills this JVM"
        + " with SIGBUS; bin/ycsb prevents it by preloading " + MmapSpace.LIBRARY + " (or set LD_PRELOAD to it,"
        + " or use leveldb.library=system)";
  }

  @Override
  protected byte[] get(Handle h, byte[] key) throws IOException {
    return h.get(key);
  }

  @Override
  protected void put(Handle h, byte[] key, byte[] value) throws IOException {
    h.written = true;
    h.put(key, value);
  }

  /** LevelDB cannot tell whether the key existed; a delete of a missing key is OK. */
  @Override
  protected boolean remove(Handle h, byte[] key) throws IOException {
    h.written = true;
    h.delete(key);
    return true;
  }

  @Override
  protected void scan(Handle h, byte[] start, int count, ValueSink sink) throws IOException {
    h.scan(start, count, sink);
  }

  @Override
  protected void scanSizes(Handle h, byte[] start, int count, SizeSink sink) throws IOException {
    h.scanSizes(start, count, sink);
  }

  @Override
  protected void applyBatch(Handle h, byte[][] keys, byte[][] values, int count) throws IOException {
    h.written = true;
    h.write(keys, values, count);
  }

  /** Turns LevelDB's terse open errors into messages that say what to do. */
  static IOException explain(Path dir, Exception e) {
    String m = String.valueOf(e.getMessage());
    if (m.contains("LOCK")) {
      return new IOException("LevelDB directory " + dir.toAbsolutePath() + " is locked by another process"
          + " (another YCSB run or program has it open): " + m, e);
    }
    if (m.contains("does not exist")) {
      return new IOException("no LevelDB database in " + dir.toAbsolutePath()
          + " and leveldb.createifmissing=false: " + m, e);
    }
    if (Files.isDirectory(dir) && m.toLowerCase().contains("corrupt")) {
      return new IOException(dir.toAbsolutePath() + " does not hold a readable LevelDB database: " + m, e);
    }
    return new IOException("cannot open LevelDB in " + dir.toAbsolutePath() + ": " + m, e);
  }
}
