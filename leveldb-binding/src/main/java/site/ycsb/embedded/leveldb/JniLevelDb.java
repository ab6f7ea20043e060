package site.ycsb.embedded.leveldb;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fusesource.leveldbjni.JniDBFactory;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;

import site.ycsb.embedded.KeyValueDB.ValueSink;

/** LevelDB 1.13 through leveldbjni 1.8 (leveldb.library=leveldbjni). */
final class JniLevelDb extends LevelDbHandle {

  /** The LevelDB release inside leveldbjni-all 1.8 (it exposes no version call). */
  static final String LEVELDBJNI_LEVELDB_VERSION = "1.13";

  /**
   * How long the close waits for the memtable's flush once LevelDB logged a background error during it
   * (a compaction's; a failed flush of the memtable itself ends the wait at once): LevelDB 1.13 retries a
   * failed background job after a pause it doubles up to 8 s, and no error ever ends its CompactRange.
   */
  static final long FLUSH_ERROR_GRACE_MS = 5_000;
  /** How long the close waits for the memtable's flush while LevelDB logs nothing at all. */
  static final long FLUSH_SILENCE_MS = 60_000;
  /** Tests turn it off to reach the bounded wait on a disk the checks before the flush would see as full. */
  static volatile boolean checkBeforeFlush = true;

  /** A memtable flush's outcome in LevelDB 1.13's LOG: "Level-0 table #12: 4100123 bytes OK". */
  private static final Pattern LEVEL0 = Pattern.compile("Level-0 table #\\d+: \\d+ bytes (.*)$");
  /** A background job's failure in LevelDB 1.13's LOG. */
  private static final Pattern BACKGROUND_ERROR = Pattern.compile("(?:Compaction error|Waiting after background"
      + " compaction error): (.*)$");

  final DB db;
  final ReadOptions readOptions;
  final WriteOptions writeOptions;
  private final Path dir;
  private final long writeBufferSize;
  /** The thread running the close's CompactRange, once started; it closes the database if the close gave up. */
  private Thread flusher;
  /** Whether the flush ended (guarded by this). */
  private boolean flushEnded;
  /** Whether close() gave up waiting for the flush: the flusher closes the database should it ever end. */
  private boolean closeLeftToFlusher;
  /**
   * The first failed write's error, after which every write is refused until the database is reopened:
   * LevelDB 1.13's log writer counts a record it failed to append (a full disk) as written, so the
   * records after it would sit out of step with the log's blocks and be unreadable after a crash.
   */
  private volatile String failedWrite;

  private JniLevelDb(DB db, ReadOptions readOptions, WriteOptions writeOptions, Path dir, long writeBufferSize) {
    this.db = db;
    this.readOptions = readOptions;
    this.writeOptions = writeOptions;
    this.dir = dir;
    this.writeBufferSize = writeBufferSize;
  }

  /** leveldbjni's options for {@code o}. */
  private static Options options(LevelDbOptions o) {
    return new Options()
        .createIfMissing(o.createIfMissing())
        .cacheSize(o.cacheSize())
        .writeBufferSize(o.writeBufferSize())
        .blockSize(o.blockSize())
        .maxOpenFiles(o.maxOpenFiles())
        .compressionType(o.snappy() ? CompressionType.SNAPPY : CompressionType.NONE)
        .paranoidChecks(o.paranoidChecks());
  }

  static JniLevelDb openDb(Path dir, LevelDbOptions o) throws IOException {
    return new JniLevelDb(JniDBFactory.factory.open(dir.toFile(), options(o)),
        new ReadOptions().verifyChecksums(o.verifyChecksums()), new WriteOptions().sync(o.sync()), dir,
        o.writeBufferSize());
  }

  /** leveldbjni's RepairDB on {@code dir} (leveldb.repair), with the options of {@code o}. */
  static void repairDb(Path dir, LevelDbOptions o) throws IOException {
    JniDBFactory.factory.repair(dir.toFile(), options(o));
  }

  @Override
  public String library() {
    return LevelDbOptions.LIBRARY_LEVELDBJNI;
  }

