package site.ycsb.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A lock file in a data directory, held by every process that has the database open: shared
 * while the engine is open, exclusive while {@code destroy} deletes the directory's contents.
 * So no process deletes the files of a database that another process is using, whatever the
 * engine's own locking allows (SQLite in WAL mode, for one, lets a second process in).
 */
public final class DirectoryLock implements AutoCloseable {

  /** The lock file's name; destroy keeps it, engines ignore it. */
  public static final String FILE = ".ycsb-embedded.lock";

  private final FileChannel channel;
  private FileLock lock;

  private DirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Creates the directory if needed and takes the shared lock; with {@code destroy}, first
   * takes the lock exclusively and deletes everything else in the directory.
   *
   * @throws IOException naming the directory when it cannot be created or written, or when
   *     another process holds it and {@code destroy} was asked for
   */
  public static DirectoryLock open(Path dir, boolean destroy) throws IOException {
    return open(dir, destroy, false);
  }

  /**
   * As {@link #open(Path, boolean)}; with {@code alone}, keeps the lock exclusive, so that a second
   * process is refused here, before its engine touches a file (LevelDB and RocksDB rotate their LOG
   * before they find their own lock taken).
   */
  public static DirectoryLock open(Path dir, boolean destroy, boolean alone) throws IOException {
    createDirectory(dir);
    FileChannel ch = FileChannel.open(dir.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    try {
      if (destroy || alone) {
        FileLock exclusive = ch.tryLock();
        if (exclusive == null && destroy) {
          throw new IOException("cannot destroy " + dir.toAbsolutePath() + ": the database is locked by another"
              + " process that has it open (another YCSB run?); nothing was deleted");
        }
        if (exclusive == null) {
          throw new IOException(dir.toAbsolutePath() + " is locked by another process that has it open (another"
              + " YCSB run?); nothing in it was changed");
        }
        if (destroy) {
          deleteContents(dir);
        }
        if (alone) {
          return new DirectoryLock(ch, exclusive);
        }
        exclusive.release();
      }
      FileLock shared = ch.tryLock(0, Long.MAX_VALUE, true);
      if (shared == null) {
        throw new IOException(dir.toAbsolutePath() + " is locked by another process that is destroying it");
      }
      return new DirectoryLock(ch, shared);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /** Creates the data directory (and its parents) with a clear error when it cannot be written. */
  private static void createDirectory(Path dir) throws IOException {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new IOException("cannot create data directory " + dir.toAbsolutePath() + ": " + e, e);
    }
    if (!Files.isWritable(dir)) {
      throw new IOException("data directory " + dir.toAbsolutePath() + " is not writable");
    }
  }

  private static void deleteContents(Path dir) throws IOException {
    Path keep = dir.resolve(FILE);
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        if (!p.equals(dir) && !p.equals(keep)) {
          Files.delete(p);
        }
      }
    }
  }

  /**
   * Trades this process's lock for the exclusive one, without waiting: true when no other process
   * holds the directory, so that what a refused open created may be deleted. False leaves no lock.
   */
  boolean takeExclusively() throws IOException {
    if (lock == null) {
      return false;
    }
    if (!lock.isShared()) {
      return true;
    }
    lock.release();
    lock = channel.tryLock();
    return lock != null;
  }

  /** Releases the lock (the file stays). Idempotent. */
  @Override
  public void close() throws IOException {
    lock = null;
    if (channel.isOpen()) {
      channel.close();
    }
  }
}
