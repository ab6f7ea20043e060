package site.ycsb.embedded.lmdb;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.lmdbjava.EnvFlags;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.KeyValueDB;

/**
 * The LMDB binding's properties: names, defaults and ranges, read and checked once into what
 * {@link LmdbHandle#open} passes to mdb_env_open, and the text that says what each costs. Property
 * table: lmdb-binding/README.md.
 */
public final class LmdbOptions {

  // Engine-neutral knobs (lmdb.<name> overrides <name>); see EngineProperties.
  //   path             the environment's directory (data.mdb, lock.mdb)
  //   batchsize        inserts per write transaction (one commit per batch)
  //   sync             true: each commit fsyncs (durable); false: MDB_NOSYNC, the OS writes back
  //   cachesize, writebuffersize: do not apply (LMDB reads and writes through the OS page cache)
  /** sync=false by default, as for the other engines: commits are not fsynced (MDB_NOSYNC). */
  public static final boolean SYNC_DEFAULT = false;
  /** compression: LMDB stores pages as they are, so none is the only value. */
  public static final String COMPRESSION_DEFAULT = "none";
  /**
   * diskspacemargin: the free space LMDB needs beyond a write, for the tree pages and free list a
   * commit copies.
   */
  public static final long DISK_SPACE_MARGIN_DEFAULT = 16L << 20;

  // LMDB-only options.
  /**
   * The map: the most the data file may grow to. Reaching it is an ERROR naming this property (the map
   * is not grown while the binding runs: mdb_env_set_mapsize needs every transaction of the process
   * ended). Without a write map it costs address space only, so the default is large.
   */
  public static final String MAP_SIZE = "lmdb.mapsize";
  public static final long MAP_SIZE_DEFAULT = 64L << 30;
  /** Smallest map accepted: two meta pages and a few tree pages. */
  static final long MAP_SIZE_MIN = 1L << 20;
  /**
   * MDB_WRITEMAP: write through a writable map instead of pwrite. A full disk is then a SIGBUS that kills
   * the JVM; the binding's free-space guard refuses writes before that, as for the other mmap engines, so
   * the write map is refused with the guard off (diskspacemargin=0).
   */
  public static final String WRITE_MAP = "lmdb.writemap";
  public static final boolean WRITE_MAP_DEFAULT = false;
  /** false sets MDB_NORDAHEAD: no OS read-ahead on the map, for random reads of data beyond memory. */
  public static final String READ_AHEAD = "lmdb.readahead";
  public static final boolean READ_AHEAD_DEFAULT = true;
  /** Reader slots in lock.mdb: each client thread holds one for its life (its read transaction). */
  public static final String MAX_READERS = "lmdb.maxreaders";
  public static final int MAX_READERS_DEFAULT = 126;
  static final int MAX_READERS_MAX = 1 << 16;
  /**
   * How long a client keeps a read snapshot: {@code operation} renews its read transaction before each read or
   * scan and resets it after; {@code client} keeps it after a read and renews it only once a write committed
   * through this environment since (any client's: the directory lock keeps other processes out), or before this
   * client writes. Either way a read sees every write acknowledged before it began.
   */
  public static final String READ_SNAPSHOT = "lmdb.readsnapshot";
  public static final String READ_SNAPSHOT_DEFAULT = "client";
  /**
   * Which liblmdb lmdbjava calls: {@code bundled}, the one in lmdbjava's jar, or {@code system}, the system's
   * liblmdb.so.0 (Debian's liblmdb0), the library of the project's C floor and of YCSB-cpp. One per JVM
   * ({@link LmdbLibrary}); the two write the same files.
   */
  public static final String LIBRARY = "lmdb.library";
  public static final String LIBRARY_DEFAULT = LmdbLibrary.BUNDLED;

  private final long mapSize;
  private final int maxReaders;
  private final boolean sync;
  private final boolean writeMap;
  private final boolean readAhead;
  private final boolean keepsSnapshot;
  private final String library;
  private final List<String> notes;

  private LmdbOptions(long mapSize, int maxReaders, boolean sync, boolean writeMap, boolean readAhead,
      boolean keepsSnapshot, String library, List<String> notes) {
    this.mapSize = mapSize;
    this.maxReaders = maxReaders;
    this.sync = sync;
    this.writeMap = writeMap;
    this.readAhead = readAhead;
    this.keepsSnapshot = keepsSnapshot;
    this.library = library;
    this.notes = Collections.unmodifiableList(notes);
  }

