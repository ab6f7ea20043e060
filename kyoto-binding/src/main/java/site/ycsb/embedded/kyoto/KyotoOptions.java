package site.ycsb.embedded.kyoto;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import site.ycsb.embedded.EngineProperties;

/**
 * The Kyoto binding's properties: names, defaults and ranges, read and checked once into the tuning
 * string and open mode that {@link KyotoHandle#open} passes to kcdbopen, and the read-back text of the
 * effective configuration. Property table: kyoto-binding/README.md.
 */
public final class KyotoOptions {

  // Engine-neutral knobs (kyoto.<name> overrides <name>); see EngineProperties.
  //   path             directory holding the database file (kyoto.file)
  //   batchsize        inserts per transaction (begin, N sets, commit)
  //   sync             auto-sync (OAUTOSYNC): with kyoto.autotran every write is its own transaction
  //                    committed with fsync; commits of batches sync the device
  //   writebuffersize  does not apply: Kyoto keeps dirty pages in its page cache (cachesize)
  /**
   * TreeDB page cache capacity (pccap) in bytes; Kyoto's own default is 64 MB. A 16 MB cache loads 1.5x faster
   * past it (auto-transactions walk the cache at each leaf split) but runs workload C at 0.65x: it stays (README,
   * "Defaults past the cache").
   */
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
  /**
   * Whether each write of a TreeDB with auto-transactions runs in a transaction of the binding's own
   * (kcdbbegintran, the write, kcdbendtran): Kyoto's auto-transaction commits a leaf split even when the new
   * leaf could not be written (a full disk), losing records acknowledged long before (README, "A disk another
   * process fills"). Kyoto's begin and commit walk its whole page cache, so it costs: 0.05x on workloada's mix at
   * the 64 MB cache. true: always; false: never (Kyoto's auto-transactions alone, at their speed, with that
   * risk); auto: from the moment the filesystem has less than {@link #WRITE_TRANSACTIONS_BELOW} free, checked at
   * open and then at most every 100 ms as writes come, and for the rest of the handle's life.
   */
  public static final String WRITE_TRANSACTIONS = "kyoto.writetransactions";
  public static final String WRITE_TRANSACTIONS_DEFAULT = "auto";
  /** Under writetransactions=auto: the free space of the file's filesystem below which each write is a transaction. */
  public static final String WRITE_TRANSACTIONS_BELOW = "kyoto.writetransactions.below";
  /**
   * Runs Kyoto's repair at open (the file rebuilt from the records it holds, a TreeDB's tree from its leaf
   * pages), and opens a file shorter than its header records, which is otherwise refused.
   */
  public static final String REPAIR = "kyoto.repair";
  public static final long WRITE_TRANSACTIONS_BELOW_DEFAULT = 1L << 30;
  /** Memory-mapped region (msiz) in bytes; Kyoto's own default is 64 MB. */
  public static final String MAP_SIZE = "kyoto.mapsize";
  public static final long MAP_SIZE_DEFAULT = 64L << 20;

  /** compression value -> the library's zcomp name. The compressor is not recorded in the file. */
  public static final Map<String, String> COMPRESSORS = Map.of(
      "zlib", "zlib", "deflate", "def", "gzip", "gz", "lzo", "lzo", "lzma", "lzma");

  /** kyoto.options value -> the letter of "#opts=" and its bit in the status report's opts. */
  static final Map<String, Character> OPTION_LETTERS = Map.of("small", 's', "linear", 'l', "compress", 'c');
  static final Map<String, Integer> OPTION_BITS = Map.of("small", 1, "linear", 2, "compress", 4);

  private final Path file;
  private final boolean tree;
  private final String compression;
  private final String zcomp;
  private final boolean sync;
  private final int pageSize;
  private final long cacheSize;
  private final int optionBits;
  private final String tuning;
  private final int mode;
  private final String writeTransactions;
  private final long writeTransactionsBelow;
  private final boolean repair;
  private final List<String> notes;

  private KyotoOptions(Path file, boolean tree, String compression, String zcomp, boolean sync, int pageSize,
      long cacheSize, int optionBits, String tuning, int mode, String writeTransactions, long writeTransactionsBelow,
      boolean repair, List<String> notes) {
    this.file = file;
    this.tree = tree;
    this.compression = compression;
    this.zcomp = zcomp;
    this.sync = sync;
    this.pageSize = pageSize;
    this.cacheSize = cacheSize;
    this.optionBits = optionBits;
    this.tuning = tuning;
    this.mode = mode;
    this.writeTransactions = writeTransactions;
    this.writeTransactionsBelow = writeTransactionsBelow;
    this.repair = repair;
    this.notes = Collections.unmodifiableList(notes);
  }

