package site.ycsb.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which engines' files a data directory holds, found by reading names and file headers only
 * (nothing is written, created or locked), so that a binding refuses another engine's database
 * instead of creating its own beside it, and leaves the directory exactly as it was. Whether those files are
 * damaged is {@link DamagedFiles}'s, from the names and headers defined here.
 *
 * <ul>
 *   <li>LevelDB: {@code CURRENT} (naming a {@code MANIFEST-}) or a {@code MANIFEST-*} file, and no
 *       RocksDB marker.</li>
 *   <li>RocksDB: the same plus {@code OPTIONS-*} or {@code IDENTITY}, which LevelDB never writes.</li>
 *   <li>SQLite: a file that starts with the 16 bytes {@code "SQLite format 3\0"}, or a WAL file
 *       (magic 0x377f0682/3).</li>
 *   <li>Kyoto Cabinet: a file that starts with {@code "KC\n\0"} (kchashdb.h's magic, also the
 *       TreeDB's), or one named {@code *.kct} or {@code *.kch} that no header claims.</li>
 *   <li>LMDB: {@code data.mdb} or {@code lock.mdb} (the names of an environment in a directory) that
 *       no header claims.</li>
 * </ul>
 */
public final class EngineFiles {

  /** The first 16 bytes of every SQLite database file. */
  public static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
  /** The first 4 bytes of every Kyoto Cabinet HashDB and TreeDB file (KCHDBMAGICDATA with its NUL). */
  static final byte[] KYOTO_HEADER = {'K', 'C', '\n', 0};
  /** An SQLite WAL file's magic, big-endian; the last bit is the checksum byte order. */
  private static final int SQLITE_WAL_MAGIC = 0x377f0682;

  /** An engine whose files can be recognised. */
  public enum Engine {
    LEVELDB("leveldb", "LevelDB"),
    ROCKSDB("rocksdb", "RocksDB"),
    SQLITE("sqlite", "SQLite"),
    KYOTO("kyoto", "Kyoto Cabinet"),
    LMDB("lmdb", "LMDB");

    /** The binding's engine name ({@code bin/ycsb load <name>}). */
    public final String binding;
    /** The engine's own name, for messages. */
    public final String title;

    Engine(String binding, String title) {
      this.binding = binding;
      this.title = title;
    }
  }

  /** Names listed in a refusal before "and N more". */
  private static final int NAMES_SHOWN = 5;

  /**
   * The binding property ({@code KeyValueDB}'s) with which {@code destroy} deletes files no engine here claims: named
   * in the refusals that say how to get past them.
   */
  static final String DESTROY_UNKNOWN_FILES = "destroyunknownfiles";
  /** The prefix of the project's own files in a data directory (the directory lock, records of ours). */
  static final String PROJECT_FILES = ".ycsb-embedded";
  /** In a registry's {@code files.owned} pattern: the binding's database file, for an engine that has one. */
  static final String DATABASE_FILE = "{file}";
  /** The name of the Kyoto binding's working copy of a file it repairs, before the file's own name. */
  public static final String REPAIR_COPY_PREFIX = PROJECT_FILES + ".repairing.";
  /** Added to a Kyoto Cabinet file's name (and its .wal's), the file as it was before the binding's repair. */
  public static final String KYOTO_BEFORE_REPAIR = ".before-repair";

  /** An LMDB environment's files in its directory: the B+tree (two meta pages first) and the reader table. */
  public static final String LMDB_DATA_FILE = "data.mdb";
  public static final String LMDB_LOCK_FILE = "lock.mdb";
  /** MDB_MAGIC, little-endian after the 16-byte page header of a 64-bit build (both meta pages). */
  public static final int LMDB_MAGIC = 0xBEEFC0DE;
  /** In a meta page (MDB_meta in LMDB's mdb.c, after PAGEHDRSZ): magic, version, page size, last page, txn id. */
  public static final int LMDB_MAGIC_OFFSET = 16;
  public static final int LMDB_PAGE_SIZE_OFFSET = 40;
  static final int LMDB_META_BYTES = 152;
  /** In a meta page: the transaction id that last wrote it (the newer of the two meta pages has the larger). */
  public static final int LMDB_TXNID_OFFSET = 144;

  /** LevelDB's and RocksDB's numbered files (compiled once: a directory can hold thousands). */
  private static final Pattern NUMBERED_FILE = Pattern.compile("[0-9]+\\.(ldb|sst|log)");

  private EngineFiles() {
  }

  /**
   * The engines whose files {@code dir} holds, each with the names of the files that show it
   * (sorted); empty when {@code dir} is missing, not a directory or holds none.
   */
  public static Map<Engine, List<String>> identify(Path dir) throws IOException {
    Map<Engine, TreeSet<String>> found = new EnumMap<>(Engine.class);
    if (!Files.isDirectory(dir)) {
      return Map.of();
    }
    TreeSet<String> logStructured = new TreeSet<>(); // LevelDB's file names, which RocksDB shares
    boolean manifest = false;
    boolean rocksMarker = false;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        String name = p.getFileName().toString();
        if (!Files.isRegularFile(p) || name.equals(DirectoryLock.FILE) || name.startsWith(DataLayout.FILE)) {
          continue;
        }
        if (name.startsWith("OPTIONS-") || name.equals("IDENTITY")) {
          rocksMarker = true;
          logStructured.add(name);
        } else if (name.startsWith("MANIFEST-")) {
          manifest = true;
          logStructured.add(name);
        } else if (name.equals("CURRENT")) {
          if (startsWith(p, "MANIFEST-".getBytes(StandardCharsets.US_ASCII))) {
            manifest = true;
            logStructured.add(name);
          }
        } else if (NUMBERED_FILE.matcher(name).matches() || name.equals("LOCK") || name.startsWith("LOG")) {
          logStructured.add(name);
        } else {
          Engine byContent = byHeader(p);
          if (byContent == null && (name.endsWith(".kct") || name.endsWith(".kch"))) {
            byContent = Engine.KYOTO;
          }
          if (byContent == null && (name.equals(LMDB_DATA_FILE) || name.equals(LMDB_LOCK_FILE))) {
            byContent = Engine.LMDB;
          }
          if (byContent != null) {
            found.computeIfAbsent(byContent, e -> new TreeSet<>()).add(name);
          }
        }
      }
    }
    if (manifest) {
      found.put(rocksMarker ? Engine.ROCKSDB : Engine.LEVELDB, logStructured);
    }
    Map<Engine, List<String>> out = new EnumMap<>(Engine.class);
    found.forEach((engine, names) -> out.put(engine, List.copyOf(names)));
    return out;
  }

  /**
   * The entries of {@code dir} that are neither {@code ownEngine}'s (a binding name) database files, recognised by
   * name, nor the project's own ({@code .ycsb-embedded*}): what {@code destroy} must not delete unasked (a user's
   * notes beside a database, another engine's files). {@code databaseFile} is the binding's file inside the
   * directory (SQLite's and Kyoto's; null for an engine that names its files itself); a directory entry is never
   * an engine's. An engine's files by name are the registry's {@code <engine>.files.owned}, a regular expression
   * in which {@value #DATABASE_FILE} stands for {@code databaseFile}. Sorted; empty when {@code dir} is missing.
   * Reads names only.
   */
  public static List<String> notOwned(Path dir, String ownEngine, String databaseFile) throws IOException {
    List<String> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    // LevelDB's file names are RocksDB's too: what identify() gives another engine is that engine's
    java.util.Set<String> others = new java.util.HashSet<>();
    identify(dir).forEach((engine, names) -> {
      if (!engine.binding.equals(ownEngine)) {
        others.addAll(names);
      }
    });
    Pattern owned = ownedFiles(ownEngine, databaseFile);
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        String name = p.getFileName().toString();
        boolean file = Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if (!(file && !others.contains(name)
            && (name.startsWith(PROJECT_FILES) || (owned != null && owned.matcher(name).matches())))) {
          out.add(name + (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS) ? "/" : ""));
        }
      }
    }
    out.sort(null);
    return out;
  }

  /**
   * {@code engine}'s (a binding name) files by name, from the registry's {@code files.owned}; null when it has none,
   * or when they are named after a database file and {@code databaseFile} is null.
   */
  static Pattern ownedFiles(String engine, String databaseFile) {
    String owned = EngineRegistry.fact(engine, "files.owned");
    if (owned == null || owned.contains(DATABASE_FILE) && databaseFile == null) {
      return null;
    }
    return Pattern.compile(databaseFile == null ? owned : owned.replace(DATABASE_FILE, Pattern.quote(databaseFile)));
  }

  /**
   * Refuses {@code dir} when it holds files of an engine other than {@code ownEngine} (a binding
   * name, as bin/ycsb takes it), naming that engine and the directory. Reads only; call it before anything
   * creates a file in {@code dir}.
   */
  public static void refuseForeign(Path dir, String ownEngine) throws IOException {
    for (Map.Entry<Engine, List<String>> e : identify(dir).entrySet()) {
      if (e.getKey().binding.equals(ownEngine)) {
        continue;
      }
      throw new IOException("data directory " + dir.toAbsolutePath() + " holds " + e.getKey().title
          + " files (" + shown(e.getValue()) + "), not " + ownEngine
          + "'s: refusing to open it, and nothing in it was changed."
          + " Run " + e.getKey().binding + " on it, point path elsewhere, or use destroy=true with "
          + DESTROY_UNKNOWN_FILES + "=true to delete them");
    }
  }

  /** The first {@link #LMDB_META_BYTES} of the page at {@code offset}, little-endian as LMDB writes it on x86. */
  public static ByteBuffer lmdbMeta(Path file, long offset) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(LMDB_META_BYTES).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file)) {
      while (b.hasRemaining() && ch.read(b, offset + b.position()) > 0) {
        continue;
      }
    }
    return b.clear();
  }

  /**
   * The newer of an environment's two meta pages ({@link #lmdbMeta} at 0 and at the page size): the second when it
   * carries LMDB's magic and a larger transaction id (compared unsigned), else the first.
   */
  public static ByteBuffer lmdbNewerMeta(ByteBuffer first, ByteBuffer second) {
    boolean secondIsNewer = second.getInt(LMDB_MAGIC_OFFSET) == LMDB_MAGIC
        && Long.compareUnsigned(second.getLong(LMDB_TXNID_OFFSET), first.getLong(LMDB_TXNID_OFFSET)) > 0;
    return secondIsNewer ? second : first;
  }

  /** Up to {@link #NAMES_SHOWN} of {@code names}, then "and N more". */
  static String shown(List<String> names) {
    return names.stream().limit(NAMES_SHOWN).collect(Collectors.joining(", "))
        + (names.size() > NAMES_SHOWN ? " and " + (names.size() - NAMES_SHOWN) + " more" : "");
  }

  /** The engine whose header starts the file, or null (also for a file that cannot be read). */
  static Engine byHeader(Path file) {
    byte[] head = new byte[SQLITE_HEADER.length];
    int n;
    try (InputStream in = Files.newInputStream(file)) {
      n = in.readNBytes(head, 0, head.length);
    } catch (IOException e) {
      return null;
    }
    if (n == SQLITE_HEADER.length && Arrays.equals(head, SQLITE_HEADER)) {
      return Engine.SQLITE;
    }
    if (n >= KYOTO_HEADER.length && Arrays.equals(head, 0, KYOTO_HEADER.length, KYOTO_HEADER, 0,
        KYOTO_HEADER.length)) {
      return Engine.KYOTO;
    }
    if (n >= 4) {
      int magic = ((head[0] & 0xFF) << 24) | ((head[1] & 0xFF) << 16) | ((head[2] & 0xFF) << 8) | (head[3] & 0xFF);
      if ((magic & ~1) == SQLITE_WAL_MAGIC) {
        return Engine.SQLITE;
      }
    }
    return null;
  }

  /** Whether the file's first bytes are {@code prefix}; false when it cannot be read. */
  public static boolean startsWith(Path file, byte[] prefix) {
    byte[] head = new byte[prefix.length];
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(head, 0, head.length) == head.length && Arrays.equals(head, prefix);
    } catch (IOException e) {
      return false;
    }
  }
}
