package site.ycsb.embedded.lmdb;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.EnvInfo;
import org.lmdbjava.GetOp;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Meta;
import org.lmdbjava.PutFlags;
import org.lmdbjava.Stat;
import org.lmdbjava.Txn;
import org.lmdbjava.TxnFlags;

import site.ycsb.embedded.EngineFiles;
import site.ycsb.embedded.KeyValueDB;
import site.ycsb.embedded.OncePerJvm;

/**
 * One open LMDB environment (a directory with data.mdb and lock.mdb) and its one unnamed database,
 * shared by every client thread of the JVM: open, the engine primitives, statistics, close.
 *
 * <p>Writes: a write transaction per call (one per operation or per batch); LMDB lets one run at a
 * time and makes the others wait on its writer mutex. Reads: each client thread keeps one read
 * transaction ({@link #reader}) and its reader slot; it is renewed for a read and reset after it, or
 * (lmdb.readsnapshot=client) kept until a write commits, see {@link Reader}. The handle closes any
 * a client left open before it closes the environment, so nothing outlives it. Keys and values cross
 * as byte arrays through {@link HeldBytesProxy}, not lmdbjava's own byte-array proxy, which can let a
 * key's native copy be freed while LMDB reads it.
 */
public final class LmdbHandle {

  /**
   * LMDB's lock file (lmdb-doc's "Reader Lock Table", MDB_txninfo): a header of two cache lines (the
   * reader table's magic, format, mutex, last transaction and count; the writer's mutex), then one
   * cache line (MDB_reader, padded to CACHELINE = 64) per reader slot. LMDB grows a shorter file to
   * that with ftruncate and writes it through a shared map; a longer one is kept as it is, and its
   * length then sets the number of reader slots.
   */
  static final int LOCK_CACHE_LINE = 64;
  static final int LOCK_HEADER_LINES = 2;

  /** No flags, as null: lmdbjava masks a null array without a stream ({@link #writeTxn}). */
  private static final TxnFlags[] NO_TXN_FLAGS = null;
  private static final PutFlags[] NO_PUT_FLAGS = null;

  private final LmdbOptions options;
  private final Path dir;
  private final Env<byte[]> env;
  private final Dbi<byte[]> dbi;
  /** Every reader handed out and not yet released: closed before the environment. */
  private final Set<Reader> readers = ConcurrentHashMap.newKeySet();
  /** Write transactions committed through this handle: a kept snapshot older than the count is renewed. */
  private final AtomicLong commits = new AtomicLong();
  private final List<String> notes;
  private boolean closed;
  /** data.mdb's meta pages, mapped for the free-space guard ({@link #followMetaPages}); null until then. */
  private LmdbMetaPages meta;

  private LmdbHandle(LmdbOptions options, Path dir, Env<byte[]> env, Dbi<byte[]> dbi, List<String> notes) {
    this.options = options;
    this.dir = dir;
    this.env = env;
    this.dbi = dbi;
    this.notes = notes;
  }

  /** Opens (creating it when missing) the environment in {@code dir}, which must exist. */
  public static LmdbHandle open(LmdbOptions options, Path dir) throws IOException {
    LmdbLibrary.load(options.library()); // before any file is touched: a refusal leaves the directory as it was
    reserveLockFile(dir, options.maxReaders());
    LmdbTree.refuseDamaged(dir); // LMDB would open a damaged tree without a word
    Env<byte[]> env;
    try {
      env = Env.create(HeldBytesProxy.INSTANCE).setMapSize(options.mapSize()).setMaxReaders(options.maxReaders())
          .setMaxDbs(1).open(dir.toFile(), options.flags().toArray(new EnvFlags[0]));
    } catch (LmdbException e) {
      throw new IOException("cannot open the LMDB environment in " + dir.toAbsolutePath() + ": " + e.getMessage(), e);
    }
    try {
      Dbi<byte[]> dbi = env.openDbi((byte[]) null, DbiFlags.MDB_CREATE);
      List<String> notes = new ArrayList<>(options.notes());
      long mapSize = env.info().mapSize;
      if (mapSize != options.mapSize()) {
        notes.add("the environment keeps a map of " + mapSize + " bytes, not " + LmdbOptions.MAP_SIZE + " = "
            + options.mapSize() + ": LMDB never maps less than the data file already uses");
      }
      return new LmdbHandle(options, dir, env, dbi, notes);
    } catch (RuntimeException e) { // lmdbjava's LmdbException among them
      env.close();
      throw new IOException("cannot open the database in the LMDB environment " + dir.toAbsolutePath() + ": "
          + e.getMessage(), e);
    }
  }