  /** Reads and checks every Kyoto property for a database in {@code dir}; a bad value is refused by name. */
  public static KyotoOptions read(EngineProperties props, Path dir) {
    String fileName = props.string(FILE, FILE_DEFAULT);
    if (!fileName.matches("[A-Za-z0-9._-]+\\.(kct|kch)")) {
      throw bad(FILE, fileName, "a file name ending in .kct (TreeDB) or .kch (HashDB)");
    }
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
    String writeTransactions = props.choice(WRITE_TRANSACTIONS, WRITE_TRANSACTIONS_DEFAULT, "auto", "true", "false");
    long writeTransactionsBelow = props.size(WRITE_TRANSACTIONS_BELOW, WRITE_TRANSACTIONS_BELOW_DEFAULT);
    boolean repair = props.bool(REPAIR, false);
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
    if (!(tree && autotran)) {
      for (String treeAutotranOnly : List.of(WRITE_TRANSACTIONS, WRITE_TRANSACTIONS_BELOW)) {
        if (props.isSet(treeAutotranOnly)) {
          notes.add(treeAutotranOnly + " applies to a TreeDB (.kct) with " + AUTOTRAN + "=true only; ignored");
        }
      }
      writeTransactions = "false";
    }
    if (sync && !autotran) {
      notes.add("sync=true with " + AUTOTRAN + "=false is auto-sync alone (the 2011 db_bench mode): a killed"
          + " process can lose writes that returned OK and leave a file that kctreemgr check rejects");
    }
    int mode = KyotoNative.OWRITER | KyotoNative.OCREATE | KyotoNative.OTRYLOCK
        | (autotran ? KyotoNative.OAUTOTRAN : 0) | (sync ? KyotoNative.OAUTOSYNC : 0);
    return new KyotoOptions(file, tree, compression, zcomp, sync, pageSize, cacheSize, optionBits(options),
        tuning.toString(), mode, writeTransactions, writeTransactionsBelow, repair, notes);
  }

  /** The database file. */
  public Path file() {
    return file;
  }

  /** Whether the file is a TreeDB (ordered, .kct) rather than a HashDB (.kch). */
  public boolean isTree() {
    return tree;
  }

  /** The compression value in effect ("zlib" when kyoto.options names compress alone). */
  public String compression() {
    return compression;
  }

  /** The library's compressor name, or null without compression. */
  public String zcomp() {
    return zcomp;
  }

  /** "true", "false" or "auto" ({@link #WRITE_TRANSACTIONS}); "false" where it does not apply. */
  public String writeTransactions() {
    return writeTransactions;
  }

  /** Under writetransactions=auto, the free bytes below which each write is a transaction of its own. */
  public long writeTransactionsBelow() {
    return writeTransactionsBelow;
  }

  /** Whether Kyoto's repair runs at open ({@value #REPAIR}). */
  public boolean repair() {
    return repair;
  }

  /** Whether writes and batch commits sync the device (sync=true). */
  public boolean sync() {
    return sync;
  }

  /** The page size asked for a TreeDB (0 for a HashDB). */
  public int pageSize() {
    return pageSize;
  }

  /** The TreeDB page cache (pccap) in bytes (0 for a HashDB): dirty pages the file may still grow by. */
  public long pageCacheBytes() {
    return cacheSize;
  }

  /** The tune_options bits asked for (small 1, linear 2, compress 4). */
  public int optionBits() {
    return optionBits;
  }

  /** The path and tuning string kcdbopen parses ("/x/ycsb.kct#opts=sl#..."). */
  public String tuning() {
    return tuning;
  }

  /** The tuning string without the path ("#opts=sl#..."). */
  public String tuningSuffix() {
    return tuning.substring(file.toAbsolutePath().toString().length());
  }

  /** The open mode passed to kcdbopen (KyotoNative.O* bits). */
  public int mode() {
    return mode;
  }

  /** What the start-up header should say about properties that do not apply or are risky. */
  public List<String> notes() {
    return notes;
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
}
