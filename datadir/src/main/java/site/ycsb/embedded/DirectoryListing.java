package site.ycsb.embedded;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a data directory held before an open: whether it existed, its mtime, each entry's size and
 * mtime, and a copy of the few files an engine rewrites even when its open fails (LevelDB and RocksDB
 * rotate their info {@code LOG} before they find out that they cannot open). After a refused open,
 * {@link #restore} deletes what the attempt created and puts those files back, so that a refusal
 * leaves the directory as it was, listing included.
 */
final class DirectoryListing {

  /** Files larger than this are not copied (an info LOG is kilobytes): a change to one is reported instead. */
  private static final long COPY_LIMIT = 64L << 20;

  private final Path dir;
  /** The topmost directory the open will have created: {@code dir} or a missing ancestor; null when it existed. */
  private final Path created;
  private final FileTime mtime;
  /** Name to "size mtime" of every entry. */
  private final Map<String, String> entries = new TreeMap<>();
  private final Map<String, byte[]> copies = new HashMap<>();

  private DirectoryListing(Path dir, Path created, FileTime mtime) {
    this.dir = dir;
    this.created = created;
    this.mtime = mtime;
  }

  /** Whether the directory did not exist when listed. */
  boolean wasMissing() {
    return mtime == null;
  }

  /** Takes the listing of {@code dir}, with a copy of each of {@code rewritten} that exists there. */
  static DirectoryListing take(Path dir, Set<String> rewritten) throws IOException {
    Path abs = dir.toAbsolutePath().normalize();
    if (!Files.isDirectory(abs)) {
      Path top = abs;
      while (top.getParent() != null && Files.notExists(top.getParent())) {
        top = top.getParent();
      }
      return new DirectoryListing(abs, Files.exists(top) ? null : top, null);
    }
    DirectoryListing l = new DirectoryListing(abs, null, Files.getLastModifiedTime(abs));
    try (DirectoryStream<Path> s = Files.newDirectoryStream(abs)) {
      for (Path p : s) {
        String name = p.getFileName().toString();
        l.entries.put(name, describe(p));
        if (rewritten.contains(name) && Files.isRegularFile(p) && Files.size(p) <= COPY_LIMIT) {
          l.copies.put(name, Files.readAllBytes(p));
        }
      }
    }
    return l;
  }

  /**
   * Puts the directory back as it was listed: deletes the entries (and the directory, if it was
   * missing) created since, rewrites the copied files that changed or went missing with their
   * old mtime, and resets the directory's mtime. Call it only while no other process can be
   * using the directory. Returns the names it could not put back (changed or deleted, no copy).
   */
  List<String> restore() throws IOException {
    List<String> lost = new ArrayList<>();
    if (mtime == null) {
      if (created != null && Files.exists(created)) {
        deleteTree(created);
      }
      return lost;
    }
    if (!Files.isDirectory(dir)) {
      lost.add(dir.toString());
      return lost;
    }
    List<Path> now = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      s.forEach(now::add);
    }
    for (Path p : now) {
      if (!entries.containsKey(p.getFileName().toString())) {
        deleteTree(p);
      }
    }
    for (Map.Entry<String, String> e : entries.entrySet()) {
      Path p = dir.resolve(e.getKey());
      boolean same = Files.exists(p) && describe(p).equals(e.getValue());
      byte[] copy = copies.get(e.getKey());
      if (same && (copy == null || java.util.Arrays.equals(copy, Files.readAllBytes(p)))) {
        continue;
      }
      if (copy == null) {
        lost.add(e.getKey());
        continue;
      }
      Files.write(p, copy);
      Files.setLastModifiedTime(p, FileTime.from(java.time.Instant.parse(e.getValue().split(" ")[1])));
    }
    Files.setLastModifiedTime(dir, mtime);
    return lost;
  }

  /** "size mtime" (a directory's size is its kind's, not its contents'). */
  private static String describe(Path p) throws IOException {
    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
    return (a.isDirectory() ? "dir" : Long.toString(a.size())) + " " + a.lastModifiedTime().toInstant();
  }

  /** Deletes {@code top} and everything under it. */
  static void deleteTree(Path top) throws IOException {
    try (Stream<Path> s = Files.walk(top)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
