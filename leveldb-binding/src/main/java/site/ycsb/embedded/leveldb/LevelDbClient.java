package site.ycsb.embedded.leveldb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import site.ycsb.embedded.ClientExitStatus;
import site.ycsb.embedded.DataLayout;
import site.ycsb.embedded.DiskSpaceGuard;
import site.ycsb.embedded.EngineFacts;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.KeyValueDB;
import site.ycsb.embedded.MmapSpace;
import site.ycsb.embedded.RecordsInFiles;

/**
 * YCSB binding for LevelDB through one of two libraries ({@value LevelDbOptions#LIBRARY}): leveldbjni
 * (fusesource 1.8, LevelDB 1.13 with Snappy) or the system's LevelDB (1.23 on Debian 12) through the
 * binding's own JNI layer. The properties are {@link LevelDbOptions}, the open database a
 * {@link LevelDbHandle}; property table: leveldb-binding/README.md.
 */
public class LevelDbClient extends KeyValueDB<LevelDbHandle> {

  /**
   * Copies of one write LevelDB may hold on disk at once, counted before a large write: the log record;
   * the level-0 table the memtable flush writes before it deletes that log (two at once); and one more
   * for the flush or compaction of the previous large write, which the free space does not show yet
   * (a compaction, too, writes its output before deleting its input).
   */
  static final double WRITE_COPIES = 3;

  /**
   * Below this much free space the start-up lines say what another process filling the disk would do
   * to leveldbjni: 1 GiB is a few seconds of one other writer (dd onto tmpfs ran at 60 MB/s to 1.7 GB/s
   * on this shared machine), well within one load, and far beyond the margin the guard keeps for
   * LevelDB's own writes (36 MB by default), which another process is free to take.
   */
  static final long LOW_FREE_SPACE = 1L << 30;

  /**
   * The engine, its property names in LevelDbOptions (what the launcher takes as known: KeyValueDB.propertyNames);
   * LevelDB renames LOG to LOG.old and starts a new LOG before it finds that it cannot open; a write may be on disk
   * {@link #WRITE_COPIES} times.
   */
  private static final EngineFacts FACTS = EngineFacts.of("leveldb", LevelDbOptions.class)
      .withFilesAFailedOpenRewrites(Set.of("LOG", "LOG.old")).withDiskSpaceWriteFactor(WRITE_COPIES);

  @Override
  protected EngineFacts facts() {
    return FACTS;
  }

  /** The chosen library, before YCSB's clock starts (see KeyValueDB): leveldbjni unpacks it from its jar. */
  @Override
  protected void loadEngineLibrary() throws IOException {
    if (LevelDbOptions.LIBRARY_SYSTEM.equals(getProperties().getProperty(LevelDbOptions.LIBRARY))) {
      LevelDbNative.ensureLoaded();
    } else {
      org.fusesource.leveldbjni.internal.NativeDB.LIBRARY.load();
    }
  }

  /** The options configure() read (null before). */
  private LevelDbOptions options;

