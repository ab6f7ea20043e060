package site.ycsb.embedded.kyoto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import site.ycsb.embedded.NativeScanBuffer;

/**
 * One open Kyoto Cabinet database file, shared by every client thread of the JVM: open, the engine
 * primitives the client calls, the status report, close.
 */
public final class KyotoHandle {

  /** Scan buffer per thread; a value larger than it grows that thread's buffer. */
  static final int SCAN_BUFFER_BYTES = NativeScanBuffer.INITIAL_BYTES;

  /** Compressors already checked in this JVM: the check opens an in-memory database. */
  private static final Set<String> WORKING_COMPRESSORS = ConcurrentHashMap.newKeySet();

  private final KyotoOptions options;
  private final Path file;
  /** What the start-up header says beyond the tuning: the options' notes and an existing file's differences. */
  private final List<String> notes;
  /** The handle's pointer (kyotojni.c's handle around the KCDB); 0 once closed. */
  private volatile long db;
  /**
   * Whether each write runs in a transaction of its own now (kyoto.writetransactions): a TreeDB with
   * auto-transactions. Kyoto's own auto-transaction saves the leaf a write changed, but a write that splits a
   * leaf commits the file's transaction even when one of the split's pages could not be written (a full disk),
   * and the records moved to the unwritten page, acknowledged long before, are lost; an explicit transaction
   * rolls the whole write back instead (kyoto-binding/README.md, "A disk another process fills"). A HashDB's
   * auto-transaction covers each write whole. Under "auto", it turns on for good once the filesystem has less
   * than kyoto.writetransactions.below free.
   */
  private volatile boolean ownTransactions;
  /** Under "auto": when the next look at the free space is due (System.nanoTime()). */
  private volatile long nextSpaceCheck;
  /** Under "auto": the file's filesystem; null otherwise. */
  private final FileStore store;
  /** At most one look at the free space per this many nanoseconds of writes under "auto". */
  static final long SPACE_CHECK_NANOS = 100_000_000L;

  private KyotoHandle(KyotoOptions options, long db) {
    this.options = options;
    this.file = options.file();
    this.notes = new ArrayList<>(options.notes());
    this.db = db;
    String chosen = options.writeTransactions();
    this.ownTransactions = chosen.equals("true");
    FileStore fs = null;
    if (chosen.equals("auto")) {
      try {
        fs = Files.getFileStore(file.toAbsolutePath().getParent());
      } catch (IOException e) {
        ownTransactions = true; // the free space cannot be watched: the safe side
      }
    }
    this.store = fs;
    this.nextSpaceCheck = System.nanoTime(); // the first write looks at once (open() already did)
  }

  /** The start-up header's line on how writes reach the file (looks at the free space under "auto"). */
  private String writeTransactionsNote() {
    String chosen = options.writeTransactions();
    String name = KyotoOptions.WRITE_TRANSACTIONS + "=" + chosen;
    if (!options.isTree() || (options.mode() & KyotoNative.OAUTOTRAN) == 0) {
      return "writes: " + (options.isTree() ? "no auto-transactions (" + KyotoOptions.AUTOTRAN + "=false)"
          : "a HashDB's auto-transactions cover each write whole");
    }
    if (chosen.equals("auto")) {
      boolean now = writesInOwnTransactions();
      nextSpaceCheck = System.nanoTime() + SPACE_CHECK_NANOS;
      return "writes: " + name + ": Kyoto's auto-transactions while " + (store == null ? "?" : store) + " has at"
          + " least " + options.writeTransactionsBelow() + " bytes free, then each write in a transaction of its own"
          + " (a full disk loses no acknowledged record; 0.05x on workloada's mix); now: "
          + (now ? "each write in a transaction of its own" : "Kyoto's auto-transactions");
    }
    return "writes: " + name + (chosen.equals("true") ? ": each in a transaction of its own (0.05x on workloada's mix"
        + " at the 64 MB cache)" : ": Kyoto's auto-transactions alone: a disk another process fills can lose"
        + " records acknowledged before (kyoto-binding/README.md)");
  }

