package site.ycsb.embedded.kyoto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.KeyValueDB;
import site.ycsb.embedded.NativeScanBuffer;

/**
 * YCSB binding for Kyoto Cabinet (the system library, libkyotocabinet 1.2.79) through the
 * binding's own thin JNI layer ({@link KyotoNative}, src/main/c/kyotojni.c). A TreeDB file
 * ({@code .kct}, ordered, the 2011 benchmark's engine) by default; a HashDB ({@code .kch}) when
 * asked. Property table: kyoto-binding/README.md.
 */
public class KyotoClient extends KeyValueDB<KyotoClient.Handle> {

  // Engine-neutral knobs (kyoto.<name> overrides <name>); see EngineProperties.
  //   path             directory holding the database file (kyoto.file)
  //   batchsize        inserts per transaction (begin, N sets, commit)
  //   sync             auto-sync (OAUTOSYNC): with kyoto.autotran every write is its own transaction
  //                    committed with fsync; commits of batches sync the device
  //   writebuffersize  does not apply: Kyoto keeps dirty pages in its page cache (cachesize)
  /** TreeDB page cache capacity (pccap) in bytes; Kyoto's own default is 64 MB. */
  public static final long CACHE_SIZE_DEFAULT = 64L << 20;
  /** Compressor: none, or one of {@link #COMPRESSORS}; anything else is refused before opening. */
  public static final String COMPRESSION_DEFAULT = "none";

  // Kyoto-only options.
  /** Database file name inside path: *.kct is a TreeDB (ordered), *.kch a HashDB (unordered). */
  public static final String FILE = "kyoto.file";
  public static final String FILE_DEFAULT = "ycsb.kct";
  /** TreeDB page size (psiz) in bytes; fixed when the file is created. */
  public static final String PAGE_SIZE = "kyoto.pagesize";
  public static final int PAGE_SIZE_DEFAULT = 8192;
  /** Hash buckets (bnum); 0 keeps the library's default (TreeDB 65,536, HashDB 1,048,583). */
  public static final String BUCKETS = "kyoto.buckets";
  public static final long BUCKETS_DEFAULT = 0;
  /** Comma list of small, linear, compress (tune_options); fixed when the file is created. */
  public static final String OPTIONS = "kyoto.options";
  public static final String OPTIONS_DEFAULT = "";
  /**
   * Auto-transaction (OAUTOTRAN): every write reaches the file inside a transaction of its own
   * (undo log in ycsb.kct.wal) before it returns, so a killed process loses no acknowledged write
   * and leaves a consistent file. false is the 2011 db_bench mode: dirty pages wait in the
   * process's page cache, and a kill loses everything written since open.
   */
  public static final String AUTOTRAN = "kyoto.autotran";
  public static final boolean AUTOTRAN_DEFAULT = true;
  /** Memory-mapped region (msiz) in bytes; Kyoto's own default is 64 MB. */
  public static final String MAP_SIZE = "kyoto.mapsize";
  public static final long MAP_SIZE_DEFAULT = 64L << 20;

  /** compression value -> the library's zcomp name. The compressor is not recorded in the file. */
  public static final Map<String, String> COMPRESSORS = Map.of(
      "zlib", "zlib", "deflate", "def", "gzip", "gz", "lzo", "lzo", "lzma", "lzma");

  /** kyoto.options value -> the letter of "#opts=" and its bit in the status report's opts. */
  static final Map<String, Character> OPTION_LETTERS = Map.of("small", 's', "linear", 'l', "compress", 'c');
  static final Map<String, Integer> OPTION_BITS = Map.of("small", 1, "linear", 2, "compress", 4);

  /** Scan buffer per thread; a value larger than it grows that thread's buffer. */
  static final int SCAN_BUFFER_BYTES = NativeScanBuffer.INITIAL_BYTES;

  /** Compressors already checked in this JVM: the check opens an in-memory database. */
  private static final Set<String> WORKING_COMPRESSORS = ConcurrentHashMap.newKeySet();

  /** One open database file, shared by every client thread of the JVM. */
  public static final class Handle {
    private final Path file;
    private final String tuning;
    private final boolean tree;
    private final boolean hardSync;
    private final int mode;
    /** The KCDB pointer; 0 once closed. */
    private volatile long db;

    Handle(Path file, String tuning, boolean tree, boolean hardSync, int mode, long db) {
      this.file = file;
      this.tuning = tuning;
      this.tree = tree;
      this.hardSync = hardSync;
      this.mode = mode;
      this.db = db;
    }