  /** The bytes of LMDB's lock file for {@code maxReaders} reader slots (8192 for LMDB's default 126). */
  static long lockFileBytes(int maxReaders) {
    return (long) (LOCK_HEADER_LINES + maxReaders) * LOCK_CACHE_LINE;
  }

  /**
   * Gives lock.mdb real blocks before LMDB maps it: zeros written with write(2) over the whole length
   * LMDB will map (an older, longer file is cut to it). LMDB grows the file with ftruncate, which takes
   * no blocks, then stores its header through a shared map; on a full disk that first store is a SIGBUS
   * that kills the JVM (seen on a full tmpfs with diskspacemargin=0). Here a full disk is ENOSPC from the
   * write, and the open is refused. Zeros are what LMDB itself starts from: the process that opens the
   * environment alone rebuilds the table. Refused as well when another process has the environment open
   * (it holds LMDB's lock on the file's first byte): its table must not be overwritten. This process has
   * no environment open on {@code dir} (one per directory per JVM, SharedHandles), so the lock is not its own.
   */
  static void reserveLockFile(Path dir, int maxReaders) throws IOException {
    Path file = dir.resolve(EngineFiles.LMDB_LOCK_FILE);
    long bytes = lockFileBytes(maxReaders);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      // LMDB's own lock (fcntl on byte 0); closing this channel releases it before LMDB opens the file
      if (ch.tryLock(0, 1, false) == null) {
        throw new IOException("another process has the LMDB environment in " + dir.toAbsolutePath() + " open (it"
            + " holds LMDB's lock on " + file.getFileName() + "); nothing was changed");
      }
      try {
        if (ch.size() > bytes) {
          ch.truncate(bytes);
        }
        ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(bytes, 1 << 16));
        long at = 0;
        while (at < bytes) {
          zeros.clear().limit((int) Math.min(zeros.capacity(), bytes - at));
          at += ch.write(zeros, at);
        }
      } catch (IOException e) {
        throw new IOException("cannot give LMDB's lock file " + file.toAbsolutePath() + " its " + bytes
            + " bytes (" + LmdbOptions.MAX_READERS + " = " + maxReaders + " reader slots): " + e.getMessage()
            + ". LMDB writes that file through a memory map, where a full disk is a SIGBUS that kills the JVM,"
            + " so the open is refused", e);
      }
    }
  }

  /**
   * Maps data.mdb's meta pages, so that {@link #usedBytes} can be read every few writes; once, after open.
   * On failure the caller closes the handle.
   */
  synchronized void followMetaPages() throws IOException {
    if (meta == null) {
      meta = LmdbMetaPages.map(dir.resolve(EngineFiles.LMDB_DATA_FILE), env.stat().pageSize);
    }
  }

  /** The bytes of data.mdb up to the last page LMDB used, from its newer meta page (a few memory reads). */
  long usedBytes() {
    return meta.usedBytes();
  }

  public LmdbOptions options() {
    return options;
  }

  /** The environment's figures read back after open: map size, reader slots, last page and transaction. */
  public EnvInfo info() {
    return env.info();
  }

  /** The database's figures: page size, depth, entries, branch, leaf and overflow pages. */
  public Stat stat() {
    return env.stat();
  }

  /** The longest key LMDB stores (511 bytes in this build). */
  public int maxKeySize() {
    return env.getMaxKeySize();
  }

  /**
   * One client's read transaction and its reader slot, used from one thread at a time. With
   * lmdb.readsnapshot=operation a read or scan renews it and resets it after, so no snapshot is held
   * between operations (LMDB's renew and reset: two calls per read). With client it keeps the snapshot
   * after a read and takes a new one before the next read only when {@link #commits} moved since, that
   * is when a write committed through this handle: every writer of the environment does (one handle
   * per directory per JVM, and the directory lock keeps other processes out), and it counts its commit
   * before its write returns, so a read still sees every write acknowledged before it began; a
   * read-merge-write update reads after the previous update of its key counted its commit (the key's
   * stripe orders them). {@link #drop} lets the snapshot go before this client writes. What a kept
   * snapshot costs: it pins the pages other clients' commits free from the read until this client's
   * next operation, so a writer cannot reuse them for that long.
   */
  public final class Reader {
    private final Txn<byte[]> txn;
    /** {@link #commits} when the snapshot held was taken; -1 while none is held (the transaction reset). */
    private long takenAt = -1;

    private Reader(Txn<byte[]> txn) {
      this.txn = txn;
    }

    /** The transaction, holding a snapshot with every commit counted so far. */
    private Txn<byte[]> snapshot() {
      long now = commits.get(); // read before the renew: the snapshot holds at least these commits
      if (takenAt != now) {
        drop();
        try {
          txn.renew();
        } catch (RuntimeException e) {
          try {
            txn.reset(); // lmdbjava leaves a failed renew's transaction DONE: reset it for the next try
          } catch (RuntimeException again) {
            e.addSuppressed(again);
          }
          throw e;
        }
        takenAt = now;
      }
      return txn;
    }

    /**
     * After a read: with operation, the snapshot goes; with client it stays, unless the read failed: LMDB marks a
     * read transaction that met a damaged page (MDB_PAGE_NOTFOUND, MDB_CORRUPTED) failed, and refuses every later
     * call on it (MDB_BAD_TXN) until it is reset and renewed, so one bad leaf failed every later read of the client.
     */
    private void done(boolean failed) {
      if (failed || !options.keepsSnapshot()) {
        drop();
      }
    }

    /**
     * With lmdb.readsnapshot=client, takes the snapshot now, at the client's open, rather than at its first read:
     * a measured phase then starts with its first read finding the snapshot taken, as every later one does,
     * instead of taking a branch that the warm-up's compiled reads never took (a deoptimisation as the clock
     * starts). A write, or another client's, lets it go or renews it as before.
     */
    void keepFromOpen() {
      if (options.keepsSnapshot()) {
        snapshot();
      }
    }

    /** Whether the transaction holds a snapshot now (between operations only with lmdb.readsnapshot=client). */
    boolean holdsSnapshot() {
      return takenAt != -1;
    }

    /** Resets the transaction if it holds a snapshot: the pages it pins are free again for the writer. */
    public void drop() {
      if (takenAt != -1) {
        takenAt = -1;
        txn.reset();
      }
    }
  }

  /** A reader for one client thread (holding its reader slot, no snapshot). */
  public Reader reader() throws IOException {
    Txn<byte[]> txn;
    try {
      txn = env.txnRead();
    } catch (Env.ReadersFullException e) {
      throw new IOException("every one of the " + options.maxReaders() + " reader slots of " + dir.toAbsolutePath()
          + " is taken (each client thread holds one): set " + LmdbOptions.MAX_READERS + " to at least the"
          + " number of client threads", e);
    }
    txn.reset();
    Reader reader = new Reader(txn);
    readers.add(reader);
    return reader;
  }

  /** Ends the read transaction of a reader {@link #reader} gave, once; the handle's close ends those left. */
  public void release(Reader reader) {
    if (readers.remove(reader)) {
      reader.txn.close();
    }
  }

  /** The value under {@code key} in a snapshot holding every write acknowledged so far, or null. */
  public byte[] get(Reader reader, byte[] key) {
    Txn<byte[]> txn = reader.snapshot();
    boolean failed = true;
    try {
      byte[] value = dbi.get(txn, key);
      failed = false;
      return value;
    } finally {
      reader.done(failed);
    }
  }

  /** Whether {@code key} holds a value in a snapshot as {@link #get} takes it; the value is not copied. */
  public boolean contains(Reader reader, byte[] key) {
    Txn<byte[]> txn = reader.snapshot();
    boolean failed = true;
    HeldBytesProxy.valuesUnread(true);
    try {
      boolean found = dbi.get(txn, key) != null;
      failed = false;
      return found;
    } finally {
      HeldBytesProxy.valuesUnread(false);
      reader.done(failed);
    }
  }

  /** Feeds up to {@code count} values from the first key >= {@code start}, in key order, from one snapshot. */
  public void scan(Reader reader, byte[] start, int count, KeyValueDB.ValueSink sink) {
    if (count <= 0) {
      return;
    }
    Txn<byte[]> txn = reader.snapshot();
    boolean failed = true;
    try (Cursor<byte[]> cursor = dbi.openCursor(txn)) {
      // LMDB refuses an empty key for MDB_SET_RANGE: "" starts at the first key
      boolean more = start.length == 0 ? cursor.first() : cursor.get(start, GetOp.MDB_SET_RANGE);
      for (int n = 0; more && n < count; n++) {
        sink.accept(cursor.val());
        more = n + 1 < count && cursor.next();
      }
      failed = false;
    } finally {
      reader.done(failed);
    }
  }

  /** The pair in a write transaction of its own. */
  public void put(byte[] key, byte[] value) throws IOException {
    try (Txn<byte[]> txn = writeTxn()) {
      dbi.put(txn, key, value, NO_PUT_FLAGS);
      txn.commit();
      commits.incrementAndGet(); // before the write returns: kept snapshots are renewed from now on
    } catch (Env.MapFullException e) {
      throw mapFull(e);
    }
  }

  /**
   * The pair in a write transaction of its own, which first finds {@code key} (its value not copied); false, the
   * transaction aborted and nothing written, when the key holds no value.
   */
  public boolean replace(byte[] key, byte[] value) throws IOException {
    try (Txn<byte[]> txn = writeTxn()) {
      HeldBytesProxy.valuesUnread(true);
      boolean found;
      try {
        found = dbi.get(txn, key) != null;
      } finally {
        HeldBytesProxy.valuesUnread(false);
      }
      if (!found) {
        return false; // closing an uncommitted transaction aborts it
      }
      dbi.put(txn, key, value, NO_PUT_FLAGS);
      txn.commit();
      commits.incrementAndGet(); // before the write returns: kept snapshots are renewed from now on
      return true;
    } catch (Env.MapFullException e) {
      throw mapFull(e);
    }
  }

  /** The pairs in one write transaction: committed whole or (the transaction aborted) not at all. */
  public void putAll(byte[][] keys, byte[][] values, int count) throws IOException {
    try (Txn<byte[]> txn = writeTxn()) {
      for (int i = 0; i < count; i++) {
        dbi.put(txn, keys[i], values[i], NO_PUT_FLAGS);
      }
      txn.commit();
      commits.incrementAndGet(); // before the write returns: kept snapshots are renewed from now on
    } catch (Env.MapFullException e) {
      throw mapFull(e);
    }
  }

  /** Deletes {@code key}; false when it was absent. */
  boolean remove(byte[] key) throws IOException {
    try (Txn<byte[]> txn = writeTxn()) {
      boolean found = dbi.delete(txn, key);
      txn.commit();
      commits.incrementAndGet();
      return found;
    } catch (Env.MapFullException e) {
      throw mapFull(e);
    }
  }

  /**
   * A write transaction without flags. lmdbjava turns a flag array into LMDB's mask through a stream (seven objects,
   * about 0.4 KB, per call) unless the array is null, and its own txnWrite() and put(txn, key, value) pass an empty
   * one: null here and in {@link #NO_PUT_FLAGS} is the same mask, 0, without the garbage.
   */
  private Txn<byte[]> writeTxn() {
    return env.txn(null, NO_TXN_FLAGS);
  }

  /** MDB_MAP_FULL as an error that names the property and the size (the write's transaction was aborted). */
  private IOException mapFull(Env.MapFullException e) {
    return new IOException("LMDB's map is full: " + LmdbOptions.MAP_SIZE + " = " + env.info().mapSize + " bytes of "
        + dir.toAbsolutePath() + " hold no more, so this write was not kept (its transaction was aborted; the"
        + " records before it are intact). Reopen with a larger " + LmdbOptions.MAP_SIZE, e);
  }

  /**
   * Ends every read transaction still open, makes a clean close durable (with sync=false commits were
   * not fsynced: one fsync now), closes the database and the environment; once, later calls do nothing.
   */
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      for (Reader reader : new ArrayList<>(readers)) {
        release(reader);
      }
      if (!options.sync()) {
        env.sync(true);
      }
      dbi.close();
    } finally {
      try {
        env.close();
      } finally {
        if (meta != null) {
          meta.close();
        }
      }
    }
  }

  /** The engine and the library that carries it: "LMDB 0.9.31 (the liblmdb bundled in lmdbjava 0.9.1, ...)". */
  public static String libraryVersion() {
    Meta.Version v = Meta.version();
    return "LMDB " + v.major + "." + v.minor + "." + v.patch + " (" + LmdbLibrary.describe() + ", through JNR-FFI)";
  }

  /** The engine, the figures read back from the environment and the flags, for the start-up header. */
  public String describe() {
    StringBuilder sb = new StringBuilder(libraryVersion()).append(String.format("%n[lmdb] read back: "))
        .append(summary());
    String flags = "[lmdb] flags passed to mdb_env_open: " + options.flagNames() + " (lmdbjava binds"
        + " mdb_env_get_flags with a wrong signature, so they are not read back)";
    if (OncePerJvm.first(flags)) { // the same flags again say nothing new (72 copies in one test run)
      sb.append(System.lineSeparator()).append(flags);
    }
    for (String note : notes) {
      sb.append(String.format("%n[lmdb] NOTE: %s", note));
    }
    return sb.toString();
  }

  /** What the environment holds and how it is set, read back from it, in one line. */
  String summary() {
    try {
      EnvInfo info = env.info();
      Stat stat = env.stat();
      return LmdbOptions.MAP_SIZE + " = " + info.mapSize + " (Env.info), " + LmdbOptions.MAX_READERS + " = "
          + info.maxReaders + " (Env.info, " + info.numReaders + " in use), page size " + stat.pageSize
          + ", max key " + env.getMaxKeySize() + " bytes, entries " + stat.entries + ", depth " + stat.depth
          + ", pages: branch " + stat.branchPages + " leaf " + stat.leafPages + " overflow " + stat.overflowPages
          + ", last page " + info.lastPageNumber + ", last transaction " + info.lastTransactionId;
    } catch (RuntimeException e) { // an LmdbException, or the environment closed
      return dir + ": no statistics (" + e.getMessage() + ")";
    }
  }

  /** lmdbjava's version from its jar's Maven record, or "unknown". */
  static String lmdbjavaVersion() {
    try (InputStream in = Env.class.getResourceAsStream("/META-INF/maven/org.lmdbjava/lmdbjava/pom.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