  /** Reads and checks every LMDB property; a bad value is refused naming property, value and what is allowed. */
  public static LmdbOptions read(EngineProperties props) {
    boolean sync = props.bool(EngineProperties.SYNC, SYNC_DEFAULT);
    props.choice(EngineProperties.COMPRESSION, COMPRESSION_DEFAULT, "none");
    List<String> notes = new ArrayList<>();
    props.size(EngineProperties.CACHE_SIZE, 0);
    props.size(EngineProperties.WRITE_BUFFER_SIZE, 0);
    for (String knob : List.of(EngineProperties.CACHE_SIZE, EngineProperties.WRITE_BUFFER_SIZE)) {
      if (props.isSet(knob)) {
        notes.add(knob + " does not apply to LMDB (it reads and writes through the OS page cache); ignored");
      }
    }
    long mapSize = props.size(MAP_SIZE, MAP_SIZE_DEFAULT, MAP_SIZE_MIN, 1L << 46);
    if (mapSize % 4096 != 0) {
      throw props.refuse(MAP_SIZE, "a multiple of 4096 bytes (LMDB's page) from " + MAP_SIZE_MIN + " to "
          + (1L << 46));
    }
    boolean writeMap = props.bool(WRITE_MAP, WRITE_MAP_DEFAULT);
    boolean readAhead = props.bool(READ_AHEAD, READ_AHEAD_DEFAULT);
    boolean keepsSnapshot = props.choice(READ_SNAPSHOT, READ_SNAPSHOT_DEFAULT, "operation", "client").equals("client");
    String library = props.choice(LIBRARY, LIBRARY_DEFAULT, LmdbLibrary.BUNDLED, LmdbLibrary.SYSTEM);
    int maxReaders = props.integer(MAX_READERS, MAX_READERS_DEFAULT, 1, MAX_READERS_MAX);
    int threads = props.integer("threadcount", 1, 1, Integer.MAX_VALUE);
    props.require(threads <= maxReaders, MAX_READERS, "at least", "threadcount",
        "each client thread holds a reader slot");
    if (writeMap) {
      // the binding's free-space guard is all that stands between a write through the map and a SIGBUS
      long margin = props.size(KeyValueDB.DISK_SPACE_MARGIN, DISK_SPACE_MARGIN_DEFAULT);
      props.require(margin > 0, WRITE_MAP, "false with", KeyValueDB.DISK_SPACE_MARGIN, "a write through the map"
          + " onto a full disk is a SIGBUS that kills the JVM, and the free-space guard that diskspacemargin=0 turns"
          + " off is what refuses the write before that");
      notes.add("WARNING: lmdb.writemap=true writes through a writable map: if the disk fills despite the"
          + " free-space guard (another process filling it), the write is a SIGBUS that kills the JVM, not an"
          + " ERROR; the data file is also extended to the whole map size at once");
    }
    return new LmdbOptions(mapSize, maxReaders, sync, writeMap, readAhead, keepsSnapshot, library, notes);
  }

  /** The map size asked for in bytes (LMDB keeps a larger one an existing file records). */
  public long mapSize() {
    return mapSize;
  }

  public int maxReaders() {
    return maxReaders;
  }

  /** Whether each commit is fsynced before it returns. */
  public boolean sync() {
    return sync;
  }

  public boolean writeMap() {
    return writeMap;
  }

  public boolean readAhead() {
    return readAhead;
  }

  /** Whether a client keeps its read snapshot between reads until a write commits ({@link #READ_SNAPSHOT}=client). */
  public boolean keepsSnapshot() {
    return keepsSnapshot;
  }

  /** Which liblmdb lmdbjava calls: {@link LmdbLibrary#BUNDLED} or {@link LmdbLibrary#SYSTEM}. */
  public String library() {
    return library;
  }

  /** The mdb_env_open flags: MDB_NOTLS always (a read transaction per client, used from its thread). */
  public Set<EnvFlags> flags() {
    Set<EnvFlags> flags = EnumSet.of(EnvFlags.MDB_NOTLS);
    if (!sync) {
      flags.add(EnvFlags.MDB_NOSYNC);
    }
    if (writeMap) {
      flags.add(EnvFlags.MDB_WRITEMAP);
    }
    if (!readAhead) {
      flags.add(EnvFlags.MDB_NORDAHEAD);
    }
    return flags;
  }

  /** The flags as LMDB names them, with what a crash costs in them. */
  public String flagNames() {
    String names = flags().stream().map(Enum::name).sorted().collect(Collectors.joining("|"));
    String crash = sync ? "each commit fsynced before it returns: a kill or a power cut loses nothing that returned OK"
        : "commits not fsynced: a killed process loses nothing that returned OK (the OS has it); a power cut can"
            + " lose the last commits and, LMDB warns, leave the file damaged";
    return names + " (" + crash + ")";
  }

  /** What the start-up header should say about properties that do not apply or are risky. */
  public List<String> notes() {
    return notes;
  }
}