    /** The pointer for a call; a clear error instead of a crash after close. */
    long ptr() {
      long p = db;
      if (p == 0) {
        throw new IllegalStateException("Kyoto Cabinet database " + file + " is closed");
      }
      return p;
    }

    /** The database file. */
    public Path file() {
      return file;
    }

    /** The path and tuning string the file was opened with ("/x/ycsb.kct#opts=sl#..."). */
    public String tuning() {
      return tuning;
    }

    public boolean isTree() {
      return tree;
    }

    /** The open mode passed to kcdbopen (KyotoNative.O* bits). */
    public int mode() {
      return mode;
    }

    /** The library's status report (kcdbstatus): psiz, pccap, opts, count, size, bnum, ... */
    public Map<String, String> status() throws KyotoException {
      Map<String, String> out = new LinkedHashMap<>();
      for (String line : new String(KyotoNative.status(ptr()), StandardCharsets.UTF_8).split("\n")) {
        int tab = line.indexOf('\t');
        if (tab > 0) {
          out.put(line.substring(0, tab), line.substring(tab + 1));
        }
      }
      return out;
    }

    /** Writes every dirty page to the file (kcdbsync); {@code hard} also syncs the device. */
    public void sync(boolean hard) throws KyotoException {
      KyotoNative.sync(ptr(), hard);
    }

    /** Closes the database exactly once; later calls do nothing. */
    synchronized void close() throws KyotoException {
      long p = db;
      if (p == 0) {
        return;
      }
      db = 0;
      KyotoNative.close(p);
    }
  }

  /** The TreeDB page cache configure() read (0 for a HashDB): dirty pages the file may still grow by. */
  private long pageCacheBytes;

  /** The database file configure() read: a directory can hold several, each with its own layout record. */
  private String fileName;

  @Override
  protected String engineName() {
    return "kyoto";
  }

  @Override
  protected String databaseFile() {
    return fileName;
  }

  /**
   * Kyoto writes its file through mmap (a full disk is a SIGBUS). A TreeDB keeps up to its page
   * cache (pccap) of dirty, mostly new, pages that reach the file when the cache overflows and at
   * close; 8 MB more covers the transaction log of a batch and the file's own growth.
   */
  @Override
  protected long diskSpaceMargin() {
    return pageCacheBytes + (8L << 20);
  }

  /**
   * A TreeDB was seen to keep every large record (4,000 bytes) in memory until close, whatever its
   * page cache; on disk a record then takes up to about 1.2 times its bytes. So 1.25 times what was
   * written since open is reserved too. A HashDB writes each record into its map at once.
   */
  @Override
  protected double diskSpaceDeferredShare() {
    return pageCacheBytes > 0 ? 1.25 : 0;
  }

