package site.ycsb.embedded;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Whether a database holds a record, read from its files alone (nothing is opened through the engine, locked,
 * created or written), so that a run phase that reads records refuses an empty database before the engine's open
 * changes its directory: LevelDB and RocksDB write a new log and MANIFEST and rotate their LOG, an engine of one
 * file makes a database of an empty one. A binding answers for its engine in {@code KeyValueDB.noRecordInFiles}:
 * through {@link #logStructured}, shared by the two log-structured engines, or through a reader of its own files in
 * its module, which may use {@link #read} and {@link #nonEmpty}. Each answer is why the files hold no record, or
 * null when they hold one or it cannot tell (the open then decides): "none" only where the engine's open would find
 * none.
 */
public final class RecordsInFiles {

  /** LevelDB's and RocksDB's files that hold records: tables (1.13's .sst, 1.23's .ldb), RocksDB's blobs. */
  private static final Pattern TABLE_FILE = Pattern.compile("[0-9]+\\.(ldb|sst|blob)");
  private static final Pattern LOG_FILE = Pattern.compile("[0-9]+\\.log");

  private RecordsInFiles() {
  }

  /**
   * LevelDB's or RocksDB's directory: no record when it holds no table file and no log with a byte in it (what a
   * database created and closed without a write leaves). A table that holds only deletions, or a log of them, is
   * not told apart from one that holds records.
   */
  public static String logStructured(Path dir) throws IOException {
    List<String> logs = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        String name = p.getFileName().toString();
        if (TABLE_FILE.matcher(name).matches() || LOG_FILE.matcher(name).matches() && Files.size(p) > 0) {
          return null;
        }
        if (LOG_FILE.matcher(name).matches()) {
          logs.add(name);
        }
      }
    }
    logs.sort(null);
    return "it has no table file" + (logs.isEmpty() ? " and no log" : " and its log (" + String.join(", ", logs)
        + ") is empty");
  }

  /** Up to {@code n} bytes of {@code file} from {@code offset}, big-endian; fewer at its end. */
  public static ByteBuffer read(Path file, long offset, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n);
    try (FileChannel ch = FileChannel.open(file)) {
      while (b.hasRemaining() && ch.read(b, offset + b.position()) > 0) {
        continue;
      }
    }
    return b.flip();
  }

  /** Whether {@code file} is a regular file with a byte in it (a write-ahead log or journal that may hold more). */
  public static boolean nonEmpty(Path file) throws IOException {
    return Files.isRegularFile(file) && Files.size(file) > 0;
  }
}