  /**
   * Whether this write runs in a transaction of its own: always or never as chosen, or under "auto" once the
   * free space was found below the threshold (a look at most every {@link #SPACE_CHECK_NANOS}).
   */
  boolean writesInOwnTransactions() {
    if (ownTransactions || store == null) {
      return ownTransactions;
    }
    long now = System.nanoTime();
    if (now - nextSpaceCheck < 0) {
      return false;
    }
    nextSpaceCheck = now + SPACE_CHECK_NANOS;
    long free;
    try {
      free = store.getUsableSpace();
    } catch (IOException e) {
      free = -1;
    }
    if (free < options.writeTransactionsBelow()) {
      ownTransactions = true;
      String below = KyotoOptions.WRITE_TRANSACTIONS_BELOW + "=" + options.writeTransactionsBelow();
      System.err.println("[kyoto] " + (free < 0 ? "the free space of " + store + " cannot be read"
          : store + " has " + free + " bytes free, below " + below) + ": from now on each write runs in a"
          + " transaction of its own (" + KyotoOptions.WRITE_TRANSACTIONS + "=auto), so that a full disk cannot lose"
          + " records acknowledged before");
    }
    return ownTransactions;
  }

  /**
   * Opens (creating it when missing) the database the options describe, after checking that this
   * build of the library has the compressor asked for; an error that says what is wrong and what to do.
   */
  public static KyotoHandle open(KyotoOptions options) throws IOException {
    KyotoNative.ensureLoaded();
    Path file = options.file();
    if (options.zcomp() != null) {
      checkCompressor(options.compression(), options.zcomp());
    }
    boolean existed = Files.isRegularFile(file) && Files.size(file) > 0;
    // Kyoto's repair can die of SIGBUS or an abort on a damaged file: it runs on a copy, in a process of its own
    KyotoRepair.Outcome repaired = existed && options.repair() ? KyotoRepair.repair(options) : null;
    long db;
    try {
      db = KyotoNative.open(options.tuning().getBytes(StandardCharsets.UTF_8), options.mode());
    } catch (KyotoException e) {
      throw explain(file, options.compression(), e);
    }
    KyotoHandle h = new KyotoHandle(options, db);
    if (repaired != null) {
      System.err.println("[kyoto] repair: " + repaired.describe() + "; now " + h.summary());
    } else if (options.repair()) {
      System.err.println("[kyoto] repair: " + KyotoOptions.REPAIR + "=true: " + file.toAbsolutePath()
          + " did not exist, nothing to repair");
    }
    if (existed) {
      h.notes.addAll(h.differences());
    }
    h.notes.add(h.writeTransactionsNote());
    if (options.isTree()) {
      h.notes.add(h.pastTheCacheNote());
    }
    return h;
  }

  /**
   * The start-up header's line on what a TreeDB's defaults cost once the file passes its map and page cache,
   * with the map and cache the library reports (kyoto-binding/README.md, "Defaults past the cache").
   */
  String pastTheCacheNote() {
    Map<String, String> s;
    try {
      s = status();
    } catch (KyotoException | RuntimeException e) {
      s = Map.of();
    }
    return pastTheCacheNote(s.getOrDefault("msiz", "?"), s.getOrDefault("pccap", "?"),
        (options.mode() & KyotoNative.OAUTOTRAN) != 0);
  }

  static String pastTheCacheNote(String msiz, String pccap, boolean autotran) {
    String where = "past the map (msiz=" + msiz + ") and the page cache (pccap=" + pccap + "): ";
    return autotran
        ? where + PAST_THE_CACHE_COST + " (" + KyotoOptions.AUTOTRAN + "=true, which keeps acknowledged writes"
            + " through a kill); kyoto-binding/README.md, \"Defaults past the cache\""
        : where + KyotoOptions.AUTOTRAN + "=false loads " + PAST_THE_CACHE_GAIN + " (a kill loses what the page"
            + " cache holds); kyoto-binding/README.md, \"Defaults past the cache\"";
  }