  @Override
  protected EngineOpener<Handle> configure(EngineProperties props, Path dir) throws IOException {
    KyotoNative.ensureLoaded();
    String fileName = props.string(FILE, FILE_DEFAULT);
    if (!fileName.matches("[A-Za-z0-9._-]+\\.(kct|kch)")) {
      throw bad(FILE, fileName, "a file name ending in .kct (TreeDB) or .kch (HashDB)");
    }
    this.fileName = fileName;
    if (dir.toAbsolutePath().toString().indexOf('#') >= 0) {
      // "#" starts the tuning parameters in the name kcdbopen parses.
      throw bad(EngineProperties.PATH, dir.toString(), "a directory whose path has no '#'");
    }
    boolean tree = fileName.endsWith(".kct");
    String compression = props.choice(EngineProperties.COMPRESSION, COMPRESSION_DEFAULT,
        "none", "zlib", "deflate", "gzip", "lzo", "lzma");
    Set<String> options = options(props.string(OPTIONS, OPTIONS_DEFAULT));
    if (!compression.equals("none")) {
      options.add("compress");
    } else if (options.contains("compress")) {
      props.require(!props.isSet(EngineProperties.COMPRESSION), OPTIONS, "no compress with",
          EngineProperties.COMPRESSION, "change one of them");
      compression = "zlib"; // Kyoto's own default compressor for the compress option
    }
    boolean sync = props.bool(EngineProperties.SYNC, false);
    boolean autotran = props.bool(AUTOTRAN, AUTOTRAN_DEFAULT);
    long buckets = props.integer(BUCKETS, BUCKETS_DEFAULT, 0L, 1L << 36);
    long mapSize = props.size(MAP_SIZE, MAP_SIZE_DEFAULT);
    List<String> notes = new ArrayList<>();
    if (props.isSet(EngineProperties.WRITE_BUFFER_SIZE)) {
      notes.add("writebuffersize does not apply to Kyoto Cabinet (dirty pages stay in the page cache,"
          + " cachesize); ignored");
    }

    Path file = dir.resolve(fileName);
    StringBuilder tuning = new StringBuilder(file.toAbsolutePath().toString());
    if (!options.isEmpty()) {
      tuning.append("#opts=");
      for (String o : options) {
        tuning.append(OPTION_LETTERS.get(o));
      }
    }
    String zcomp = COMPRESSORS.get(compression);
    if (zcomp != null) {
      tuning.append("#zcomp=").append(zcomp);
    }
    int pageSize = 0;
    long cacheSize = 0;
    if (tree) {
      pageSize = props.integer(PAGE_SIZE, PAGE_SIZE_DEFAULT, 256, 16 << 20);
      cacheSize = props.size(EngineProperties.CACHE_SIZE, CACHE_SIZE_DEFAULT);
      pageCacheBytes = cacheSize;
      tuning.append("#psiz=").append(pageSize).append("#pccap=").append(cacheSize);
    } else {
      for (String treeOnly : List.of(PAGE_SIZE, EngineProperties.CACHE_SIZE)) {
        if (props.isSet(treeOnly)) {
          notes.add(treeOnly + " applies to a TreeDB (.kct) only; ignored for the HashDB " + fileName);
        }
      }
    }
    if (buckets > 0) {
      tuning.append("#bnum=").append(buckets);
    }
    tuning.append("#msiz=").append(mapSize);
    if (zcomp != null && !zcomp.equals("zlib")) {
      notes.add("kctreemgr cannot name a compressor (it fails with 'invalid module checksum'); inspect this file"
          + " with: kcpolymgr inform -st '" + file.toAbsolutePath() + "#zcomp=" + zcomp + "'");
    }
    if (sync && !autotran) {
      notes.add("sync=true with " + AUTOTRAN + "=false is auto-sync alone (the 2011 db_bench mode): a killed"
          + " process can lose writes that returned OK and leave a file that kctreemgr check rejects");
    }
    int mode = KyotoNative.OWRITER | KyotoNative.OCREATE | KyotoNative.OTRYLOCK
        | (autotran ? KyotoNative.OAUTOTRAN : 0) | (sync ? KyotoNative.OAUTOSYNC : 0);
    String finalCompression = compression;
    int requestedPageSize = pageSize;
    int requestedOpts = optionBits(options);

    return new EngineOpener<Handle>() {
      @Override
      public Handle open() throws IOException {
        if (zcomp != null) {
          checkCompressor(finalCompression, zcomp);
        }
        boolean existed = Files.isRegularFile(file) && Files.size(file) > 0;
        long db;
        try {
          db = KyotoNative.open(tuning.toString().getBytes(StandardCharsets.UTF_8), mode);
        } catch (KyotoException e) {
          throw explain(file, finalCompression, e);
        }
        Handle h = new Handle(file, tuning.toString(), tree, sync, mode, db);
        if (existed) {
          notes.addAll(differences(h, requestedPageSize, requestedOpts));
        }
        return h;
      }

      @Override
      public void close(Handle h) throws IOException {
        String summary = summary(h);
        h.close();
        System.err.printf("[kyoto] at close: %s%n", summary);
      }

      @Override
      public String describe(Handle h) {
        StringBuilder sb = new StringBuilder("Kyoto Cabinet ").append(KyotoNative.version())
            .append(tree ? " TreeDB" : " HashDB").append(" (system library through kyotojni)")
            .append(String.format("%n[kyoto] opened with %s, mode %s%n[kyoto] ", h.tuning(), modeNames(h.mode())))
            .append(summary(h));
        for (String note : notes) {
          sb.append(String.format("%n[kyoto] NOTE: %s", note));
        }
        return sb.toString();
      }
    };
  }

  @Override
  protected byte[] get(Handle h, byte[] key) throws KyotoException {
    return KyotoNative.get(h.ptr(), key);
  }

  @Override
  protected void put(Handle h, byte[] key, byte[] value) throws KyotoException {
    KyotoNative.set(h.ptr(), key, value);
  }

