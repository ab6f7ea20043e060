// Longer than 500 lines: the one class a binding extends declares every primitive and hook a binding
// implements, each with its contract, beside YCSB's operations over them, which stay in this object, the one a YCSB
// client thread calls for each operation (the write path reuses the client's arrays and goes through no other
// object). What is off that path has a class of its own: EngineFacts, DatabaseOpening, EngineErrors.
package site.ycsb.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.embedded.workload.FullScanSink;

/**
 * The part of a binding that is the same for every key-value engine: property reading, the
 * record codec, write batching, the shared handle, status mapping and error logging. A binding
 * returns its engine's facts ({@link #facts}), implements the engine primitives (get, put, remove,
 * an ordered scan, an atomic batch) and {@link #configure}; this class turns them into YCSB's read,
 * scan, insert, update and delete. Its {@link #init} is {@link DatabaseOpening}'s.
 *
 * <p>One instance per YCSB client thread; the engine handle behind {@link #handle()} is shared by
 * all instances for the same path and closed by the last {@link #cleanup()}.
 *
 * @param <H> the engine handle type
 */
public abstract class KeyValueDB<H> extends DB {

  /** Record layout: auto (bare when fieldcount=1), fields, or bare. */
  public static final String RECORD_LAYOUT = "recordlayout";
  /** YCSB's field name prefix: the bare layout's one field is read back as prefix + "0". */
  static final String FIELD_NAME_PREFIX = "fieldnameprefix";
  /** Free space (bytes) the data directory's filesystem must keep: below it writes and opens are refused. */
  public static final String DISK_SPACE_MARGIN = "diskspacemargin";
  /**
   * Lets a run phase (YCSB's -t) open a database that does not exist or holds no record while its workload
   * reads records: refused by default, since every read would be NOT_FOUND (a mistyped path measured an
   * empty database with exit 0).
   */
  public static final String ALLOW_EMPTY_RUN = "allowemptyrun";
  /**
   * A workload class's {@code public static boolean runReadsRecords(Properties)}: whether its run phase reads
   * records a load wrote, which decides the refusal of a run on an empty database ({@link #ALLOW_EMPTY_RUN}).
   * Without it, CoreWorkload's shares decide.
   */
  public static final String RUN_READS_RECORDS = "runReadsRecords";
  /**
   * With {@code destroy}: delete whatever the data directory holds. By default destroy deletes only what it
   * recognises as this engine's database and the project's own files, and refuses, deleting nothing, a directory
   * that holds anything else (a user's files beside the database, another engine's, a path that names a home
   * directory).
   */
  public static final String DESTROY_UNKNOWN_FILES = EngineFiles.DESTROY_UNKNOWN_FILES;
  /** The margin of an engine that does not name its own ({@link #diskSpaceMargin}). */
  public static final long DISK_SPACE_MARGIN_DEFAULT = 16L << 20;


  private SharedHandles.Lease<H> lease;
  private H db;
  private RecordCodec codec;
  private WriteGroup writes;
  private Keys keys;
  private DiskSpaceGuard disk;
  /** This client's count of bytes written, in front of {@link #disk}'s shared total. */
  private DiskSpaceGuard.Counter diskCount;
  /** This client as a writer of the shared handle: keeps its read-merge-write updates apart from others'. */
  private KeyStripes.Writer writer;
  /**
   * This client's key arrays, one per key length up to {@link #REUSED_KEY_BYTES} ({@link Keys#bytes(String,
   * byte[][])}): a client is one thread, and a primitive reads its key during its call only.
   */
  private final byte[][] keyArrays = new byte[REUSED_KEY_BYTES + 1][];
  /** The array of this client's last record encoded, reused by its next record of the same length. */
  private final byte[][] recordArray = new byte[1][];
  /** This client's put or read-merge-write, run by each insert and update: no object per write. */
  private final ClientWrite clientWrite = new ClientWrite();
  private final FieldBytes fieldBytes = new FieldBytes();