  /** What the README's "Defaults past the cache" measured for auto-transactions, for the header. */
  static final String PAST_THE_CACHE_COST = "auto-transactions load at about 1/4.6 of the speed without (workloada,"
      + " 1,000,000 x 100 B: 10,700 against 49,000 ops/s in 40 s), and each leaf split walks the whole page cache"
      + " (a 16 MB cache loads 1.5x faster, but runs C at 0.65x and A at 0.77x)";
  static final String PAST_THE_CACHE_GAIN = "about 4.6x faster than with auto-transactions (workloada, 1,000,000 x"
      + " 100 B: 49,000 against 10,700 ops/s in 40 s)";

  /** The pointer for a call; a clear error instead of a crash after close. */
  long ptr() {
    long p = db;
    if (p == 0) {
      throw new IllegalStateException("Kyoto Cabinet database " + file + " is closed");
    }
    return p;
  }

  /** The options the file was opened with. */
  public KyotoOptions options() {
    return options;
  }

  /** The database file. */
  public Path file() {
    return file;
  }

  /** The path and tuning string the file was opened with ("/x/ycsb.kct#opts=sl#..."). */
  public String tuning() {
    return options.tuning();
  }

  public boolean isTree() {
    return options.isTree();
  }

  /** The open mode passed to kcdbopen (KyotoNative.O* bits). */
  public int mode() {
    return options.mode();
  }

  /** The stored value under {@code key}, or null. */
  public byte[] get(byte[] key) throws KyotoException {
    return KyotoNative.get(ptr(), key);
  }

  public void put(byte[] key, byte[] value) throws KyotoException {
    boolean own = writesInOwnTransactions();
    try {
      KyotoNative.set(ptr(), key, value, own, options.sync());
    } catch (KyotoException e) {
      throw failedOutsideATransaction(own, e);
    }
  }

  /** Removes {@code key}; false when it was absent. */
  public boolean remove(byte[] key) throws KyotoException {
    boolean own = writesInOwnTransactions();
    try {
      return KyotoNative.remove(ptr(), key, own, options.sync());
    } catch (KyotoException e) {
      throw failedOutsideATransaction(own, e);
    }
  }

  /**
   * Under "auto", a write that failed in Kyoto's own auto-transaction, before the look at the free space
   * switched (a disk filled within the look's 100 ms): Kyoto may have committed part of it, the split that loses
   * records acknowledged before. So the switch is made at once, and the handle is treated as after a
   * transaction of the binding that could not be ended: it refuses every later call, and its close rolls the
   * file back to the last commit and flags it for Kyoto's repair at the next open. Returns {@code e}.
   */
  private KyotoException failedOutsideATransaction(boolean own, KyotoException e) {
    if (own || store == null || (e.code() != KyotoNative.ESYSTEM && e.code() != KyotoNative.EBROKEN)) {
      return e; // a refused record (too large, ...) changed nothing: only a failed file write can split a write
    }
    synchronized (this) {
      if (ownTransactions) {
        return e; // another thread's failure switched already; the handle refuses calls since
      }
      ownTransactions = true;
    }
    String why = "a write in Kyoto's own auto-transaction failed (" + e.getMessage() + "), which may have"
        + " committed part of it";
    KyotoNative.markFailed(ptr(), e.code(), why.getBytes(StandardCharsets.UTF_8));
    System.err.println("[kyoto] " + why + ": from now on each write runs in a transaction of its own ("
        + KyotoOptions.WRITE_TRANSACTIONS + "=auto), and this handle takes no more calls: its close rolls "
        + file.getFileName() + " back to the last commit and flags it for Kyoto's repair at the next open");
    return e;
  }

  /**
   * One transaction for the pairs. Kyoto's transactions are database-wide: a batch waits for another
   * thread's batch to commit, and writes other threads make meanwhile commit with it.
   */
  public void putInTransaction(byte[][] keys, byte[][] values, int count) throws KyotoException {
    KyotoNative.setInTransaction(ptr(), keys, values, count, options.sync());
  }

  /** Runs {@code use} over the fills of a cursor placed at {@code start}, destroyed afterwards. */
  public void withCursor(byte[] start, int count, NativeScanBuffer.FillUser use) throws IOException {
    if (!options.isTree() && start.length > 0) {
      throw new IOException("a HashDB (" + file.getFileName() + ") has no key order: a scan from a start key"
          + " needs a TreeDB (kyoto.file=*.kct); only whole-database passes (start key \"\") work");
    }
    if (count <= 0) {
      return;
    }
    long cursor = KyotoNative.cursor(ptr());
    try {
      if (KyotoNative.jump(cursor, start)) {
        use.accept((buf, max) -> KyotoNative.fill(cursor, buf, max));
      }
    } finally {
      KyotoNative.destroy(cursor);
    }
  }

