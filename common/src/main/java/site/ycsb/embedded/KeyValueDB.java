package site.ycsb.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicInteger;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.embedded.workload.FullScanSink;

/**
 * The part of a binding that is the same for every key-value engine: property reading, the
 * record codec, write batching, the shared handle, status mapping and error logging. A binding
 * implements the engine primitives (get, put, remove, an ordered scan, an atomic batch) and
 * {@link #open}; this class turns them into YCSB's read, scan, insert, update and delete.
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

  /** How many engine errors a JVM prints with their cause before only counting them (not a full disk's). */
  static final int ERRORS_PRINTED = 20;
  private static final AtomicInteger ERRORS = new AtomicInteger();

  /** Forgets the errors printed so far: the warm-up's on its scratch database ({@code Warmup}). */
  static void forgetErrors() {
    ERRORS.set(0);
  }
  /** The layout each open shared handle was opened with, by its record's path. */
  private static final java.util.concurrent.ConcurrentMap<Path, DataLayout> OPEN_LAYOUTS =
      new java.util.concurrent.ConcurrentHashMap<>();

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

  /** The engine's name, used as property prefix and in messages ("leveldb"). */
  protected final String engineName() {
    return engine().name();
  }

  /**
   * The engine-neutral knobs this class and every binding read: each also as engine.NAME, which overrides it
   * ({@link EngineProperties}).
   */
  private static final List<String> NEUTRAL_NAMES = List.of(EngineProperties.PATH, EngineProperties.DESTROY,
      DESTROY_UNKNOWN_FILES, EngineProperties.BATCH_SIZE, EngineProperties.SYNC, EngineProperties.COMPRESSION,
      EngineProperties.CACHE_SIZE, EngineProperties.WRITE_BUFFER_SIZE, RECORD_LAYOUT, Keys.ENCODING,
      DISK_SPACE_MARGIN, ALLOW_EMPTY_RUN, StartupLines.VERBOSE, "fieldcount");

  /**
   * Every property this binding may read: the neutral knobs (every binding's, {@code fieldcount} among them, and
   * its facts' {@link EngineFacts#ownNeutralNames}), each also engine-prefixed, the names of its facts'
   * {@link EngineFacts#optionsClass} (or of the client class), upstream YCSB's names it honours or refuses, and
   * YCSB's {@code fieldnameprefix} and {@code keyformat}. What {@code Preflight} takes as known.
   */
  public final java.util.SortedSet<String> propertyNames() {
    java.util.SortedSet<String> names = new java.util.TreeSet<>(List.of(FIELD_NAME_PREFIX, "keyformat"));
    for (String name : concat(NEUTRAL_NAMES, engine().ownNeutralNames())) {
      names.add(name);
      names.add(engineName() + "." + name);
    }
    Class<?> options = engine().optionsClass() != null ? engine().optionsClass() : getClass();
    for (java.lang.reflect.Field f : options.getFields()) {
      try {
        if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) && f.getType() == String.class
            && !f.getName().endsWith("_DEFAULT") && ((String) f.get(null)).startsWith(engineName() + ".")) {
          names.add((String) f.get(null));
        }
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
    }
    names.addAll(EngineProperties.upstreamAliases(engineName()).keySet());
    names.addAll(EngineProperties.upstreamRefused(engineName()));
    return names;
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
   * the data ({@code leveldb.library}). Called after {@link #configure}; adds nothing by default.
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
   * The database's file in the data directory when the directory can hold several databases
   * ({@code sqlite.file}), each with its own layout record; null (the default) when the directory is
   * the database. Called after {@link #configure}.
   */
  protected String databaseFile() {
    return null;
  }

  /**
   * Whether the engine runs its repair before opening (leveldb.repair): then the files it rebuilds from
   * are not refused as damaged. Called after {@link #configure}. False by default.
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
   * jar (RocksDB, leveldbjni, sqlite-jdbc: 0.1 to 0.7 s here) should override it.
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
    EngineProperties props = new EngineProperties(getProperties(), engineName());
    try {
      props.refuseUpstreamNames();
      Path dir = props.directory(EngineProperties.PATH, "data/" + engineName());
      // true: always; load: only in YCSB's load phase (Client sets dotransactions=false there).
      String destroyWhen = props.choice(EngineProperties.DESTROY, "false", "false", "true", "load");
      boolean loading = !Boolean.parseBoolean(getProperties().getProperty("dotransactions", "true"));
      boolean destroy = destroyWhen.equals("true") || (destroyWhen.equals("load") && loading);
      boolean destroyAnything = props.bool(DESTROY_UNKNOWN_FILES, false);
      // a run phase is what YCSB's -t says explicitly; a client made without it (a test, a tool) is not one
      boolean running = "true".equals(getProperties().getProperty("dotransactions"));
      boolean allowEmpty = props.bool(ALLOW_EMPTY_RUN, false);
      boolean needsRecords = running && !allowEmpty && readsRecords(getProperties());
      props.require(!(needsRecords && destroy), EngineProperties.DESTROY, "false, or load, in a run phase whose"
          + " operations read records, with", ALLOW_EMPTY_RUN, "the run would measure the empty database the"
          + " destroy leaves; nothing was deleted");
      int batchSize = props.integer(EngineProperties.BATCH_SIZE, 1, 1, 10_000_000);
      boolean verbose = props.bool(StartupLines.VERBOSE, false);
      DataLayout[] wanted = {DataLayout.empty()};
      codec = chooseCodec(props, wanted);
      keys = Keys.fromProperties(props, getProperties());
      wanted[0] = wanted[0].with(Keys.ENCODING, keys.name(), props.isSet(Keys.ENCODING) ? null
          : "the default auto, with keyformat=" + getProperties().getProperty("keyformat", "ycsb"));
      EngineOpener<H> opener = configure(props, dir);
      DataLayout layout = layout(wanted[0]);
      String file = databaseFile();
      Path record = DataLayout.recordOf(dir.toAbsolutePath().normalize(), file);
      DiskSpaceGuard guard = DiskSpaceGuard.of(dir, props.size(DISK_SPACE_MARGIN, diskSpaceMargin()),
          diskSpaceDeferredShare(), engine().diskSpaceWriteFactor());
      java.util.SortedSet<String> unread = props.unread();
      if (UnknownProperties.strict(getProperties()) && !unread.isEmpty()) { // a run without the launcher's Preflight
        throw new EngineProperties.BadPropertyException(EngineProperties.refusal(unread.first(),
            getProperties().getProperty(unread.first()), "a property " + engineName() + " reads ("
            + String.join(", ", unread) + ": none of them) with " + UnknownProperties.STRICT + "=true"));
      }
      DirectoryLock[] dirLock = new DirectoryLock[1]; // held from open to close by the shared handle
      lease = SharedHandles.acquire(engineName(), dir, () -> {
        long t0 = System.nanoTime();
        DataLayout recorded = null;
        String layoutNote = null;
        boolean earlier = false; // a database an earlier version wrote, without a layout record
        // destroy deletes whatever is there; otherwise a refusal leaves the directory as it was
        DirectoryListing before = null;
        if (!destroy) {
          EngineFiles.refuseForeign(dir, engineName());
          DamagedFiles.refuseDamaged(dir, engineName(), repairs());
          recorded = DataLayout.read(record);
          boolean exists = file == null ? !EngineFiles.identify(dir).isEmpty() : Files.exists(dir.resolve(file));
          if (needsRecords && !exists) { // before anything is created: a mistyped path stays missing
            throw new IOException("this run phase reads records, but " + (file == null ? dir.toAbsolutePath()
                : dir.resolve(file).toAbsolutePath()) + " holds no " + engineName() + " database (a mistyped path,"
                + " or no load yet?): every read would be NOT_FOUND. Load it first, or set " + ALLOW_EMPTY_RUN
                + "=true to run on an empty database; nothing was created");
          }
          String none = needsRecords ? noRecordInFiles(dir) : null;
          if (none != null) { // before the open, which writes even when it finds nothing
            throw new IOException(emptyRefusal(dir, file, none + "; nothing in it was changed"));
          }
          earlier = recorded == null && exists;
          layoutNote = admitLayout(dir, recorded, layout);
          // a repair changes the directory on purpose: what it moved must not be deleted as new
          before = repairs() ? null : DirectoryListing.take(dir, engine().filesAFailedOpenRewrites());
        }
        if (destroy && !destroyAnything) {
          refuseUnknownFiles(dir, file);
        }
        try {
          dirLock[0] = DirectoryLock.open(dir, destroy, !sharesDirectory());
        } catch (IOException | RuntimeException e) {
          throw undo(e, before, null); // another process holds the directory: nothing of ours is in it
        }
        H h;
        try {
          guard.check("opening " + engineName()); // a full disk at open is a SIGBUS for mmap engines
          h = opener.open();
          guard.opened();
          guard.follow(diskSpaceUsed(h));
        } catch (Exception e) {
          throw undo(guard.explain(e), before, dirLock[0]);
        }
        if (needsRecords) { // the files could not tell (a log of deletions): the open did, before the record
          try {
            refuseIfEmpty(h, dir, file);
          } catch (Exception e) {
            try {
              opener.close(h);
            } catch (Exception closing) {
              e.addSuppressed(closing);
            }
            // not put back: the engine's files are consistent as its open left them, a restored part of them not
            throw undo(e, null, dirLock[0]);
          }
        }
        if (!layout.equals(recorded)) { // after the first open that succeeded: a refused open writes nothing
          try {
            layout.write(record);
          } catch (IOException | RuntimeException e) {
            IOException refusal = new IOException("cannot record the layout in " + record.toAbsolutePath() + ": " + e,
                e);
            try {
              opener.close(h);
            } catch (Exception closing) {
              refusal.addSuppressed(closing);
            }
            throw undo(refusal, before, dirLock[0]); // the engine's new files go with the refusal
          }
        }
        String tag = "[" + engineName() + "] ";
        StringBuilder banner = new StringBuilder().append(tag).append("engine: ").append(opener.describe(h))
            .append(System.lineSeparator()).append(tag).append("opened ").append(dir.toAbsolutePath()).append(" in ")
            .append(millisSince(t0)).append(" ms; effective configuration:").append(System.lineSeparator())
            .append(props.describe()).append(tag).append("layout: ").append(layout.describe())
            .append(layout.equals(recorded) ? " (as recorded in " : earlier
                ? " (this directory has no record, written by a version before layouts were recorded: recorded now in "
                : " (recorded now in ").append(record.getFileName()).append(")").append(System.lineSeparator());
        // what the open does to the directory (a conversion) is on the first screen too
        String said = layoutNote == null ? "" : tag + layoutNote + System.lineSeparator();
        if (running) {
          banner.append(tag).append(allowEmpty ? "run phase on any database, empty or missing included ("
              + ALLOW_EMPTY_RUN + "=true)" : needsRecords ? "run phase reading records: a database that does not"
              + " exist or holds no record is refused (" + ALLOW_EMPTY_RUN + "=false)"
              : "run phase: its workload needs no loaded record, so an empty database is measured as it is")
              .append(System.lineSeparator());
        }
        String diskNote = diskSpaceNote(guard);
        if (diskNote != null && OncePerJvm.first(tag + diskNote)) {
          banner.append(tag).append(diskNote).append(System.lineSeparator());
        }
        for (String name : unread) { // not again when the launcher's Preflight said it (a name read nowhere)
          if (!OncePerJvm.said(UnknownProperties.onceKey(name))) {
            banner.append(tag).append(UnknownProperties.warning(name, getProperties().getProperty(name),
                propertyNames())).append(" (").append(engineName()).append("-binding/README.md lists every"
                + " property)").append(System.lineSeparator());
          }
        }
        System.err.print((verbose ? banner : StartupLines.firstScreen(banner.toString(), tag)) + said);
        OPEN_LAYOUTS.put(record, layout);
        return h;
      }, h -> {
        long t0 = System.nanoTime();
        OPEN_LAYOUTS.remove(record);
        guard.follow(null);
        try {
          opener.close(h);
        } finally {
          dirLock[0].close();
        }
        System.err.println("[" + engineName() + "] closed " + dir.toAbsolutePath() + " in " + millisSince(t0) + " ms");
      });
      try {
        // a client of the same JVM joining the open handle with another layout: refused as a reopen would be
        layout.refuseDisagreement(record, OPEN_LAYOUTS.get(record));
        db = join(lease.get());
      } catch (Exception e) {
        lease.close();
        lease = null;
        throw e;
      }
      disk = guard;
      diskCount = guard.counter();
      writer = lease.stripes().join();
      writes = writeGroup(db, batchSize);
    } catch (EngineProperties.BadPropertyException e) {
      throw ClientExitStatus.refused(new DBException("[" + engineName() + "] " + e.getMessage()));
    } catch (DBException e) {
      throw ClientExitStatus.refused(e);
    } catch (Exception e) {
      throw ClientExitStatus.refused(new DBException("[" + engineName() + "] cannot open: " + e.getMessage(), e));
    }
  }

  /**
   * Refuses a destroy of {@code dir} while it holds anything but this engine's database files and the project's own:
   * nothing is deleted, and the message names what is there.
   */
  private void refuseUnknownFiles(Path dir, String file) throws IOException {
    List<String> unknown = EngineFiles.notOwned(dir, engineName(), file);
    if (!unknown.isEmpty()) {
      int shown = Math.min(unknown.size(), 5);
      throw new IOException(EngineProperties.DESTROY + " would delete everything in " + dir.toAbsolutePath()
          + ", which holds " + unknown.size() + " entr" + (unknown.size() == 1 ? "y" : "ies") + " that "
          + (unknown.size() == 1 ? "is" : "are") + " not " + engineName() + "'s database nor this project's: "
          + String.join(", ", unknown.subList(0, shown)) + (unknown.size() > shown ? " and " + (unknown.size() - shown)
          + " more" : "") + ". Nothing was deleted. Point path at a directory of its own, move them out, or set "
          + DESTROY_UNKNOWN_FILES + "=true to delete them too");
    }
  }

  /** Refuses the open {@code shared} handle when it holds no record, through a client's handle of its own. */
  private void refuseIfEmpty(H shared, Path dir, String file) throws Exception {
    H mine = join(shared);
    boolean empty;
    try {
      empty = holdsNoRecord(mine);
    } finally {
      leave(mine);
    }
    if (empty) {
      throw new IOException(emptyRefusal(dir, file, "its files could not tell, its open found none, after which"
          + " the engine's own files are as the open left them"));
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new java.util.ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /** The refusal of a run phase that reads records on a database that holds none, and {@code why}. */
  private String emptyRefusal(Path dir, String file, String why) {
    return "this run phase reads records, but the " + engineName() + " database in " + (file == null
        ? dir.toAbsolutePath() : dir.resolve(file).toAbsolutePath()) + " holds none (" + why + "): every read"
        + " would be NOT_FOUND. Load it first, or set " + ALLOW_EMPTY_RUN + "=true to run on an empty database";
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

  /**
   * Whether a run phase of {@code p}'s workload reads records that a load wrote. The workload class says so itself
   * when it declares {@code public static boolean runReadsRecords(Properties)} ({@link #RUN_READS_RECORDS}: a
   * trace writes most keys before it reads them, and its load inserts the rest); otherwise any share of reads,
   * updates (which read first), scans, read-modify-writes, deletes or full passes, with CoreWorkload's defaults
   * (0.95 reads, 0.05 updates). A run of inserts alone may start from nothing. A value that is not a number counts
   * as reading: the workload refuses it itself.
   */
  static boolean readsRecords(Properties p) {
    Boolean said = workloadSaysItReadsRecords(p);
    if (said != null) {
      return said;
    }
    String[][] shares = {{"readproportion", "0.95"}, {"updateproportion", "0.05"}, {"scanproportion", "0"},
        {"readmodifywriteproportion", "0"}, {"deleteproportion", "0"}, {"readseqproportion", "0"}};
    for (String[] share : shares) {
      try {
        if (Double.parseDouble(p.getProperty(share[0], share[1]).trim()) > 0) {
          return true;
        }
      } catch (NumberFormatException e) {
        return true;
      }
    }
    return false;
  }

  /**
   * What the workload class's {@link #RUN_READS_RECORDS} method answers for {@code p}; null when the class declares
   * none or cannot be loaded (YCSB's Client then says why).
   */
  private static Boolean workloadSaysItReadsRecords(Properties p) {
    String name = p.getProperty("workload", "").trim();
    if (name.isEmpty()) {
      return null;
    }
    try {
      java.lang.reflect.Method m = Class.forName(name).getMethod(RUN_READS_RECORDS, Properties.class);
      if (!java.lang.reflect.Modifier.isStatic(m.getModifiers()) || m.getReturnType() != boolean.class) {
        return null;
      }
      return (Boolean) m.invoke(null, p);
    } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
      return null;
    }
  }

  /**
   * After a refused open: puts the directory back as {@code before} listed it (nothing when it is
   * null: destroy was asked for), provided no other process holds it, and releases {@code lock}.
   * Returns {@code refusal}, with what could not be put back said in a suppressed exception.
   */
  private static Exception undo(Exception refusal, DirectoryListing before, DirectoryLock lock) {
    try {
      // without a lock of ours only a directory this attempt created can hold files of ours
      boolean alone = lock == null ? before != null && before.wasMissing() : lock.takeExclusively();
      if (before != null && alone) {
        java.util.List<String> lost = before.restore();
        if (!lost.isEmpty()) {
          refusal.addSuppressed(new IOException("the refused open changed " + lost + ", which could not be put back"));
        }
      }
    } catch (IOException | RuntimeException e) {
      refusal.addSuppressed(e);
    } finally {
      try {
        if (lock != null) {
          lock.close();
        }
      } catch (IOException e) {
        refusal.addSuppressed(e);
      }
    }
    return refusal;
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
      if (!contains(db, k)) {
        return Status.NOT_FOUND;
      }
      put(db, k, codec.encode(values, reuse ? recordArray : null));
      return Status.OK;
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
   * after each open whatever came before) and returns {@code Status.ERROR}.
   */
  protected final Status failed(String op, String key, Exception error) {
    Exception e = disk == null ? error : disk.explain(error); // an EIO on a full disk says the disk is full
    int n = ERRORS.incrementAndGet();
    ClientExitStatus.operationFailed();
    boolean diskFull = e instanceof DiskSpaceGuard.DiskFullException && disk != null && disk.firstRefusal();
    if (n <= ERRORS_PRINTED || diskFull) {
      System.err.printf("[%s] %s of key '%s' failed: %s%n", engineName(), op, Keys.escape(key), e);
      if (n == 1) {
        e.printStackTrace();
      }
      if (n == ERRORS_PRINTED) {
        System.err.printf("[%s] further errors are counted, not printed%n", engineName());
      }
    }
    return Status.ERROR;
  }

  /** The record codec the properties ask for; adds what decides it to {@code layout[0]}. */
  private RecordCodec chooseCodec(EngineProperties props, DataLayout[] layout) {
    String chosen = props.choice(RECORD_LAYOUT, "auto", "auto", "fields", "bare");
    String prefix = getProperties().getProperty(FIELD_NAME_PREFIX, "field");
    long fieldcount = props.integer("fieldcount", 10L, 1L, Integer.MAX_VALUE);
    props.require(!chosen.equals("bare") || fieldcount == 1, RECORD_LAYOUT, "auto or fields with", "fieldcount",
        "bare stores one field");
    boolean bare = chosen.equals("bare") || (chosen.equals("auto") && fieldcount == 1);
    // fields names each field in the stored bytes; bare stores one value, read back under prefix + "0"
    layout[0] = layout[0].with(RECORD_LAYOUT, bare ? "bare" : "fields",
        chosen.equals("auto") ? "recordlayout=auto with fieldcount=" + fieldcount : null);
    if (bare) {
      layout[0] = layout[0].with(FIELD_NAME_PREFIX, prefix, null);
    }
    return bare ? RecordCodec.bare(prefix + "0") : RecordCodec.fields();
  }
}
