package site.ycsb.embedded.leveldb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import site.ycsb.embedded.KeyValueDB.SizeSink;
import site.ycsb.embedded.KeyValueDB.ValueSink;

/**
 * The open database, shared by every client thread: the primitives of one LevelDB library
 * (leveldbjni, {@link JniLevelDb}, or the system library, {@link SystemLevelDb}), so that the client
 * and its tests are the same for both. {@link #open} repairs when asked and opens; {@link #close}
 * closes once.
 */
public abstract class LevelDbHandle {
  /**
   * Whether a client wrote since open (set by every write, read at close). Open already writes a
   * log it replays to a table, so a session without writes has nothing to flush at close.
   */
  boolean written;

  /**
   * Opens the database in {@code dir} with the library and values of {@code options}, after LevelDB's
   * RepairDB when leveldb.repair asks for it; an error that says what to do.
   */
  public static LevelDbHandle open(Path dir, LevelDbOptions options) throws IOException {
    try {
      if (options.repair()) {
        repair(dir, options);
      }
      return options.system() ? SystemLevelDb.openDb(dir, options) : JniLevelDb.openDb(dir, options);
    } catch (IOException | RuntimeException e) {
      throw explain(dir, e);
    }
  }

  /** The LevelDB release and library {@code options} choose, without opening a database. */
  public static String libraryVersion(LevelDbOptions options) throws IOException {
    if (options.system()) {
      LevelDbNative.ensureLoaded();
      return "LevelDB " + LevelDbNative.version() + " (system library, the binding's JNI class)";
    }
    return "LevelDB " + JniLevelDb.LEVELDBJNI_LEVELDB_VERSION + " (leveldbjni-all " + JniLevelDb.jniVersion() + ")";
  }

  /** "leveldbjni" or "system". */
  public abstract String library();

  /** The LevelDB release ("1.13", "1.23"). */
  public abstract String levelDbVersion();

  /** The library and its version, for the start-up header. */
  public abstract String describe();

  /** The stored value under {@code key}, or null. */
  public abstract byte[] get(byte[] key) throws IOException;

  /** Whether a value is stored under {@code key}: by default a {@link #get}; a library that can, without a copy. */
  public boolean contains(byte[] key) throws IOException {
    return get(key) != null;
  }

  public abstract void put(byte[] key, byte[] value) throws IOException;

  public abstract void delete(byte[] key) throws IOException;

  /** The first {@code count} pairs as one atomic write batch. */
  public abstract void write(byte[][] keys, byte[][] values, int count) throws IOException;

  /** Up to {@code count} values in key order from {@code start} on. */
  public abstract void scan(byte[] start, int count, ValueSink sink) throws IOException;

  /** The stored lengths of what {@link #scan} would give: by default through it. */
  public void scanSizes(byte[] start, int count, SizeSink sink) throws IOException {
    scan(start, count, value -> sink.accept(value.length));
  }

  /** A LevelDB property ("leveldb.stats", "leveldb.sstables", ...), or null when unknown. */
  public abstract String property(String name);

  /** Compacts the whole key range (tests use it to push every table below level 0). */
  public abstract void compactAll();

  /** Writes the memtable to a table file: CompactRange("", "") compacts nothing else. */
  public abstract void flushMemtable();

  /**
   * The flush of the memtable at close: null once it is written, or why it was not (the log keeps every
   * write, and the next open replays it). By default {@link #flushMemtable}: LevelDB 1.23's CompactRange
   * returns on a background error.
   */
  public String flushAtClose() throws IOException {
    flushMemtable();
    return null;
  }

  /** Closes the database. */
  public abstract void close() throws IOException;

  /** LevelDB's own statistics ("leveldb.stats"): files, sizes and compaction work per level. */
  public String stats() {
    return property("leveldb.stats");
  }

  /**
   * Runs the chosen library's RepairDB when the directory holds LevelDB files, and prints what it did:
   * the files it changed and the lines it wrote to LOG.
   */
  static void repair(Path dir, LevelDbOptions options) throws IOException {
    List<String> before = listing(dir);
    if (before.stream().noneMatch(n -> n.startsWith("MANIFEST-") || n.matches("[0-9]+\\.(ldb|sst|log) .*"))) {
      System.err.println("[leveldb] " + LevelDbOptions.REPAIR + "=true: " + dir.toAbsolutePath() + " holds no"
          + " LevelDB files, nothing to repair");
      return;
    }
    if (options.system()) {
      SystemLevelDb.repairDb(dir, options);
    } else {
      JniLevelDb.repairDb(dir, options);
    }
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
