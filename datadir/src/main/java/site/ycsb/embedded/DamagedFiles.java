package site.ycsb.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Whether a data directory's files are damaged, read from their names and headers only (nothing is written,
 * created or locked), before any engine opens them: an engine opening such a directory would start an empty
 * database over the data or beside it. Which engine's files a directory holds is {@link EngineFiles}'s.
 */
public final class DamagedFiles {

  /** Such a file and its undo log: known damaged, kept for the user, never a database to open. */
  private static final Pattern KYOTO_BEFORE_REPAIR_FILE = Pattern.compile(".+\\.kc[th]"
      + Pattern.quote(EngineFiles.KYOTO_BEFORE_REPAIR) + "(\\.wal)?");
  /** LevelDB's and RocksDB's files that hold records. */
  private static final Pattern DATA_FILE = Pattern.compile("[0-9]+\\.(ldb|sst|log|blob)");
  /** Their temporary files (a CURRENT being written): no records in them. */
  private static final Pattern ENGINE_TEMP_FILE = Pattern.compile("[0-9]+\\.dbtmp");
  /** Files engines keep beside a database that no header marks: SQLite's -shm and -journal, Kyoto's .wal. */
  private static final Pattern ENGINE_SIDE_FILE = Pattern.compile(".+(-shm|-journal|\\.kc[th]\\.wal|\\.lock)");
  /** What CURRENT holds: a MANIFEST's name and a newline. */
  private static final Pattern CURRENT_CONTENT = Pattern.compile("MANIFEST-[0-9]+\n");
  /** An SQLite database file's header. */
  private static final int SQLITE_HEADER_BYTES = 100;
  /** A Kyoto Cabinet file's header (kchashdb.h HEADSIZ), and where in it the file size is (MOFFSIZE, big-endian). */
  private static final int KYOTO_HEADER_BYTES = 64;
  private static final int KYOTO_SIZE_OFFSET = 40;
  /** In an LMDB meta page ({@link EngineFiles#lmdbMeta}): the last page used. */
  private static final int LMDB_LAST_PAGE_OFFSET = 136;
  /** After an engine's name: its binding's property that repairs its files before the open. */
  private static final String REPAIR_PROPERTY = ".repair";

  private DamagedFiles() {
  }

  /**
   * Refuses {@code dir} when it is damaged: it holds an engine's data files but not what that engine
   * needs to open them, or a file that sits where a database would and that no engine here claims.
   * Opening such a directory would let the engine start an empty database over the data (LevelDB
   * without {@code CURRENT} deletes the tables as obsolete) or beside it. The rules:
   *
   * <ul>
   *   <li>LevelDB/RocksDB: non-empty table or log files without {@code CURRENT}; a {@code CURRENT}
   *       that does not name a MANIFEST, or names one that is missing. Not checked when
   *       {@code repairing} (LevelDB's RepairDB rebuilds them), except for RocksDB's files.</li>
   *   <li>SQLite: a database file shorter than its header's page count times page size (when no
   *       non-empty WAL or rollback journal, which may hold the rest, is beside it), or whose header
   *       fields are impossible.</li>
   *   <li>Kyoto Cabinet: a file shorter than the size its header records; not checked when {@code repairing}
   *       (the binding's repair: Kyoto rebuilds the file from the records up to its real end).</li>
   *   <li>LMDB: a non-empty {@code data.mdb} without a valid first meta page, shorter than its two meta
   *       pages, or shorter than the last page its newer meta page records (LMDB would map the missing
   *       pages as zeros). An empty one is a new environment, as LMDB treats it.</li>
   *   <li>Any non-empty regular file that no engine claims by its header or by its name (the
   *       project's own {@code .ycsb-embedded*} files aside): a database whose header is damaged
   *       looks like this, and so does a user's file.</li>
   * </ul>
   *
   * <p>Reads only; call it before anything creates a file in {@code dir}.
   */
  public static void refuseDamaged(Path dir, String ownEngine, boolean repairing) throws IOException {
    List<String> damage = damage(dir, repairing);
    if (!damage.isEmpty()) {
      throw new IOException("data directory " + dir.toAbsolutePath() + " is damaged, so " + ownEngine
          + " refuses to open it and nothing in it was changed: " + String.join("; ", damage));
    }
  }