  @Override
  protected boolean remove(Handle h, byte[] key) throws KyotoException {
    return KyotoNative.remove(h.ptr(), key);
  }

  @Override
  protected void scan(Handle h, byte[] start, int count, ValueSink sink) throws IOException {
    withCursor(h, start, count, fill -> NativeScanBuffer.feed(fill, count, sink));
  }

  @Override
  protected void scanSizes(Handle h, byte[] start, int count, SizeSink sink) throws IOException {
    withCursor(h, start, count, fill -> NativeScanBuffer.feedSizes(fill, count, sink));
  }

  /** Runs {@code use} over the fills of a cursor placed at {@code start}, destroyed afterwards. */
  private static void withCursor(Handle h, byte[] start, int count, NativeScanBuffer.FillUser use)
      throws IOException {
    if (!h.tree && start.length > 0) {
      throw new IOException("a HashDB (" + h.file.getFileName() + ") has no key order: a scan from a start key"
          + " needs a TreeDB (kyoto.file=*.kct); only whole-database passes (start key \"\") work");
    }
    if (count <= 0) {
      return;
    }
    long cursor = KyotoNative.cursor(h.ptr());
    try {
      if (KyotoNative.jump(cursor, start)) {
        use.accept((buf, max) -> KyotoNative.fill(cursor, buf, max));
      }
    } finally {
      KyotoNative.destroy(cursor);
    }
  }

  /**
   * One transaction per batch. Kyoto's transactions are database-wide: a batch waits for another
   * thread's batch to commit, and writes other threads make meanwhile commit with it.
   */
  @Override
  protected void applyBatch(Handle h, byte[][] keys, byte[][] values, int count) throws KyotoException {
    KyotoNative.setInTransaction(h.ptr(), keys, values, count, h.hardSync);
  }

  /** Parses kyoto.options: a comma list of small, linear and compress (empty: none). */
  static Set<String> options(String value) {
    Set<String> out = new LinkedHashSet<>();
    for (String part : value.split(",")) {
      String o = part.trim().toLowerCase(Locale.ROOT);
      if (o.isEmpty()) {
        continue;
      }
      if (!OPTION_LETTERS.containsKey(o)) {
        throw bad(OPTIONS, value, "a comma list of small, linear, compress (or nothing)");
      }
      out.add(o);
    }
    return out;
  }

  static int optionBits(Set<String> options) {
    int bits = 0;
    for (String o : options) {
      bits |= OPTION_BITS.get(o);
    }
    return bits;
  }

  private static EngineProperties.BadPropertyException bad(String name, String value, String expected) {
    return new EngineProperties.BadPropertyException(EngineProperties.refusal(name, value, expected));
  }

