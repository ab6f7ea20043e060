package site.ycsb.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A lock file in a data directory, held by every process that has the database open: shared
 * while the engine is open, exclusive while {@code destroy} deletes the directory's contents.
 * So no process deletes the files of a database that another process is using, whatever the
 * engine's own locking allows (SQLite in WAL mode, for one, lets a second process in).
 *
 * <p>A process outside the project does not take this lock ({@code mdb_dump} reading an LMDB environment, an
 * application's SQLite connection): so {@code destroy} also takes every file's own lock first, the one the
 * engines take ({@code fcntl} record locks: LevelDB's and RocksDB's {@code LOCK}, LMDB's {@code lock.mdb},
 * SQLite's database and {@code -shm} files, Kyoto's database file), and deletes nothing while any is held.
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
    List<Path> doomed = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        if (!p.equals(dir) && !p.equals(keep)) {
          doomed.add(p);
        }
      }
    }
    List<FileChannel> held = new ArrayList<>();
    try {
      for (Path p : doomed) {
        FileChannel ch = lockExclusively(dir, p);
        if (ch != null) {
          held.add(ch);
        }
      }
      for (Path p : doomed) { // every lock held: no engine of another process can open a file meanwhile
        Files.delete(p);
      }
    } finally {
      for (FileChannel ch : held) {
        ch.close();
      }
    }
  }

  /**
   * Takes {@code file}'s whole-file exclusive record lock (fcntl, as the engines lock their files), without
   * waiting: the channel that holds it, or null for what is not a regular file.
   *
   * @throws IOException naming the file and the process that holds a lock on it: nothing was deleted
   */
  private static FileChannel lockExclusively(Path dir, Path file) throws IOException {
    if (!Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    FileChannel ch;
    boolean writable = true;
    try {
      ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (java.nio.file.AccessDeniedException e) {
      ch = FileChannel.open(file, StandardOpenOption.READ); // a read-only file: a shared lock still finds writers
      writable = false;
    }
    FileLock lock;
    try {
      lock = ch.tryLock(0, Long.MAX_VALUE, !writable);
    } catch (java.nio.channels.OverlappingFileLockException e) {
      lock = null; // this JVM holds it itself
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    if (lock == null) {
      ch.close();
      throw new IOException("cannot destroy " + dir.toAbsolutePath() + ": " + holders(file) + " a lock on "
          + dir.relativize(file) + ", the engine's own lock of a process that has the database open; nothing"
          + " was deleted");
    }
    return ch;
  }

  /**
   * "process 1234 (mdb_dump) holds" from /proc/locks (Linux: the record locks on {@code file}'s device and
   * inode, this process's left out), or "another process holds" when that cannot be read.
   */
  static String holders(Path file) {
    List<String> who = new ArrayList<>();
    try {
      long ino = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
      long dev = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
      long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
      long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
      long self = ProcessHandle.current().pid();
      for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
        String[] f = line.trim().split("\\s+");
        // "1: POSIX ADVISORY READ 1234 fe:00:9978026 0 EOF"; a waiter's line has "->" after the number
        int at = f.length > 1 && f[1].equals("->") ? 2 : 1;
        if (f.length < at + 5) {
          continue;
        }
        String[] devIno = f[at + 4].split(":"); // "fe:00:9978026": major and minor in hex, the inode
        if (devIno.length == 3 && Long.parseLong(devIno[0], 16) == major && Long.parseLong(devIno[1], 16) == minor
            && Long.parseLong(devIno[2]) == ino && Long.parseLong(f[at + 3]) != self) {
          long pid = Long.parseLong(f[at + 3]);
          String name = ProcessHandle.of(pid).flatMap(h -> h.info().command())
              .map(c -> Path.of(c).getFileName().toString()).orElse("?");
          String one = "process " + pid + " (" + name + ")";
          if (!who.contains(one)) {
            who.add(one);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      return "another process holds";
    }
    return who.isEmpty() ? "another process holds" : String.join(" and ", who) + (who.size() == 1 ? " holds" : " hold");
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