  /** What {@link #refuseDamaged} finds wrong in {@code dir}, each with how to repair it; empty when nothing. */
  static List<String> damage(Path dir, boolean repairing) throws IOException {
    List<String> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    TreeSet<String> logData = new TreeSet<>();
    TreeSet<String> unclaimed = new TreeSet<>();
    TreeSet<String> all = new TreeSet<>();
    boolean rocksMarker = false;
    boolean records = false; // a MANIFEST alone (a new database killed before CURRENT) holds none to lose
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        all.add(p.getFileName().toString());
      }
    }
    for (String name : all) {
      Path p = dir.resolve(name);
      if (!Files.isRegularFile(p) || name.startsWith(EngineFiles.PROJECT_FILES) || name.equals("CURRENT")
          || name.equals("LOCK") || name.startsWith("LOG") || ENGINE_TEMP_FILE.matcher(name).matches()
          || name.equals(EngineFiles.LMDB_LOCK_FILE) // LMDB rebuilds its reader table when no process has it open
          || KYOTO_BEFORE_REPAIR_FILE.matcher(name).matches()) {
        continue;
      }
      if (name.startsWith("MANIFEST-") || name.startsWith("OPTIONS-") || name.equals("IDENTITY")
          || DATA_FILE.matcher(name).matches()) {
        rocksMarker |= name.startsWith("OPTIONS-") || name.equals("IDENTITY");
        records |= DATA_FILE.matcher(name).matches() && Files.size(p) > 0;
        logData.add(name);
      } else if (EngineFiles.startsWith(p, EngineFiles.SQLITE_HEADER)) {
        boolean recovery = nonEmpty(dir.resolve(name + "-wal")) || nonEmpty(dir.resolve(name + "-journal"));
        addIfNotNull(out, sqliteDamage(p, recovery));
      } else if (EngineFiles.startsWith(p, EngineFiles.KYOTO_HEADER)) {
        addIfNotNull(out, kyotoDamage(p, nonEmpty(dir.resolve(name + ".wal")), repairing, EngineFiles.byHeader(p)));
      } else if (name.equals(EngineFiles.LMDB_DATA_FILE)) {
        addIfNotNull(out, lmdbDamage(p));
      } else if (EngineFiles.byHeader(p) == null && Files.size(p) > 0 && !ENGINE_SIDE_FILE.matcher(name).matches()) {
        unclaimed.add(name);
      }
    }
    if (records && (!repairing || rocksMarker)) {
      addIfNotNull(out, currentDamage(dir, logData, rocksMarker));
    }
    if (!unclaimed.isEmpty()) {
      List<String> paths = unclaimed.stream().map(n -> dir.toAbsolutePath().resolve(n).toString()).toList();
      out.add("it holds " + EngineFiles.shown(paths) + ", which no engine here claims: each is not a Kyoto Cabinet"
          + " database, not an SQLite database and not a LevelDB or RocksDB file, by header or by name (a database"
          + " file whose header is damaged looks like this). Move them out, point path elsewhere, or use destroy=true"
          + " with " + EngineFiles.DESTROY_UNKNOWN_FILES + "=true to delete everything in it");
    }
    return out;
  }

  /** What is wrong with LevelDB's or RocksDB's {@code CURRENT} beside {@code logData}, or null. */
  private static String currentDamage(Path dir, TreeSet<String> logData, boolean rocks) throws IOException {
    String engine = rocks ? "RocksDB" : logData.stream().anyMatch(n -> n.endsWith(".ldb")) ? "LevelDB"
        : "LevelDB or RocksDB";
    String repair = rocks
        ? "Restore CURRENT from a backup, or rebuild it with RocksDB's RepairDB (ldb repair --db="
            + dir.toAbsolutePath() + ", from RocksDB's tools); records may be lost either way"
        : "Restore CURRENT from a backup, or run once with " + repairProperty(EngineFiles.byName(logData.first()))
            + "=true: LevelDB's RepairDB rebuilds CURRENT and a MANIFEST from the tables and logs (records in a"
            + " damaged file are lost)";
    Path current = dir.resolve("CURRENT");
    if (!Files.exists(current)) {
      return "it holds " + engine + " files (" + EngineFiles.shown(new ArrayList<>(logData)) + ") but no CURRENT,"
          + " the file that names the live MANIFEST: opened as it is, the engine would start an empty database and"
          + " delete those files. " + repair;
    }
    byte[] head = new byte[64];
    int n;
    try (InputStream in = Files.newInputStream(current)) {
      n = in.readNBytes(head, 0, head.length);
    }
    String named = new String(head, 0, n, StandardCharsets.US_ASCII);
    if (!CURRENT_CONTENT.matcher(named).matches()) {
      return "its CURRENT (" + n + " bytes) does not name a MANIFEST. " + repair;
    }
    String manifest = named.trim();
    if (!Files.isRegularFile(dir.resolve(manifest))) {
      return "its CURRENT names " + manifest + ", which is missing. " + repair;
    }
    return null;
  }

  /** Why an SQLite database file cannot be what its header says, or null. */
  private static String sqliteDamage(Path file, boolean recoveryBeside) throws IOException {
    long size = Files.size(file);
    String name = file.getFileName().toString();
    String repair = " Restore it from a backup, or salvage what is left with sqlite3's .recover into a new file";
    if (size < SQLITE_HEADER_BYTES) {
      return "the SQLite database " + name + " is cut short: " + size + " bytes, less than its " + SQLITE_HEADER_BYTES
          + "-byte header." + repair;
    }
    ByteBuffer h = ByteBuffer.wrap(readHead(file, SQLITE_HEADER_BYTES)); // big-endian, as SQLite writes it
    int pageSize = h.getShort(16) & 0xFFFF;
    pageSize = pageSize == 1 ? 65536 : pageSize;
    int write = h.get(18);
    int read = h.get(19);
    if (pageSize < 512 || Integer.bitCount(pageSize) != 1 || write < 1 || write > 2 || read < 1 || read > 2
        || h.get(21) != 64 || h.get(22) != 32 || h.get(23) != 32) {
      return "the header of " + name + " is damaged: it is not an SQLite database SQLite can open (page size "
          + pageSize + ", format versions "
          + write + "/" + read + ", payload fractions " + h.get(21) + "/" + h.get(22) + "/" + h.get(23)
          + "; SQLite writes a power of two from 512 to 65536, 1 or 2, and 64/32/32)." + repair;
    }
    long pages = h.getInt(28) & 0xFFFFFFFFL;
    boolean countValid = h.getInt(92) == h.getInt(24); // "version-valid-for" equals the change counter
    if (countValid && !recoveryBeside && size < pages * pageSize) {
      return "the SQLite database " + name + " is cut short: its header counts " + pages + " pages of " + pageSize
          + " bytes (" + pages * pageSize + " bytes), the file has " + size + "; SQLite would read the missing"
          + " pages as empty." + repair;
    }
    return null;
  }

  /**
   * Why a Kyoto Cabinet file is shorter than its header says, or null; recoveryBeside: its write-ahead log;
   * repairing: the binding's repair, whose rebuild reads the records up to the file's real end; engine: the one
   * whose header the file starts with, whose repair property the message names.
   */
  private static String kyotoDamage(Path file, boolean recoveryBeside, boolean repairing, EngineFiles.Engine engine)
      throws IOException {
    long size = Files.size(file);
    String name = file.getFileName().toString();
    String repair = " Restore it from a backup (kctreemgr check " + file.toAbsolutePath() + " shows the damage)";
    if (size < KYOTO_HEADER_BYTES) {
      return "the Kyoto Cabinet file " + name + " is cut short: " + size + " bytes, less than its "
          + KYOTO_HEADER_BYTES + "-byte header." + repair;
    }
    long recorded = ByteBuffer.wrap(readHead(file, KYOTO_HEADER_BYTES)).getLong(KYOTO_SIZE_OFFSET);
    if (recorded < KYOTO_HEADER_BYTES) {
      return "the Kyoto Cabinet file " + name + " has a damaged header (it records a size of " + recorded
          + " bytes)." + repair;
    }
    // Kyoto's own recovery: with auto-transactions a write the disk cut short leaves its write-ahead log
    // beside the file, and Kyoto's open rolls the file back to its size before that write (a disk another
    // process filled: KyotoFullDiskTest). Only a cut with no log to undo it is damage.
    if (size < recorded && !recoveryBeside && !repairing) {
      return "the Kyoto Cabinet file " + name + " is cut short: its header records " + recorded + " bytes, the file"
          + " has " + size + ". Kyoto Cabinet can rebuild it from the records the file holds: run once with -p "
          + repairProperty(engine) + "=true (records in the missing " + (recorded - size) + " bytes, if any, are"
          + " lost), or"
          + " restore it from a backup (kctreemgr check " + file.toAbsolutePath() + " shows the damage)";
    }
    return null;
  }

  /** Why an LMDB data.mdb cannot hold what its meta pages say, or null (also for an empty one: a new environment). */
  private static String lmdbDamage(Path file) throws IOException {
    long size = Files.size(file);
    String name = file.getFileName().toString();
    String repair = " Restore it from a backup (mdb_stat -e " + file.getParent().toAbsolutePath() + " shows what LMDB"
        + " reads)";
    if (size == 0) {
      return null;
    }
    if (size < EngineFiles.LMDB_META_BYTES) {
      return "the LMDB file " + name + " is cut short: " + size + " bytes, less than its first meta page." + repair;
    }
    ByteBuffer first = EngineFiles.lmdbMeta(file, 0);
    int pageSize = first.getInt(EngineFiles.LMDB_PAGE_SIZE_OFFSET);
    if (first.getInt(EngineFiles.LMDB_MAGIC_OFFSET) != EngineFiles.LMDB_MAGIC
        || first.getInt(EngineFiles.LMDB_MAGIC_OFFSET + 4) != 1 || pageSize < 512 || pageSize > 65536
        || Integer.bitCount(pageSize) != 1) {
      return "the first meta page of the LMDB file " + name + " is damaged (no LMDB magic and version 1 with a page"
          + " size that is a power of two from 512 to 65536)." + repair;
    }
    if (size < 2L * pageSize) {
      return "the LMDB file " + name + " is cut short: " + size + " bytes, less than its two meta pages of "
          + pageSize + " bytes." + repair;
    }
    ByteBuffer newer = EngineFiles.lmdbNewerMeta(first, EngineFiles.lmdbMeta(file, pageSize));
    long lastPage = newer.getLong(LMDB_LAST_PAGE_OFFSET);
    if (lastPage < 1 || lastPage > Long.MAX_VALUE / pageSize - 1) {
      return "the meta page of the LMDB file " + name + " records an impossible last page " + lastPage + "." + repair;
    }
    if (size < (lastPage + 1) * pageSize) {
      return "the LMDB file " + name + " is cut short: its meta page records pages up to " + lastPage + " of "
          + pageSize + " bytes (" + (lastPage + 1) * pageSize + " bytes), the file has " + size + "." + repair;
    }
    return null;
  }

  /** {@code engine}'s repair property: its binding name and {@value #REPAIR_PROPERTY}. */
  private static String repairProperty(EngineFiles.Engine engine) {
    return engine.binding + REPAIR_PROPERTY;
  }

  private static byte[] readHead(Path file, int n) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(n);
    }
  }

  private static boolean nonEmpty(Path file) throws IOException {
    return Files.isRegularFile(file) && Files.size(file) > 0;
  }

  private static void addIfNotNull(List<String> out, String s) {
    if (s != null) {
      out.add(s);
    }
  }
}
