package site.ycsb.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * instead of creating its own beside it, and leaves the directory exactly as it was.
 *
 * <ul>
 *   <li>LevelDB: {@code CURRENT} (naming a {@code MANIFEST-}) or a {@code MANIFEST-*} file, and no
 *       RocksDB marker.</li>
 *   <li>RocksDB: the same plus {@code OPTIONS-*} or {@code IDENTITY}, which LevelDB never writes.</li>
 *   <li>SQLite: a file that starts with the 16 bytes {@code "SQLite format 3\0"}, or a WAL file
 *       (magic 0x377f0682/3).</li>
 *   <li>Kyoto Cabinet: a file that starts with {@code "KC\n\0"} (kchashdb.h's magic, also the
 *       TreeDB's), or one named {@code *.kct} or {@code *.kch} that no header claims.</li>
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
    KYOTO("kyoto", "Kyoto Cabinet");

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
   * Refuses {@code dir} when it holds files of an engine other than {@code ownEngine} (a binding
   * name, "leveldb"), naming that engine and the directory. Reads only; call it before anything
   * creates a file in {@code dir}.
   */
  public static void refuseForeign(Path dir, String ownEngine) throws IOException {
    for (Map.Entry<Engine, List<String>> e : identify(dir).entrySet()) {
      if (e.getKey().binding.equals(ownEngine)) {
        continue;
      }
      List<String> names = e.getValue();
      String shown = names.stream().limit(NAMES_SHOWN).collect(Collectors.joining(", "))
          + (names.size() > NAMES_SHOWN ? " and " + (names.size() - NAMES_SHOWN) + " more" : "");
      throw new IOException("data directory " + dir.toAbsolutePath() + " holds " + e.getKey().title
          + " files (" + shown + "), not " + ownEngine + "'s: refusing to open it, and nothing in it was changed."
          + " Run " + e.getKey().binding + " on it, point path elsewhere, or use destroy=true to delete them");
    }
  }

  /** The engine whose header starts the file, or null (also for a file that cannot be read). */
  private static Engine byHeader(Path file) {
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