  /** The longest key that goes into one of a client's reused arrays; a longer one gets an array of its own. */
  static final int REUSED_KEY_BYTES = 64;

  /**
   * The engine's facts (its name, its Options class, what a failed open rewrites, ...): constants of the engine, asked
   * once per client, the first time one is needed.
   */
  protected abstract EngineFacts facts();

  /** The engine's facts, once asked. */
  private EngineFacts engine;

  /** {@link #facts}, asked once. */
  final EngineFacts engine() {
    if (engine == null) {
      engine = facts();
    }
    return engine;
  }

  /** The engine's name, as the registry spells it, used as property prefix and in messages. */
  protected final String engineName() {
    return engine().name();
  }

  /**
   * Every property this binding may read ({@link EngineFacts#propertyNames}, the client's own names counting when
   * its facts name no Options class): what {@code Preflight} takes as known.
   */
  public final java.util.SortedSet<String> propertyNames() {
    return engine().propertyNames(getClass());
  }

  /**
   * Reads the engine's own properties (validating each) and returns a recipe that opens the
   * engine. Runs in every client thread; the opener runs only in the first.
   */
  protected abstract EngineOpener<H> configure(EngineProperties props, Path dir) throws Exception;

  /*
   * The primitives' keys and values are arrays that this client reuses for its next operation (a record's
   * value too, once put returned): a primitive reads them during its call and copies what it keeps. Only the
   * arrays of a write that waits in its group (WriteGroup.keeps: a batch of inserts) are its own.
   */

  /** The stored record under {@code key}, or null when there is none: an array the caller may keep. */
  protected abstract byte[] get(H db, byte[] key) throws Exception;

  /** Stores {@code value} under {@code key}, copying both: the client reuses the arrays once this returns. */
  protected abstract void put(H db, byte[] key, byte[] value) throws Exception;

  /** Removes {@code key}; returns false only when the engine can tell that it was absent. */
  protected abstract boolean remove(H db, byte[] key) throws Exception;

  /**
   * Whether a record is stored under {@code key}: all that an update of a bare record needs to know (its one field
   * is the whole record). By default a {@link #get}; an engine that can tell without copying the value overrides it.
   */
  protected boolean contains(H db, byte[] key) throws Exception {
    return get(db, key) != null;
  }

  /**
   * Puts {@code value} under {@code key} only where a record is stored; false, with nothing written, where none is.
   * By default a {@link #contains}, then a {@link #put}; an engine that can do both in one write transaction
   * overrides it.
   */
  protected boolean replace(H db, byte[] key, byte[] value) throws Exception {
    if (!contains(db, key)) {
      return false;
    }
    put(db, key, value);
    return true;
  }

  /** Feeds up to {@code count} stored records, from the first key >= {@code start}, in key order. */
  protected abstract void scan(H db, byte[] start, int count, ValueSink sink) throws Exception;

  /**
   * Feeds the stored size of up to {@code count} records, from the first key >= {@code start}, in key
   * order: the full pass of the bare layout, which counts value bytes and reads no value. By default
   * {@link #scan} and each record's length; an engine that can tell a value's length without copying
   * the value into a Java array overrides it.
   */
  protected void scanSizes(H db, byte[] start, int count, SizeSink sink) throws Exception {
    scan(db, start, count, stored -> sink.accept(stored.length));
  }

  /** Applies the puts as one atomic unit (the default {@link #writeGroup}'s batches). */
  protected abstract void applyBatch(H db, byte[][] keys, byte[][] values, int count) throws Exception;

  /** Receives the records of a scan in key order. */
  @FunctionalInterface
  public interface ValueSink {
    void accept(byte[] value);
  }

  /** Receives the stored sizes of a {@link #scanSizes} in key order. */
  @FunctionalInterface
  public interface SizeSink {
    void accept(int storedBytes);
  }

  /** Opens and closes one engine; what {@link #configure} returns. */
  public interface EngineOpener<H> {
    /** Opens the engine; a clear message when the files are locked, missing or not a database. */
    H open() throws Exception;

