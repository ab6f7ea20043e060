package site.ycsb.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Synthesised engine files (names and headers) and byte-exact snapshots of a directory, for tests. */
public final class EngineFileFixtures {

  /** An mtime in the past: a file that anything rewrites gets a new one. */
  private static final FileTime OLD = FileTime.fromMillis(1_600_000_000_000L);

  private EngineFileFixtures() {
  }

  /**
   * Writes into {@code dir} the files by which {@code engine}'s database is recognised, as the
   * engine names them; their contents past the header are not a valid database.
   */
  public static void writeFilesOf(EngineFiles.Engine engine, Path dir) throws IOException {
    Files.createDirectories(dir);
    switch (engine.binding) {
      case "leveldb":
      case "rocksdb":
        write(dir.resolve("CURRENT"), ascii("MANIFEST-000002\n"));
        write(dir.resolve("MANIFEST-000002"), new byte[] {0x56, 0x12, 0, 0, 1, 0x1a, 0, 1});
        write(dir.resolve("000003.log"), new byte[0]);
        write(dir.resolve("000005.sst"), new byte[] {1, 2, 3, 4});
        write(dir.resolve("LOG"), ascii("2026/11/22-20:00:00.000000 7f Delete type=3 #1\n"));
        write(dir.resolve("LOCK"), new byte[0]);
        if (engine.binding.equals("rocksdb")) {
          write(dir.resolve("IDENTITY"), ascii("a1b2c3d4-0000-0000-0000-000000000000\n"));
          write(dir.resolve("OPTIONS-000007"), ascii("[Version]\n  rocksdb_version=11.0.4\n"));
        }
        break;
      case "sqlite":
        write(dir.resolve("ycsb.db"), withHeader(EngineFiles.SQLITE_HEADER, 4096));
        write(dir.resolve("ycsb.db-wal"), new byte[0]);
        break;
      case "kyoto":
        write(dir.resolve("ycsb.kct"), withHeader(EngineFiles.KYOTO_HEADER, 8192));
        break;
      case "lmdb":
        write(dir.resolve(EngineFiles.LMDB_DATA_FILE), lmdbData(4096, 5, 8192)); // records 6 pages, holds 2
        write(dir.resolve(EngineFiles.LMDB_LOCK_FILE), withHeader(lmdbMagic(), 8192));
        break;
      default:
        throw new IllegalArgumentException(engine.toString());
    }
  }

  /**
   * Every file and directory under {@code dir}: relative name to size, SHA-256 and mtime (for a
   * directory: its mtime; a missing one: "missing"). Two snapshots are equal only when nothing was
   * added, removed or written.
   */
  public static Map<String, String> snapshot(Path dir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    if (Files.notExists(dir)) {
      out.put(".", "missing");
      return out;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String name = dir.relativize(p).toString();
        FileTime mtime = Files.getLastModifiedTime(p);
        out.put(name.isEmpty() ? "." : name, Files.isDirectory(p) ? "dir " + mtime
            : Files.size(p) + " bytes, sha256 " + sha256(Files.readAllBytes(p)) + ", mtime " + mtime);
      }
    }
    return out;
  }

  /**
   * As {@link #snapshot} without reading any file: names, sizes and mtimes. For a directory this JVM
   * has open: closing any descriptor of a file drops every POSIX lock the process holds on it.
   */
  public static Map<String, String> listing(Path dir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String name = dir.relativize(p).toString();
        out.put(name.isEmpty() ? "." : name, (Files.isDirectory(p) ? "dir " : Files.size(p) + " bytes, mtime ")
            + Files.getLastModifiedTime(p));
      }
    }
    return out;
  }

  /** Sets every file and directory under {@code dir} to an mtime in the past. */
  public static void age(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Files.setLastModifiedTime(p, OLD);
      }
    }
  }

  /** The engines other than the one whose binding is called {@code binding}. */
  public static List<EngineFiles.Engine> othersThan(String binding) {
    return Stream.of(EngineFiles.Engine.values()).filter(e -> !e.binding.equals(binding)).toList();
  }

  private static byte[] withHeader(byte[] header, int size) {
    byte[] b = new byte[size];
    System.arraycopy(header, 0, b, 0, header.length);
    for (int i = header.length; i < size; i++) {
      b[i] = (byte) (i * 31);
    }
    return b;
  }

  /**
   * An LMDB data.mdb of {@code size} bytes whose two meta pages (page size {@code pageSize}) record
   * pages up to {@code lastPage}; the rest is zeros.
   */
  public static byte[] lmdbData(int pageSize, long lastPage, int size) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(size).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (int page = 0; page < 2 && (page + 1) * pageSize <= size; page++) {
      int at = page * pageSize;
      b.putLong(at, page); // mp_pgno
      b.putInt(at + 16, EngineFiles.LMDB_MAGIC).putInt(at + 20, 1).putInt(at + 40, pageSize);
      b.putLong(at + 136, lastPage).putLong(at + 144, page); // the second meta page is the newer
    }
    return b.array();
  }

  private static byte[] lmdbMagic() {
    return java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(EngineFiles.LMDB_MAGIC)
        .array();
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static void write(Path file, byte[] content) throws IOException {
    Files.write(file, content);
    Files.setLastModifiedTime(file, OLD);
  }

  private static String sha256(byte[] b) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