  @Override
  protected EngineOpener<LevelDbHandle> configure(EngineProperties props, Path dir) throws Exception {
    LevelDbOptions read = LevelDbOptions.read(props);
    options = read;
    return new EngineOpener<LevelDbHandle>() {
      @Override
      public LevelDbHandle open() throws IOException {
        return LevelDbHandle.open(dir, read);
      }

      @Override
      public void close(LevelDbHandle h) throws IOException {
        // LevelDB has no flush call, but CompactRange always writes the memtable to a table
        // first, and an empty range compacts nothing else. Without it the next run replays the
        // log inside its timed window. On a full disk that write would be a SIGBUS with leveldbjni
        // (mmap): the log keeps every write, so the flush is left to the next open.
        String shortage = diskSpaceShortage("the flush of the memtable at close");
        String stats;
        try {
          if (shortage == null) {
            if (h.written) { // a read-only run leaves the files as it found them (no new log, no MANIFEST edit)
              String unflushed = h.flushAtClose();
              if (unflushed != null) {
                System.err.println("[leveldb] the memtable was not flushed at close: " + unflushed + "; the log"
                    + " keeps every acknowledged write and the next open replays it");
              }
            }
          } else {
            System.err.printf("[leveldb] %s; the log keeps the writes and the next open replays it%n", shortage);
          }
          stats = h.stats();
        } finally {
          try {
            h.close();
          } catch (IOException | RuntimeException e) {
            ClientExitStatus.operationFailed(); // YCSB prints the close's exception and would exit 0
            throw e;
          }
        }
        // no Formatter here: see KeyValueDB.millisSince
        System.err.print("[leveldb] leveldb.stats at close:" + System.lineSeparator() + stats);
      }

      @Override
      public String describe(LevelDbHandle h) {
        return h.describe();
      }
    };
  }

  /** The library is part of the layout: a LevelDB 1.23 table (.ldb) cannot be read by leveldbjni's 1.13. */
  @Override
  protected DataLayout layout(DataLayout common) {
    return common.with(LevelDbOptions.LIBRARY, options.library(), null);
  }

  /**
   * Refuses a database that the other library wrote, untouched, unless it is leveldbjni's and
   * leveldb.convert=true asks for system. Which library wrote it: the layout record, or for a directory
   * without one its tables (1.13 names them .sst, 1.14 and later .ldb). leveldbjni refuses any .ldb table.
   */
  @Override
  protected String admitLayout(Path dir, DataLayout recorded, DataLayout wanted) throws IOException {
    String library = LevelDbOptions.LIBRARY;
    String convert = LevelDbOptions.CONVERT;
    String jni = LevelDbOptions.LIBRARY_LEVELDBJNI;
    String system = LevelDbOptions.LIBRARY_SYSTEM;
    List<String> newTables = tables(dir, ".ldb");
    List<String> oldTables = tables(dir, ".sst");
    String to = wanted.get(library);
    String refused = ": refusing to open it, and nothing in it was changed. ";
    if (to.equals(jni) && !newTables.isEmpty()) {
      throw new IOException("data directory " + dir.toAbsolutePath() + " holds tables written by LevelDB 1.14 or"
          + " later (" + shown(newTables) + "), which leveldbjni's LevelDB 1.13 cannot read (it reports them as"
          + " missing .sst files)" + refused + "Open it with -p " + library + "=system (LevelDB 1.23), which wrote"
          + " them; a database does not convert back to LevelDB 1.13");
    }
    String from = recorded != null ? recorded.get(library)
        : !newTables.isEmpty() ? system : !oldTables.isEmpty() ? jni : null;
    String how = recorded != null && from != null ? "recorded in " + DataLayout.FILE
        : "no layout record; its tables are " + (newTables.isEmpty() ? ".sst files" : ".ldb files");
    if (from == null || from.equals(to)) {
      return super.admitLayout(dir, recorded, wanted);
    }
    if (to.equals(jni)) {
      throw new IOException("data directory " + dir.toAbsolutePath() + " holds a database written with " + library
          + "=system (LevelDB 1.23; " + how + ")" + refused + "Open it with -p " + library + "=system; a database"
          + " does not convert back to LevelDB 1.13");
    }
    if (!options.convert()) {
      throw new IOException("data directory " + dir.toAbsolutePath() + " holds a database written with " + library
          + "=leveldbjni (LevelDB 1.13; " + how + "); " + library + "=system (LevelDB 1.23) would write its tables"
          + " as .ldb files, which leveldbjni cannot read" + refused + "Open it with -p " + library + "=leveldbjni,"
          + " or convert it for good with -p " + convert + "=true (one way: leveldbjni cannot open it afterwards)");
    }
    super.admitLayout(dir, recorded == null ? null : recorded.with(library, to, null), wanted);
    return "converting " + dir.toAbsolutePath() + " from " + library + "=leveldbjni (LevelDB 1.13) to system"
        + " (LevelDB 1.23), as " + convert + "=true asks: its .sst tables (" + oldTables.size() + ") are read as"
        + " they are, every table written from now on is .ldb, and the layout record says system: leveldbjni"
        + " refuses this directory from now on";
  }