    /** Closes the engine and every native object it owns. */
    void close(H handle) throws Exception;

    /** A one-line description of the engine and its version for the start-up header. */
    String describe(H handle);
  }

  /**
   * The free space this engine needs in reserve after the last write it was allowed: what its
   * background work, its file growth and its close may still write. Called after {@link #configure},
   * so it may use what that read; {@code diskspacemargin} overrides it.
   */
  protected long diskSpaceMargin() {
    return DISK_SPACE_MARGIN_DEFAULT;
  }

  /**
   * The share of the bytes written since open that the engine may still hold in memory and write to
   * its files at close, beyond {@link #diskSpaceMargin}: reserved on top of it. 0 by default.
   */
  protected double diskSpaceDeferredShare() {
    return 0;
  }

  /**
   * What the engine's files use now, in bytes, read every few writes of a client of {@code handle} (so it must
   * cost a few nanoseconds: a read of memory, no system call), or null (the default) when counting the bytes
   * written is enough. An engine where one write can grow its files by far more than its bytes (LMDB's
   * copy-on-write while another process pins old pages) returns one, and the free-space guard looks again
   * whenever it grew by a look's interval ({@link DiskSpaceGuard#follow}). Called once after each open; not read
   * after the close.
   */
  protected java.util.function.LongSupplier diskSpaceUsed(H handle) {
    return null;
  }

  /**
   * A line for the start-up banner about the data directory's free space (what a filling disk would do
   * to this engine), or null for none; called once, after the open.
   */
  protected String diskSpaceNote(DiskSpaceGuard guard) {
    return null;
  }

  /**
   * This run's layout with the binding's own entries added: what else decides how its files lay out
   * the data (a property of its own that picks which library writes them, say). Called after
   * {@link #configure}; adds nothing by default.
   */
  protected DataLayout layout(DataLayout common) {
    return common;
  }

  /**
   * Admits the data directory's recorded layout ({@code recorded}, null when the directory has no record)
   * for this run's ({@code wanted}) before anything in the directory is created or opened, or refuses it;
   * returns a line for the start-up lines about what the open will change (a conversion asked for), or
   * null. By default every difference is refused; a binding that can convert its files overrides it.
   */
  protected String admitLayout(Path dir, DataLayout recorded, DataLayout wanted) throws IOException {
    wanted.refuseDisagreement(DataLayout.recordOf(dir, databaseFile()), recorded);
    return null;
  }

  /**
   * The database's file in the data directory when the directory can hold several databases (a file each,
   * named by a property of the binding's), each with its own layout record; null (the default) when the
   * directory is the database. Called after {@link #configure}.
   */
  protected String databaseFile() {
    return null;
  }

  /**
   * Whether the engine runs its repair before opening (a repair property of its own is set): then the files it
   * rebuilds from are not refused as damaged. Called after {@link #configure}. False by default.
   */
  protected boolean repairs() {
    return false;
  }

  /**
   * Why the database in {@code dir} holds no record, read from its files alone before anything opens them
   * ({@link RecordsInFiles}), or null when it may hold one (the default: the open then tells). A run phase that
   * reads records is refused on it before the engine's open, which would change the directory. Called after
   * {@link #configure}, on a directory that holds the engine's files.
   */
  protected String noRecordInFiles(Path dir) throws IOException {
    return null;
  }

  /**
   * Whether other processes may have the directory open at the same time (SQLite's, when its own
   * process lock is off). False by default: the directory lock is then exclusive, and a second process
   * is refused before its engine touches a file.
   */
  protected boolean sharesDirectory() {
    return false;
  }

  /**
   * Whether update may overwrite the record without reading it first (db_bench's "overwrite").
   * Off by default: an update merges its fields into the stored record.
   */
  protected boolean blindUpdates() {
    return false;
  }

  /**
   * The handle this client hands to the primitives, given the shared one: by default the shared
   * handle itself. An engine whose handle one thread at a time should use (an SQLite connection)
   * opens a handle of this client's own here, and closes it in {@link #leave}.
   */
  protected H join(H shared) throws Exception {
    return shared;
  }

