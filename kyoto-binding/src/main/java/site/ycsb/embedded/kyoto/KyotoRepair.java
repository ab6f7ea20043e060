package site.ycsb.embedded.kyoto;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import site.ycsb.embedded.EngineFiles;

/**
 * kyoto.repair: Kyoto Cabinet's repair of a database file, run on a copy in a process of its own.
 *
 * <p>Kyoto's repair (HashDB::reorganize_file) reads each record through its memory map without checking it
 * against the file's end: a file shorter than its header records, or a record whose length a damaged page
 * garbled, is a SIGBUS (or a std::bad_alloc, which aborts) in the process that runs it. So the repair runs in a
 * child JVM, on a copy grown with a hole to its recorded size and at least the map's (so that no mapped read
 * passes the end of the file), and the file is replaced only when the child rebuilt the copy. The file as it
 * was is kept beside it ({@link EngineFiles#KYOTO_BEFORE_REPAIR}); how many records the repair kept of how many
 * the file's own count held is said.
 */
final class KyotoRepair {

  /** A Kyoto Cabinet file's header (kchashdb.h HEADSIZ), where its size is (MOFFSIZE, big-endian). */
  private static final int HEADER_BYTES = 64;
  private static final int SIZE_OFFSET = 40;
  /** How the child reports: one line "count=N", or "error=message". */
  private static final String COUNT = "count=";
  private static final String ERROR = "error=";

  private KyotoRepair() {
  }

  /** What a repair did. {@code before} is -1 when the file's own count could not be read ({@code whyUnknown}). */
  record Outcome(Path file, Path backup, long before, String whyUnknown, long kept, long bytesBefore,
      long bytesAfter) {

    /** Whether the repair kept fewer records than the file's own count held. */
    boolean lost() {
      return before < 0 || kept < before;
    }

    /** The start-up line: what was rebuilt, what it kept of what, where the file as it was is. */
    String describe() {
      String what = before >= 0 ? "it kept " + number(kept) + " of the " + number(before) + " records the file's"
          + " own count held" + (kept < before ? " (" + number(before - kept) + " lost)" : "")
          : "it kept " + number(kept) + " records; how many the file held is unknown (its own count could not be"
          + " read: " + whyUnknown + ")";
      return (lost() ? "WARNING: " : "") + KyotoOptions.REPAIR + "=true: Kyoto Cabinet rebuilt a copy of "
          + file.toAbsolutePath() + " in a process of its own, which now serves in its place: " + what + "; "
          + number(bytesBefore) + " bytes before, " + number(bytesAfter) + " now. The file as it was is kept as "
          + backup.toAbsolutePath() + ": delete it once the repaired file serves (another repair is refused while it"
          + " is there)";
    }
  }