  @Override
  public String levelDbVersion() {
    return LEVELDBJNI_LEVELDB_VERSION;
  }

  /** The leveldbjni release. */
  static String jniVersion() {
    return JniDBFactory.VERSION;
  }

  @Override
  public String describe() {
    return "LevelDB " + levelDbVersion() + " (leveldb.library=leveldbjni: leveldbjni " + jniVersion()
        + ", " + System.getProperty("os.arch") + ")";
  }

  @Override
  public byte[] get(byte[] key) {
    return db.get(key, readOptions);
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    writable();
    try {
      db.put(key, value, writeOptions);
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  @Override
  public void delete(byte[] key) throws IOException {
    writable();
    try {
      db.delete(key, writeOptions);
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  @Override
  public void write(byte[][] keys, byte[][] values, int count) throws IOException {
    writable();
    try (WriteBatch batch = db.createWriteBatch()) {
      for (int i = 0; i < count; i++) {
        batch.put(keys[i], values[i]);
      }
      db.write(batch, writeOptions);
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  private void writable() throws IOException {
    String first = failedWrite;
    if (first != null) {
      throw new IOException("leveldbjni accepts no write until the database is reopened: an earlier write"
          + " failed (" + first + "), and LevelDB 1.13 leaves its log out of step after a failed append");
    }
  }

  private RuntimeException failed(RuntimeException e) {
    failedWrite = String.valueOf(e.getMessage());
    return e;
  }

  @Override
  public void scan(byte[] start, int count, ValueSink sink) throws IOException {
    try (DBIterator it = db.iterator(readOptions)) {
      it.seek(start);
      for (int n = 0; n < count && it.hasNext(); n++) {
        Map.Entry<byte[], byte[]> e = it.next();
        sink.accept(e.getValue());
      }
    }
  }

  @Override
  public String property(String name) {
    return db.getProperty(name);
  }

  @Override
  public void compactAll() {
    db.compactRange(null, null);
  }

  @Override
  public void flushMemtable() {
    db.compactRange(new byte[0], new byte[0]);
  }

  /**
   * LevelDB 1.13's CompactRange waits for ever for a memtable flush that fails (a full disk: the failure
   * is logged, retried after a pause, and never returned; 1.23 returns it), and closing the database under
   * that wait would free what the waiting thread uses. So the flush is not started when the disk lacks the
   * room for two memtables' tables, or when LevelDB's LOG says its last flush of a memtable failed; and once
   * started it runs on a thread of its own, waited for until it ends, until LevelDB logs a failed memtable
   * flush or, {@value #FLUSH_ERROR_GRACE_MS} ms on, any other background error, or until LevelDB has logged
   * nothing for {@value #FLUSH_SILENCE_MS} ms. After such a wait the database is left open (the thread
   * closes it should the flush end before the JVM does) and close() says so.
   */
  @Override
  public String flushAtClose() throws IOException {
    Path log = dir.resolve("LOG");
    LogWatch watch = new LogWatch(log);
    watch.read();
    if (checkBeforeFlush) {
      long need = 2 * writeBufferSize + (1L << 20);
      long free = Files.getFileStore(dir).getUsableSpace();
      if (free < need) {
        return "the disk has " + megabytes(free) + " free, and the flush needs up to " + megabytes(need)
            + " (the tables of two memtables and a MANIFEST record): LevelDB 1.13 would wait for ever for a flush"
            + " that meets a full disk";
      }
      if (watch.failedMemtableFlush != null) {
        return "LevelDB's last flush of a memtable failed (" + watch.failedMemtableFlush + ", in " + log
            + "), and LevelDB 1.13 would wait for ever for it to succeed";
      }
    }
    Thread t = new Thread(this::flushThenCloseIfLeft, "leveldbjni-flush-at-close");
    t.setDaemon(true); // a flush LevelDB never ends must not keep the JVM alive
    synchronized (this) {
      flusher = t;
    }
    long start = System.nanoTime();
    long lastGrowth = start;
    Long firstError = null;
    t.start();
    while (true) {
      boolean interrupted = false;
      try {
        t.join(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        interrupted = true;
      }
      if (!t.isAlive()) {
        return null;
      }
      long now = System.nanoTime();
      if (watch.read()) {
        lastGrowth = now;
      }
      if (watch.backgroundError != null && firstError == null) {
        firstError = now;
      }
      String gaveUp = null;
      if (interrupted) {
        gaveUp = "the closing thread was interrupted while LevelDB flushed";
      } else if (watch.failedMemtableFlush != null && now - start > TimeUnit.SECONDS.toNanos(1)) {
        gaveUp = "LevelDB's flush of the memtable failed: " + watch.failedMemtableFlush;
      } else if (firstError != null && now - firstError > TimeUnit.MILLISECONDS.toNanos(FLUSH_ERROR_GRACE_MS)) {
        gaveUp = "LevelDB reported a background error during the flush and it did not end "
            + (FLUSH_ERROR_GRACE_MS / 1000) + " s later: " + watch.backgroundError;
      } else if (now - lastGrowth > TimeUnit.MILLISECONDS.toNanos(FLUSH_SILENCE_MS)) {
        gaveUp = "LevelDB logged nothing for " + (FLUSH_SILENCE_MS / 1000) + " s and the flush did not end";
      }
      if (gaveUp != null) {
        synchronized (this) {
          if (flushEnded) {
            return null;
          }
        }
        return gaveUp + " (see " + log + "); LevelDB 1.13 retries it for as long as the database is open";
      }
    }
  }

  private void flushThenCloseIfLeft() {
    flushMemtable();
    synchronized (this) {
      flushEnded = true;
      if (closeLeftToFlusher) {
        try {
          db.close();
        } catch (IOException | RuntimeException e) {
          System.err.println("[leveldb] closing the database once its late flush ended failed: " + e);
        }
      }
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (flusher != null && !flushEnded) {
      closeLeftToFlusher = true;
      throw new IOException("the leveldbjni database in " + dir.toAbsolutePath() + " is left open until the JVM"
          + " exits: LevelDB 1.13 still waits for the memtable's flush, and closing it under that wait would"
          + " free what the waiting thread uses (the flush's thread closes it should the flush end first); the"
          + " log keeps every acknowledged write and the next open replays it");
    }
    db.close();
  }

  private static String megabytes(long bytes) {
    return (bytes >> 20) + " MB";
  }

  /** What LevelDB 1.13 wrote to its LOG since open, read on from where the last look stopped. */
  private static final class LogWatch {
    private final Path log;
    private long offset;
    private final StringBuilder partial = new StringBuilder();
    /** The error of the last memtable flush, when the last one logged failed; null otherwise. */
    String failedMemtableFlush;
    /** The last background error logged after the first look, or null. */
    String backgroundError;
    private boolean looked;

    LogWatch(Path log) {
      this.log = log;
    }

    /** Reads what was appended since the last look; whether anything was. */
    boolean read() throws IOException {
      if (!Files.isRegularFile(log)) {
        return false;
      }
      boolean grew = false;
      try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
        for (long size = f.length(); offset < size; grew = true) {
          byte[] got = new byte[(int) Math.min(size - offset, 1 << 20)];
          f.seek(offset);
          f.readFully(got);
          offset += got.length;
          partial.append(new String(got, StandardCharsets.ISO_8859_1));
          for (int end = partial.indexOf("\n"); end >= 0; end = partial.indexOf("\n")) {
            line(partial.substring(0, end));
            partial.delete(0, end + 1);
          }
        }
      }
      looked = true;
      return grew;
    }

    private void line(String line) {
      Matcher m = LEVEL0.matcher(line);
      if (m.find()) {
        failedMemtableFlush = "OK".equals(m.group(1)) ? null : m.group(1);
        return;
      }
      m = BACKGROUND_ERROR.matcher(line);
      if (m.find() && looked) {
        backgroundError = m.group(1);
      }
    }
  }
}