  /**
   * Releases what {@link #join} returned. {@link #cleanup()} calls it once, after this client's
   * last batch was applied and before the shared handle is released.
   */
  protected void leave(H mine) throws Exception {
  }

  /**
   * The write-grouping hook: how this client's writes reach the engine, given the handle {@link #join}
   * returned. By default a {@link WriteBatcher} applies {@code batchSize} inserts at a time through
   * {@link #applyBatch}; an engine with transactions of its own returns a group that uses them.
   */
  protected WriteGroup writeGroup(H mine, int batchSize) {
    return new WriteBatcher(batchSize, (k, v, n) -> applyBatch(mine, k, v, n), writer);
  }

  /**
   * Loads what the engine needs before any database is opened, its native library: called from
   * {@link #setProperties}, which YCSB's client calls in its main thread before its clock starts, as
   * a C program's shared libraries are loaded before main. Nothing by default; a failure here is
   * left to {@link #init}, which loads again and reports it. Bindings whose library unpacks from a
   * jar (0.1 to 0.7 s for this project's) should override it.
   */
  protected void loadEngineLibrary() throws Exception {
  }

  /** Sets the properties and loads the engine's library ({@link #loadEngineLibrary}) outside YCSB's timed run. */
  @Override
  public void setProperties(Properties p) {
    super.setProperties(p);
    try {
      loadEngineLibrary();
    } catch (Exception | LinkageError e) {
      // init() loads the library again where a failure refuses the start with its message
    }
  }

  /** The handle this client uses: the shared one unless {@link #join} gave it its own. */
  public final H handle() {
    return db;
  }

  protected final RecordCodec codec() {
    return codec;
  }

  /** The run's key encoding (keyencoding, keyformat). */
  protected final Keys keys() {
    return keys;
  }

  @Override
  public void init() throws DBException {
    ClientExitStatus.databaseStarting();
    new DatabaseOpening<>(this).open();
  }

  /** Set by the opening ({@link DatabaseOpening}) before {@link #configure}, which may read them. */
  final void encodeWith(RecordCodec recordCodec, Keys keyEncoding) {
    codec = recordCodec;
    keys = keyEncoding;
  }

  /**
   * Set by the opening once this client joined the shared handle ({@code joinedHandle}: what {@link #join} returned):
   * the free-space guard, this client as a writer of the handle, and its write group.
   */
  final void joined(SharedHandles.Lease<H> handleLease, H joinedHandle, DiskSpaceGuard guard, int batchSize) {
    lease = handleLease;
    db = joinedHandle;
    disk = guard;
    diskCount = guard.counter();
    writer = lease.stripes().join();
    writes = writeGroup(db, batchSize);
  }

  /**
   * True when the database holds no record, for a run phase that reads records: by default a scan from the
   * first key (one seek); a binding whose YCSB operations are its own (SQLite's columns table) overrides it.
   */
  protected boolean holdsNoRecord(H mine) throws Exception {
    boolean[] found = {false};
    scan(mine, new byte[0], 1, stored -> found[0] = true);
    return !found[0];
  }