  /** The library's status report (kcdbstatus): psiz, pccap, opts, count, size, bnum, ... */
  public Map<String, String> status() throws KyotoException {
    return parseStatus(KyotoNative.status(ptr()));
  }

  /** The library's status report ("name TAB value" lines) as a map. */
  static Map<String, String> parseStatus(byte[] report) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String line : new String(report, StandardCharsets.UTF_8).split("\n")) {
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
  public synchronized void close() throws KyotoException {
    long p = db;
    if (p == 0) {
      return;
    }
    db = 0;
    KyotoNative.close(p);
  }

  /** The engine, version, tuning, open mode, contents and notes, for the start-up header. */
  String describe() {
    StringBuilder sb = new StringBuilder("Kyoto Cabinet ").append(KyotoNative.version())
        .append(isTree() ? " TreeDB" : " HashDB").append(" (system library through kyotojni)")
        .append(String.format("%n[kyoto] opened with %s, mode %s%n[kyoto] ", tuning(),
            KyotoOptions.modeNames(mode())))
        .append(summary());
    for (String note : notes) {
      sb.append(String.format("%n[kyoto] NOTE: %s", note));
    }
    return sb.toString();
  }

  /** What the file holds and how it is tuned, from the status report, in one line. */
  String summary() {
    try {
      Map<String, String> s = status();
      StringBuilder sb = new StringBuilder(file.toString()).append(": count=").append(s.get("count"))
          .append(" size=").append(s.get("size"));
      for (String k : List.of("psiz", "pccap", "opts", "bnum", "msiz", "chksum")) {
        if (s.containsKey(k)) {
          sb.append(' ').append(k).append('=').append(k.equals("opts") ? KyotoOptions.optionNames(s.get(k))
              : s.get(k));
        }
      }
      return sb.toString();
    } catch (KyotoException | RuntimeException e) {
      return file + ": no status report (" + e.getMessage() + ")";
    }
  }

  /** Tuning fixed at creation that an existing file keeps even when other values are asked for. */
  private List<String> differences() {
    List<String> out = new ArrayList<>();
    int pageSize = options.pageSize();
    int optionBits = options.optionBits();
    try {
      Map<String, String> s = status();
      if (isTree() && pageSize > 0 && !String.valueOf(pageSize).equals(s.get("psiz"))) {
        out.add("the existing file keeps its page size " + s.get("psiz") + "; " + KyotoOptions.PAGE_SIZE + " = "
            + pageSize + " applies to new files only");
      }
      if (!String.valueOf(optionBits).equals(s.get("opts"))) {
        out.add("the existing file keeps its options " + KyotoOptions.optionNames(s.get("opts")) + "; the requested "
            + KyotoOptions.optionNames(String.valueOf(optionBits)) + " apply to new files only");
      }
    } catch (KyotoException e) {
      out.add("no status report: " + e.getMessage());
    }
    return out;
  }

  /**
   * Refuses a compressor this build of the library lacks: compresses and reads back a record in
   * an in-memory database with it. (An unknown zcomp name would silently become zlib; the names
   * are checked before this, against {@link KyotoOptions#COMPRESSORS}.)
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
        KyotoNative.set(db, key, value, false, false);
        if (!Arrays.equals(value, KyotoNative.get(db, key))) {
          throw new KyotoException(KyotoNative.EMISC, "the record read back differs from the one written");
        }
      } finally {
        KyotoNative.close(db);
      }
    } catch (KyotoException e) {
      throw new IOException("kyoto.compression = '" + compression + "' cannot be used: this build of the Kyoto"
          + " Cabinet library lacks the " + zcomp + " compressor (" + e.getMessage() + "); choose another of "
          + String.join(", ", new java.util.TreeSet<>(KyotoOptions.COMPRESSORS.keySet())) + " or none", e);
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
}