  /**
   * Refuses a compressor this build of the library lacks: compresses and reads back a record in
   * an in-memory database with it. (An unknown zcomp name would silently become zlib; the names
   * are checked before this, against {@link #COMPRESSORS}.)
   */
  static void checkCompressor(String compression, String zcomp) throws IOException {
    if (WORKING_COMPRESSORS.contains(zcomp)) {
      return;
    }
    byte[] value = new byte[4096];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) ("compressible " + (i % 7)).charAt(i % 13);
    }
    byte[] key = "probe".getBytes(StandardCharsets.US_ASCII);
    try {
      long db = KyotoNative.open(("*#bnum=64#opts=c#zcomp=" + zcomp).getBytes(StandardCharsets.US_ASCII),
          KyotoNative.OWRITER | KyotoNative.OCREATE);
      try {
        KyotoNative.set(db, key, value);
        if (!Arrays.equals(value, KyotoNative.get(db, key))) {
          throw new KyotoException(KyotoNative.EMISC, "the record read back differs from the one written");
        }
      } finally {
        KyotoNative.close(db);
      }
    } catch (KyotoException e) {
      throw new IOException("kyoto.compression = '" + compression + "' cannot be used: this build of the Kyoto"
          + " Cabinet library lacks the " + zcomp + " compressor (" + e.getMessage() + "); choose another of "
          + String.join(", ", new java.util.TreeSet<>(COMPRESSORS.keySet())) + " or none", e);
    }
    WORKING_COMPRESSORS.add(zcomp);
  }

  /** Turns the library's open errors into messages that say what is wrong and what to do. */
  static IOException explain(Path file, String compression, KyotoException e) {
    String where = file.toAbsolutePath().toString();
    String detail = e.detail();
    if (e.code() == KyotoNative.ESYSTEM && (detail.contains("fcntl") || detail.contains("lock"))) {
      return new IOException("Kyoto Cabinet database " + where + " is locked by another process (another YCSB"
          + " run or a kc*mgr command has it open): " + e.getMessage(), e);
    }
    if (e.code() == KyotoNative.EINVALID && detail.contains("module checksum")) {
      return new IOException("Kyoto Cabinet database " + where + " was written with another compressor than"
          + " kyoto.compression = '" + compression + "' (the file does not record it): the load and the run"
          + " must use the same kyoto.compression (" + e.getMessage() + ")", e);
    }
    if (e.code() == KyotoNative.EINVALID && detail.contains("magic")) {
      return new IOException(where + " is not a Kyoto Cabinet database (" + e.getMessage() + "); delete it,"
          + " or choose another path or kyoto.file", e);
    }
    if (e.code() == KyotoNative.ENOPERM || e.code() == KyotoNative.ENOREPOS) {
      return new IOException("cannot open or create Kyoto Cabinet database " + where + ": " + e.getMessage(), e);
    }
    return new IOException("cannot open Kyoto Cabinet database " + where + ": " + e.getMessage(), e);
  }

  /** What the file holds and how it is tuned, from the status report, in one line. */
  static String summary(Handle h) {
    try {
      Map<String, String> s = h.status();
      StringBuilder sb = new StringBuilder(h.file.toString()).append(": count=").append(s.get("count"))
          .append(" size=").append(s.get("size"));
      for (String k : List.of("psiz", "pccap", "opts", "bnum", "msiz", "chksum")) {
        if (s.containsKey(k)) {
          sb.append(' ').append(k).append('=').append(k.equals("opts") ? optionNames(s.get(k)) : s.get(k));
        }
      }
      return sb.toString();
    } catch (KyotoException | RuntimeException e) {
      return h.file + ": no status report (" + e.getMessage() + ")";
    }
  }

  /** The open mode as the library's flag names, with what a process crash costs in it. */
  static String modeNames(int mode) {
    List<String> names = new ArrayList<>();
    String[] all = {"OREADER", "OWRITER", "OCREATE", "OTRUNCATE", "OAUTOTRAN", "OAUTOSYNC", "ONOLOCK", "OTRYLOCK"};
    for (int bit = 0; bit < all.length; bit++) {
      if ((mode & (1 << bit)) != 0) {
        names.add(all[bit]);
      }
    }
    boolean autotran = (mode & KyotoNative.OAUTOTRAN) != 0;
    boolean autosync = (mode & KyotoNative.OAUTOSYNC) != 0;
    String crash = autotran
        ? (autosync ? "each write committed and fsynced before it returns" : "each write committed to the file before"
            + " it returns: a killed process loses nothing; a power cut can lose recent writes and damage the file")
        : (autosync ? "no transactions: a kill during a write can lose acknowledged writes"
            : "no transactions: a killed process loses every write still in the page cache");
    return String.join("|", names) + " (" + crash + ")";
  }

  /** "7" -> "7 (small,linear,compress)". */
  static String optionNames(String bits) {
    int b;
    try {
      b = Integer.parseInt(bits.trim());
    } catch (NumberFormatException e) {
      return bits;
    }
    List<String> names = new ArrayList<>();
    for (String o : List.of("small", "linear", "compress")) {
      if ((b & OPTION_BITS.get(o)) != 0) {
        names.add(o);
      }
    }
    return b + " (" + (names.isEmpty() ? "none" : String.join(",", names)) + ")";
  }

  /** Tuning fixed at creation that an existing file keeps even when other values are asked for. */
  static List<String> differences(Handle h, int pageSize, int optionBits) {
    List<String> out = new ArrayList<>();
    try {
      Map<String, String> s = h.status();
      if (h.tree && pageSize > 0 && !String.valueOf(pageSize).equals(s.get("psiz"))) {
        out.add("the existing file keeps its page size " + s.get("psiz") + "; " + PAGE_SIZE + " = " + pageSize
            + " applies to new files only");
      }
      if (!String.valueOf(optionBits).equals(s.get("opts"))) {
        out.add("the existing file keeps its options " + optionNames(s.get("opts")) + "; the requested "
            + optionNames(String.valueOf(optionBits)) + " apply to new files only");
      }
    } catch (KyotoException e) {
      out.add("no status report: " + e.getMessage());
    }
    return out;
  }
}