  @Override
  public void cleanup() throws DBException {
    if (lease == null) {
      return;
    }
    try {
      if (writes != null) {
        try {
          writes.flush();
        } finally {
          diskCount.applied(); // the last batch's inserts held their bytes until now
        }
      }
    } catch (Exception e) {
      Exception why = disk == null ? e : disk.explain(e);
      throw new DBException("[" + engineName() + "] the last batch could not be applied: " + why, why);
    } finally {
      try {
        try {
          if (writer != null) {
            writer.leave();
          }
          leave(db);
        } finally {
          lease.close();
        }
      } catch (Exception e) {
        Exception why = disk == null ? e : disk.explain(e);
        throw new DBException("[" + engineName() + "] close failed: " + why, why);
      } finally {
        lease = null;
        db = null;
        writes = null;
        writer = null;
      }
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      byte[] stored = get(db, keys.bytes(key, keyArrays));
      if (stored == null) {
        return Status.NOT_FOUND;
      }
      codec.decode(stored, fields, result);
      return Status.OK;
    } catch (Exception e) {
      return failed("read", key, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                     Vector<HashMap<String, ByteIterator>> result) {
    try {
      if (result instanceof FullScanSink counter) { // the full pass counts rows and bytes: no row is built
        byte[] start = keys.bytes(startkey, keyArrays);
        if (codec.isBare() && (fields == null || fields.contains(codec.bareField()))) {
          scanSizes(db, start, recordcount, counter::addRow);
        } else {
          scan(db, start, recordcount, stored -> counter.addRow(codec.valueBytes(stored, fields)));
        }
        return Status.OK;
      }
      scan(db, keys.bytes(startkey, keyArrays), recordcount, stored -> {
        HashMap<String, ByteIterator> row = new HashMap<>();
        codec.decode(stored, fields, row);
        result.add(row);
      });
      return Status.OK;
    } catch (Exception e) {
      return failed("scan", startkey, e);
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      boolean kept = writes.keeps(WriteGroup.Kind.INSERT); // a batched insert waits with its own arrays
      byte[] k = kept ? keys.bytes(key) : keys.bytes(key, keyArrays);
      byte[] v = codec.encode(values, kept ? null : recordArray);
      diskCount.beforeWrite(k.length + v.length);
      return write(WriteGroup.Kind.INSERT, k, v, null, kept);
    } catch (Exception e) {
      return failed("insert", key, e);
    }
  }

  /**
   * Runs a write through the write group, then tells the free-space guard that this client's writes reached the
   * engine (or failed, a failed batch dropped), unless the write waits in a batch (BATCHED_OK): until then the
   * bytes its look held stay in the guard's reserve.
   */
  private Status write(WriteGroup.Kind kind, byte[] key, byte[] value, WriteGroup.Write write) throws Exception {
    Status status;
    try {
      status = writes.write(kind, key, value, write);
    } catch (Exception e) {
      diskCount.applied();
      throw e;
    }
    if (status != Status.BATCHED_OK) {
      diskCount.applied();
    }
    return status;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    try {
      WriteGroup.Kind kind = blindUpdates() ? WriteGroup.Kind.OVERWRITE : WriteGroup.Kind.UPDATE;
      boolean kept = writes.keeps(kind);
      byte[] k = kept ? keys.bytes(key) : keys.bytes(key, keyArrays);
      diskCount.beforeWrite(k.length + fieldBytes.of(values));
      if (kind == WriteGroup.Kind.OVERWRITE) {
        return write(kind, k, codec.encode(values, kept ? null : recordArray), null, kept);
      }
      return write(kind, k, null, values, kept);
    } catch (Exception e) {
      return failed("update", key, e);
    }
  }

  /**
   * Reads the record under {@code k}, merges {@code values} into it and puts it; with {@code reuse}, in this
   * client's record array when the merged record has its length.
   */
  private Status readMergeWrite(byte[] k, Map<String, ByteIterator> values, boolean reuse) throws Exception {
    if (codec.isBare()) { // the update's one field replaces the whole value: the stored bytes are not needed
      return replace(db, k, codec.encode(values, reuse ? recordArray : null)) ? Status.OK : Status.NOT_FOUND;
    }
    byte[] stored = get(db, k);
    if (stored == null) {
      return Status.NOT_FOUND;
    }
    put(db, k, codec.merge(stored, values, reuse ? recordArray : null));
    return Status.OK;
  }

  /**
   * Puts {@code v} under {@code k}, or with {@code v} null merges {@code values} into the record there, through the
   * write group: with this client's {@link ClientWrite}, unless the group keeps the write ({@code kept}).
   */
  private Status write(WriteGroup.Kind kind, byte[] k, byte[] v, Map<String, ByteIterator> values, boolean kept)
      throws Exception {
    if (kept) {
      return write(kind, k, v, () -> v != null ? put(k, v) : readMergeWrite(k, values, false));
    }
    clientWrite.set(k, v, values);
    try {
      return write(kind, k, v, clientWrite);
    } finally {
      clientWrite.set(null, null, null);
    }
  }

  private Status put(byte[] k, byte[] v) throws Exception {
    put(db, k, v);
    return Status.OK;
  }

  /** The write an insert or update hands a write group that runs it at once: its arrays and fields set for each. */
  private final class ClientWrite implements WriteGroup.Write {
    private byte[] key;
    private byte[] value;
    private Map<String, ByteIterator> values;

    void set(byte[] k, byte[] v, Map<String, ByteIterator> fields) {
      key = k;
      value = v;
      values = fields;
    }

    @Override
    public Status run() throws Exception {
      return value != null ? put(key, value) : readMergeWrite(key, values, true);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      byte[] k = writes.keeps(WriteGroup.Kind.DELETE) ? keys.bytes(key) : keys.bytes(key, keyArrays);
      diskCount.beforeWrite(k.length);
      return write(WriteGroup.Kind.DELETE, k, null, () -> remove(db, k) ? Status.OK : Status.NOT_FOUND);
    } catch (Exception e) {
      return failed("delete", key, e);
    }
  }

  /** The bytes stored under {@code key}, or null: for tests and diagnostics (stored sizes). */
  public final byte[] storedBytes(String key) throws Exception {
    return get(db, keys.bytes(key)); // an array of its own: a test may call this from another thread
  }

  /**
   * Counts {@code bytes} about to be written and refuses (a DiskFullException) when the filesystem
   * has too little room left: for a binding that overrides insert, update or delete. Its write is not held in
   * the guard's reserve after this look (the binding does not say when it was applied).
   */
  protected final void diskSpaceFor(long bytes) throws DiskSpaceGuard.DiskFullException {
    try {
      diskCount.beforeWrite(bytes);
    } finally {
      diskCount.applied();
    }
  }

  /**
   * Why the filesystem has less room than the margin now, or null when it has enough: for a close
   * that would write (LevelDB's flush of the memtable) and can leave it to the next open instead.
   */
  protected final String diskSpaceShortage(String what) {
    if (disk == null) {
      return null;
    }
    try {
      disk.check(what);
      return null;
    } catch (DiskSpaceGuard.DiskFullException e) {
      return e.getMessage();
    }
  }

  /**
   * {@link #fieldBytes(Map)} through the map's forEach, which makes no entry view (a new map's first entrySet() is
   * an object): this client's, reused by each update.
   */
  private static final class FieldBytes implements java.util.function.BiConsumer<String, ByteIterator> {
    private long sum;

    long of(Map<String, ByteIterator> values) {
      sum = 0;
      values.forEach(this);
      return sum;
    }

    @Override
    public void accept(String name, ByteIterator value) {
      sum += name.length() + value.bytesLeft();
    }
  }

  /** The bytes of the fields' values (bytesLeft does not consume them), for the free-space count. */
  protected static long fieldBytes(Map<String, ByteIterator> values) {
    long n = 0;
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      n += e.getKey().length() + e.getValue().bytesLeft();
    }
    return n;
  }

  /**
   * Milliseconds since {@code t0} (System.nanoTime) with one decimal, built without
   * java.util.Formatter: its first use in a JVM loads locale data, ~10 ms inside YCSB's timed run.
   */
  protected static String millisSince(long t0) {
    long tenths = Math.max(0, Math.round((System.nanoTime() - t0) / 1e5));
    return tenths / 10 + "." + tenths % 10;
  }

  /**
   * Logs an engine failure (the first few with their cause, and the first refusal for a full disk
   * after each open whatever came before: {@link EngineErrors}) and returns {@code Status.ERROR}.
   */
  protected final Status failed(String op, String key, Exception error) {
    return EngineErrors.failed(engineName(), op, key, error, disk);
  }
}
