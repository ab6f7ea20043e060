package site.ycsb.embedded;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Refuses writes while the data directory's filesystem has less free space than a margin.
 *
 * <p>LevelDB (leveldbjni) and Kyoto Cabinet write through memory maps: on a full filesystem the
 * page fault is a SIGBUS that kills the JVM, and no exception is ever thrown. So the binding must
 * stop before the engine touches the map. The margin is what the engine may still write after the
 * last accepted write: its background flushes and compactions, the file or map growth in progress,
 * the flush at close. The free space is read (one statvfs) once every {@link #CHECK_EVERY_BYTES}
 * bytes written by all client threads together, and on every write while it is below the margin.
 *
 * <p>An engine may hold what it was given in memory and write it to its file only at close (Kyoto's
 * TreeDB does, for large records): the filesystem does not show that yet, so such an engine names a
 * share of the bytes written since open that is reserved on top of the margin.
 *
 * <p>The margin covers writes of ordinary size. A write larger than a look's interval is looked at
 * before it reaches the engine, and must also fit itself, times the number of copies the engine may
 * hold of it at once (its write factor: LevelDB's log, the table its flush writes, and a compaction's
 * output): a 40 MB value on a disk with less room was accepted and crashed leveldbjni.
 *
 * <p>Writes run concurrently: several clients can each find room for their own large write at the same look and
 * then write one after the other (LMDB's writers wait on its mutex), past the end of the disk: 16 writers of
 * 4 MB values through LMDB's write map were a SIGBUS. So a write looked at on its own is held in reserve (its
 * copies) from before its look until its client says it was applied ({@link Counter#applied}), and every look
 * counts what the other clients' writes hold.
 *
 * <p>Counted bytes are an estimate. Where one write can grow the engine's files by far more than it
 * counts (LMDB, when a reader of another process pins a snapshot, copies a whole path of pages per
 * 100-byte update: 12 KB), the engine hands the guard what its files really use ({@link #follow}),
 * read cheaply every few writes, and the guard looks again whenever that grew by a look's interval.
 */
public final class DiskSpaceGuard {

  /** Bytes written between two looks at the free space; the margin must cover them too. */
  public static final long CHECK_EVERY_BYTES = 1L << 20;

  /** Bytes one client thread counts on its own before adding them to the shared total ({@link Counter}). */
  public static final long CLIENT_SHARE_BYTES = 64L << 10;

  /**
   * Writes of one client thread between two reads of what the engine's files use ({@link #follow}): a power of
   * two. The margin covers what as many writes of every client can grow the files by (LMDB: a path of pages each).
   */
  public static final int GROWTH_READ_EVERY_WRITES = 8;

  /** One guard per data directory per JVM, so that every client thread counts into one total. */
  private static final Map<String, DiskSpaceGuard> GUARDS = new ConcurrentHashMap<>();

  private final Path dir;
  private final long margin;
  private final double deferredShare;
  private final double writeFactor;
  private final AtomicLong sinceCheck = new AtomicLong();
  private final AtomicLong sinceOpen = new AtomicLong();
  /** The copies of the writes looked at on their own that their clients have not applied yet (see {@link Counter}). */
  private final AtomicLong held = new AtomicLong();
  private volatile FileStore store;
  /** What the engine's files use now, read before every write (see {@link #follow}); null: counted bytes only. */
  private volatile LongSupplier used;
  /** What {@link #used} said at the last look; written only when the guard looks. */
  private volatile long usedAtLook;
  /** Set while the last look found too little space: then every write looks again. */
  private volatile boolean low;
  /** Set once a refusal since the last open was handed out to be said (see {@link #firstRefusal}). */
  private final AtomicBoolean refusalSaid = new AtomicBoolean();

  private DiskSpaceGuard(Path dir, long margin, double deferredShare, double writeFactor) {
    this.dir = dir;
    this.margin = margin;
    this.deferredShare = deferredShare;
    this.writeFactor = writeFactor;
  }

  /**
   * The guard of {@code dir} with {@code margin} bytes (0: no guard, every write passes), reserving
   * also {@code deferredShare} times the bytes written since open; a write must fit once on top.
   */
  public static DiskSpaceGuard of(Path dir, long margin, double deferredShare) {
    return of(dir, margin, deferredShare, 1);
  }

  /** As {@link #of(Path, long, double)}, a write having to fit {@code writeFactor} times on top (at least 1). */
  public static DiskSpaceGuard of(Path dir, long margin, double deferredShare, double writeFactor) {
    if (!(writeFactor >= 1)) {
      throw new IllegalArgumentException("write factor " + writeFactor + ": a write takes its own size at least");
    }
    Path abs = dir.toAbsolutePath().normalize();
    return GUARDS.computeIfAbsent(abs + "\n" + margin + "\n" + deferredShare + "\n" + writeFactor,
        k -> new DiskSpaceGuard(abs, margin, deferredShare, writeFactor));
  }

  /** The engine was (re)opened: nothing written since. */
  public void opened() {
    held.set(0); // every client of the last open applied or dropped its writes
    sinceOpen.set(0);
    sinceCheck.set(0);
    refusalSaid.set(false);
  }

  /**
   * Follows the engine's real file growth: {@code usedBytes} says how many bytes its files use now (LMDB: its
   * last page), cheaply enough to be read before every {@link #GROWTH_READ_EVERY_WRITES}th write of a client (and
   * every write through the guard itself); whenever that has grown by {@link #CHECK_EVERY_BYTES} since the last
   * look, the write looks at the free space, whatever was counted. Null
   * stops following (before the engine closes: the supplier may read what the close frees).
   */
  public void follow(LongSupplier usedBytes) {
    if (usedBytes != null) {
      usedAtLook = usedBytes.getAsLong();
    }
    used = usedBytes;
  }

  /** Looks at the free space when the engine's files grew by a look's interval since the last look. */
  private void checkGrowth() throws DiskFullException {
    LongSupplier u = used;
    if (u != null) {
      long now = u.getAsLong();
      if (now - usedAtLook >= CHECK_EVERY_BYTES) {
        usedAtLook = now;
        check("write", 0, held.get());
      }
    }
  }

  /**
   * True for the first caller after each open: the refusal it holds is to be printed whatever else
   * was printed before, since it says why every later write fails (a binding prints only its first
   * few errors per JVM, and a long run or another DB in the same JVM may have used them up).
   */
  public boolean firstRefusal() {
    return !refusalSaid.getAndSet(true);
  }

  public long margin() {
    return margin;
  }

  /**
   * Counts {@code bytes} about to be written; every so often, and before every write of more than a
   * look's interval, checks that the free space holds the margin and the write's own copies.
   */
  public void beforeWrite(long bytes) throws DiskFullException {
    held.addAndGet(-count(bytes, bytes));
  }

  /**
   * Counts {@code bytes} written in writes of which the largest had {@code largest} bytes. When that one is
   * looked at on its own, its copies are held in reserve before the look, and stay held (the amount returned)
   * until the caller releases them; 0 otherwise.
   */
  private long count(long bytes, long largest) throws DiskFullException {
    if (margin == 0) {
      return 0;
    }
    checkGrowth();
    if (deferredShare > 0) {
      sinceOpen.addAndGet(bytes);
    }
    if (low || sinceCheck.addAndGet(bytes) >= CHECK_EVERY_BYTES) {
      sinceCheck.set(0);
      if (largest < CHECK_EVERY_BYTES) {
        check("write", 0, held.get()); // the margin covers the smaller ones
        return 0;
      }
      long hold = (long) Math.ceil(writeFactor * largest);
      long others = held.getAndAdd(hold);
      try {
        check("write", largest, others);
      } catch (DiskFullException | RuntimeException e) {
        held.addAndGet(-hold);
        throw e;
      }
      return hold;
    }
    return 0;
  }

  /** A counter for one client thread ({@link Counter}). */
  public Counter counter() {
    return new Counter();
  }

  /**
   * One client thread's count in front of the guard's shared total: it adds its small writes to the total
   * once they reach {@link #CLIENT_SHARE_BYTES}, so that a write does not update a shared atomic counter (a
   * cache line that every thread's writes and the engine's own work pull away: 40 ns per update on a large
   * LevelDB, docs/performance.md). The margin covers those bytes too: they are at most one share per client
   * thread. While the free space is low every write is looked at, as through the guard itself.
   */
  public final class Counter {
    private long pending;
    private int writes;
    /** What this client's writes looked at on their own hold in the guard's reserve until {@link #applied}. */
    private long holding;

    private Counter() {
    }

    /**
     * As {@link DiskSpaceGuard#beforeWrite}, counting small writes here first. A write looked at on its own (a
     * look's interval or more) stays held in reserve, for every other client's look, until {@link #applied}.
     */
    public void beforeWrite(long bytes) throws DiskFullException {
      if (margin == 0) {
        return;
      }
      if ((++writes & (GROWTH_READ_EVERY_WRITES - 1)) == 0) {
        checkGrowth(); // a volatile read while the guard follows nothing, and no shared write
      }
      if (bytes < CLIENT_SHARE_BYTES && !low) {
        pending += bytes;
        if (pending < CLIENT_SHARE_BYTES) {
          return;
        }
        bytes = 0;
      }
      long counted = pending + bytes;
      pending = 0;
      holding += count(counted, bytes);
    }

    /**
     * This client's writes so far reached the engine's files, or failed (a batch still waiting keeps its inserts
     * held): what they held in reserve is the free space's to show now.
     */
    public void applied() {
      if (holding != 0) {
        held.addAndGet(-holding);
        holding = 0;
      }
    }
  }

  /**
   * Checks the free space now; {@code what} names the refused action in the message ("open").
   *
   * @throws DiskFullException naming the filesystem, the directory, the free space and the margin
   */
  public void check(String what) throws DiskFullException {
    check(what, 0, held.get());
  }

  /** The free bytes of the data directory's filesystem, or -1 when they cannot be read. */
  public long free() {
    try {
      return fileStore().getUsableSpace();
    } catch (IOException e) {
      return -1;
    }
  }

  /** "'tmpfs' (tmpfs) mounted on /mnt/x", or the directory when the filesystem cannot be read. */
  public String filesystem() {
    try {
      return describe(fileStore());
    } catch (IOException e) {
      return "the filesystem of " + dir;
    }
  }

  /**
   * {@code e}, or, when it is (or was caused by) an engine's I/O error (EIO, "Input/output error") and the
   * data directory's filesystem has less than {@link #CHECK_EVERY_BYTES} free now, a {@link DiskFullException}
   * saying that the disk is full, with the free bytes, {@code e} as its cause. An engine may report a write the
   * full disk cut short as EIO, not ENOSPC: LMDB does when a commit's pwritev writes fewer bytes than asked.
   * Whatever the guard's margin, 0 included.
   */
  public Exception explain(Exception e) {
    if (e instanceof DiskFullException || !isIoError(e)) {
      return e;
    }
    long free = free();
    if (free < 0 || free >= CHECK_EVERY_BYTES) {
      return e; // room enough: a real I/O error, as the engine said
    }
    DiskFullException full = new DiskFullException(String.format("the disk is full: the filesystem %s holding %s"
        + " has %d bytes free (the engine reported an I/O error, as it does for a write the full disk cut short:"
        + " %s); free some space and reopen", filesystem(), dir, free, e.getMessage()));
    full.initCause(e);
    return full;
  }

  /** Whether {@code e} or one of its causes names EIO (errno 5), as "EIO" or as strerror's "Input/output error". */
  static boolean isIoError(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String m = String.valueOf(t.getMessage());
      if (m.contains("Input/output error") || m.matches("(?s).*\\bEIO\\b.*")) {
        return true;
      }
    }
    return false;
  }

  /** Checks that the free space holds the margin, {@code writeBytes}' copies and {@code others} held by others. */
  private void check(String what, long writeBytes, long others) throws DiskFullException {
    if (margin == 0) {
      return;
    }
    long free;
    FileStore fs;
    try {
      fs = fileStore();
      free = fs.getUsableSpace();
    } catch (IOException e) {
      // The directory is unreadable: the engine's own call will say so more precisely.
      return;
    }
    long deferred = (long) (deferredShare * sinceOpen.get());
    long write = (long) Math.ceil(writeFactor * writeBytes);
    low = free < margin + deferred + write + others;
    if (low) {
      throw new DiskFullException(String.format("%s refused: the filesystem %s holding %s has %s free, less than"
              + " the %s the engine needs in reserve: %s for its background flushes, file growth and the flush at"
              + " close (property diskspacemargin, 0 turns the check off)%s%s%s; free some space and reopen",
          what, describe(fs), dir, mb(free), mb(margin + deferred + write + others), mb(margin),
          deferred == 0 ? "" : " and " + mb(deferred) + " for what it holds in memory until close",
          others == 0 ? "" : " and " + mb(others) + " for other clients' large writes under way",
          write == 0 ? "" : String.format(" and %s for this write (%d bytes, %s times: the copies the engine may"
              + " hold at once)", mb(write), writeBytes, BigDecimal.valueOf(writeFactor).stripTrailingZeros()
              .toPlainString())));
    }
  }

  private FileStore fileStore() throws IOException {
    FileStore fs = store;
    if (fs == null) {
      fs = Files.getFileStore(dir);
      store = fs;
    }
    return fs;
  }

  /** "tmpfs mounted on /mnt/x" from the store's toString ("/mnt/x (tmpfs)") and its type. */
  private static String describe(FileStore fs) {
    String s = fs.toString();
    int paren = s.lastIndexOf(" (");
    String mount = paren > 0 ? s.substring(0, paren) : s;
    return "'" + fs.name() + "' (" + fs.type() + ") mounted on " + mount;
  }

  static String mb(long bytes) {
    return String.format("%.1f MB", bytes / 1048576.0);
  }

  /** Too little free space on the data directory's filesystem: the write was not attempted. */
  public static final class DiskFullException extends IOException {
    private static final long serialVersionUID = 1L;

    public DiskFullException(String message) {
      super(message);
    }
  }
}