  /** The names of the table files in {@code dir} ending in {@code suffix}, sorted. */
  private static List<String> tables(Path dir, String suffix) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(suffix)).sorted().toList();
    }
  }

  /** At most three names, then how many more. */
  private static String shown(List<String> names) {
    return String.join(", ", names.subList(0, Math.min(3, names.size())))
        + (names.size() > 3 ? " and " + (names.size() - 3) + " more" : "");
  }

  @Override
  protected boolean repairs() {
    return options.repair();
  }

  /** No table and an empty log: the open would find no record (and write a new log and MANIFEST). */
  @Override
  protected String noRecordInFiles(Path dir) throws IOException {
    return RecordsInFiles.logStructured(dir);
  }

  /**
   * LevelDB 1.13 writes through mmap (a full disk is a SIGBUS), and after the last accepted write
   * may still flush the memtable being filled and the one being flushed, compact up to four level-0
   * tables with the overlapping 10 MB of level 1, and flush the memtable at close: six write
   * buffers and 12 MB.
   */
  @Override
  protected long diskSpaceMargin() {
    return 6L * options.writeBufferSize() + (12L << 20);
  }

  /** With leveldbjni below {@link #LOW_FREE_SPACE}: what another process filling the disk would do. */
  @Override
  protected String diskSpaceNote(DiskSpaceGuard guard) {
    long free = guard.free();
    return !options.system() && free >= 0 && free < LOW_FREE_SPACE ? lowSpaceNote(free, guard.filesystem(),
        MmapSpace.preloaded()) : null;
  }

  static String lowSpaceNote(long free, String filesystem, boolean preloaded) {
    String where = (free >> 20) + " MB free on " + filesystem + " (under " + (LOW_FREE_SPACE >> 30) + " GiB)";
    if (preloaded) {
      return "disk: " + where + ": should another process fill it, writes return ERROR (" + MmapSpace.LIBRARY
          + " is preloaded: leveldbjni's memory-mapped files get their blocks before they are written)";
    }
    return "WARNING: " + where + ": should another process fill it, leveldbjni (writes through mmap) kills this JVM"
        + " with SIGBUS; bin/ycsb prevents it by preloading " + MmapSpace.LIBRARY + " (or set LD_PRELOAD to it,"
        + " or use leveldb.library=system)";
  }

  @Override
  protected byte[] get(LevelDbHandle h, byte[] key) throws IOException {
    return h.get(key);
  }

  @Override
  protected boolean contains(LevelDbHandle h, byte[] key) throws IOException {
    return h.contains(key);
  }

  @Override
  protected void put(LevelDbHandle h, byte[] key, byte[] value) throws IOException {
    h.written = true;
    h.put(key, value);
  }

  /** LevelDB cannot tell whether the key existed; a delete of a missing key is OK. */
  @Override
  protected boolean remove(LevelDbHandle h, byte[] key) throws IOException {
    h.written = true;
    h.delete(key);
    return true;
  }

  @Override
  protected void scan(LevelDbHandle h, byte[] start, int count, ValueSink sink) throws IOException {
    h.scan(start, count, sink);
  }

  @Override
  protected void scanSizes(LevelDbHandle h, byte[] start, int count, SizeSink sink) throws IOException {
    h.scanSizes(start, count, sink);
  }

  @Override
  protected void applyBatch(LevelDbHandle h, byte[][] keys, byte[][] values, int count) throws IOException {
    h.written = true;
    h.write(keys, values, count);
  }
}