  /**
   * Repairs {@code options.file()} through a copy: refused, with nothing changed, when an earlier repair's file is
   * still beside it, when the filesystem lacks room for the copy and Kyoto's rebuild of it, or when the repair
   * fails or dies (the message says how). Call it under the directory lock, before the file is opened.
   */
  static Outcome repair(KyotoOptions options) throws IOException {
    Path file = options.file().toAbsolutePath();
    Path dir = file.getParent();
    Path wal = sibling(file, ".wal");
    Path backup = sibling(file, EngineFiles.KYOTO_BEFORE_REPAIR);
    Path backupWal = sibling(backup, ".wal");
    Path copy = dir.resolve(EngineFiles.REPAIR_COPY_PREFIX + file.getFileName());
    String what = KyotoOptions.REPAIR + "=true";
    if (Files.exists(backup) || Files.exists(backupWal)) {
      throw new IOException(what + ": " + backup + " is still there from an earlier repair, so " + file
          + " was not repaired again and nothing was changed: delete or move it (and " + backupWal.getFileName()
          + ", if any) to repair again, or run without " + KyotoOptions.REPAIR);
    }
    long size = Files.size(file);
    long walSize = Files.exists(wal) ? Files.size(wal) : 0;
    long needed = 2 * (size + walSize) + (8L << 20);
    long free = Files.getFileStore(dir).getUsableSpace();
    if (free < needed) {
      throw new IOException(what + ": repairing " + file + " needs about " + number(needed) + " bytes free (a copy"
          + " of the file and Kyoto's rebuild of it), " + dir + " has " + number(free) + "; nothing was changed");
    }
    List<Path> work = List.of(copy, sibling(copy, ".wal"), sibling(copy, ".tmpkch"), sibling(copy, ".tmpkct"));
    deleteAll(work); // a repair killed before its end left them; they are the project's own
    try {
      Files.copy(file, copy, StandardCopyOption.COPY_ATTRIBUTES);
      if (walSize > 0) { // the undo log of a write a kill or a full disk cut: Kyoto rolls the copy back with it
        Files.copy(wal, sibling(copy, ".wal"), StandardCopyOption.COPY_ATTRIBUTES);
      }
      growWithAHole(copy, Math.max(recordedSize(copy), mapSize(options)));
      String[] counted = child("count", copy, options);
      long before = counted[0] != null ? Long.parseLong(counted[0]) : -1;
      String[] repaired = child("repair", copy, options);
      if (repaired[0] == null) {
        throw new IOException(what + ": Kyoto Cabinet's repair of a copy of " + file + " failed (" + repaired[1]
            + "); the file was not changed. Restore it from a backup (kctreemgr check " + file + " shows the damage)");
      }
      try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.WRITE)) {
        ch.force(true);
      }
      Files.move(file, backup, StandardCopyOption.ATOMIC_MOVE);
      if (walSize > 0 || Files.exists(wal)) {
        Files.move(wal, backupWal, StandardCopyOption.ATOMIC_MOVE); // it belongs to the file as it was
      }
      Files.move(copy, file, StandardCopyOption.ATOMIC_MOVE);
      syncDirectory(dir);
      return new Outcome(file, backup, before, counted[1], Long.parseLong(repaired[0]), size, Files.size(file));
    } finally {
      deleteAll(work);
    }
  }

  /** {@code file} with {@code suffix} added to its name. */
  private static Path sibling(Path file, String suffix) {
    return file.resolveSibling(file.getFileName() + suffix);
  }

  private static void deleteAll(List<Path> paths) throws IOException {
    for (Path p : paths) {
      Files.deleteIfExists(p);
    }
  }

  /** The size the file's header records (its logical size). */
  private static long recordedSize(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer head = ByteBuffer.allocate(HEADER_BYTES);
      while (head.hasRemaining() && ch.read(head, head.position()) > 0) {
        continue;
      }
      return head.position() == HEADER_BYTES ? head.getLong(SIZE_OFFSET) : 0;
    }
  }

  /** The map size (msiz) of the tuning string: Kyoto reads the first that many bytes through its map. */
  private static long mapSize(KyotoOptions options) {
    for (String part : options.tuningSuffix().split("#")) {
      if (part.startsWith("msiz=")) {
        return Long.parseLong(part.substring(5));
      }
    }
    return KyotoOptions.MAP_SIZE_DEFAULT;
  }

  /**
   * Makes {@code file} at least {@code length} bytes long with zeros that take no blocks (one byte written at the
   * end, not ftruncate: the preloaded mmap-space library would reserve blocks for a grown length). Kyoto's
   * repair stops at the zeros as at any region it cannot read.
   */
  private static void growWithAHole(Path file, long length) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      if (ch.size() < length) {
        ch.write(ByteBuffer.wrap(new byte[1]), length - 1);
      }
    }
  }

  private static void syncDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // some filesystems refuse to sync a directory; the renames are still made
    }
  }

  /**
   * Runs {@link #main} in a JVM of its own on {@code copy}: {count, null}, or {null, why} when it failed or died
   * (a SIGBUS or an abort in Kyoto's code ends that JVM, not this one).
   */
  private static String[] child(String step, Path copy, KyotoOptions options) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx64m", "-XX:TieredStopAtLevel=1", "-XX:+SuppressFatalErrorMessage", "-XX:-CreateCoredumpOnCrash",
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path")));
    String libraryPath = System.getProperty("java.library.path");
    if (libraryPath != null) {
      cmd.add("-Djava.library.path=" + libraryPath);
    }
    cmd.addAll(List.of(KyotoRepair.class.getName(), step, copy.toString(), options.tuningSuffix(),
        Integer.toString(options.mode())));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.PIPE)
        .start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int exit;
    try {
      exit = p.waitFor();
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException(KyotoOptions.REPAIR + "=true: interrupted while Kyoto Cabinet's " + step + " ran", e);
    }
    String count = null;
    String error = null;
    for (String line : out.split("\n")) {
      if (line.startsWith(COUNT)) {
        count = line.substring(COUNT.length()).trim();
      } else if (line.startsWith(ERROR)) {
        error = line.substring(ERROR.length()).trim();
      }
    }
    if (exit == 0 && count != null) {
      return new String[] {count, null};
    }
    String last = out.strip();
    last = last.substring(Math.max(0, last.lastIndexOf('\n') + 1));
    return new String[] {null, error != null ? error : exit > 128
        ? "the process running it died of signal " + (exit - 128) + (exit - 128 == 6 ? " (abort)" : exit - 128 == 7
        ? " (SIGBUS)" : "") + (last.isEmpty() ? "" : ": " + last)
        : "exit status " + exit + (last.isEmpty() ? "" : ": " + last)};
  }

  /**
   * The child's side: {@code count FILE TUNING MODE} opens FILE read-only without Kyoto's repair and prints its
   * own record count; {@code repair FILE TUNING MODE} flags FILE for Kyoto's repair, opens it with MODE (Kyoto
   * rebuilds it), prints the count it holds then and closes it. Prints {@code error=message} and exits 1 when the
   * library refuses.
   */
  public static void main(String[] args) throws IOException {
    KyotoNative.ensureLoaded();
    String step = args[0];
    String path = args[1];
    byte[] pathAndTuning = (path + args[2]).getBytes(StandardCharsets.UTF_8);
    try {
      long db;
      if (step.equals("repair")) {
        if (!KyotoNative.flagForRepair(path.getBytes(StandardCharsets.UTF_8))) {
          throw new KyotoException(KyotoNative.ESYSTEM, "cannot flag " + path + " for repair");
        }
        db = KyotoNative.open(pathAndTuning, Integer.parseInt(args[3]));
      } else {
        db = KyotoNative.open(pathAndTuning, KyotoNative.OREADER | KyotoNative.ONOREPAIR);
      }
      String count;
      try {
        count = KyotoHandle.parseStatus(KyotoNative.status(db)).get("count");
      } finally {
        KyotoNative.close(db);
      }
      System.out.println(COUNT + count);
    } catch (KyotoException e) {
      System.out.println(ERROR + e.getMessage());
      System.exit(1);
    }
  }

  /** 1234567 -> "1,234,567". */
  static String number(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
