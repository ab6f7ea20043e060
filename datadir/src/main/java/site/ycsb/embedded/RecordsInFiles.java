package site.ycsb.embedded;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Whether a database holds a record, read from its files alone (nothing is opened through the engine, locked,
 * created or written), so that a run phase that reads records refuses an empty database before the engine's open
 * changes its directory: LevelDB and RocksDB write a new log and MANIFEST and rotate their LOG, LMDB rewrites
 * lock.mdb, SQLite and Kyoto make a database of an empty file. Each method returns why the files hold no record,
 * or null when they hold one or it cannot tell (the open then decides): "none" only where the engine's open would
 * find none.
 */
public final class RecordsInFiles {

  /** LevelDB's and RocksDB's files that hold records: tables (1.13's .sst, 1.23's .ldb), RocksDB's blobs. */
  private static final Pattern TABLE_FILE = Pattern.compile("[0-9]+\\.(ldb|sst|blob)");
  private static final Pattern LOG_FILE = Pattern.compile("[0-9]+\\.log");

  /** In LMDB's meta page: the main database's MDB_db (after the free list's) and its md_entries. */
  private static final int LMDB_MAIN_ENTRIES_OFFSET = 120;
  private static final int LMDB_TXNID_OFFSET = 144;

  /** SQLite's b-tree page types (fileformat2.html, 1.6) and its schema's columns. */
  private static final int SQLITE_INDEX_LEAF = 0x0A;
  private static final int SQLITE_TABLE_LEAF = 0x0D;
  private static final int SQLITE_INDEX_INTERIOR = 0x02;
  private static final int SQLITE_TABLE_INTERIOR = 0x05;

  /** Kyoto's header (kchashdb.h): type, alignment and pool powers, options, buckets, flags, count, size. */
  private static final int KYOTO_TYPE_TREE = 0x31;
  private static final int KYOTO_TYPE_HASH = 0x30;
  private static final int KYOTO_OPT_SMALL = 1;
  private static final int KYOTO_OPT_LINEAR = 2;
  private static final int KYOTO_OPT_COMPRESS = 4;
  private static final int KYOTO_FLAG_OPEN = 1;
  private static final int KYOTO_FLAG_FATAL = 2;
  /** A TreeDB's meta record (kcplantdb.h): key "@", 80 bytes whose record count is at 8 + 6 * 8. */
  private static final int KYOTO_TREE_META_BYTES = 80;
  private static final int KYOTO_TREE_COUNT_OFFSET = 56;
  /** How many of a TreeDB's first records are read for its meta record (Kyoto writes it first). */
  private static final int KYOTO_RECORDS_READ = 64;

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

  /**
   * LMDB's directory: no record when data.mdb is missing or empty (the open makes a new environment, whatever
   * lock.mdb holds) or its newer meta page counts no entry in the main database.
   */
  public static String lmdb(Path dir) throws IOException {
    Path data = dir.resolve(EngineFiles.LMDB_DATA_FILE);
    if (!Files.isRegularFile(data)) {
      return "it has no " + EngineFiles.LMDB_DATA_FILE + " (LMDB would make a new environment)";
    }
    long size = Files.size(data);
    if (size == 0) {
      return "its " + EngineFiles.LMDB_DATA_FILE + " is empty (LMDB would make a new environment)";
    }
    ByteBuffer first = EngineFiles.lmdbMeta(data, 0);
    int pageSize = first.getInt(EngineFiles.LMDB_PAGE_SIZE_OFFSET);
    if (first.getInt(EngineFiles.LMDB_MAGIC_OFFSET) != EngineFiles.LMDB_MAGIC || pageSize <= 0
        || size < 2L * pageSize) {
      return null; // refuseDamaged says what is wrong; nothing to count here
    }
    ByteBuffer second = EngineFiles.lmdbMeta(data, pageSize);
    ByteBuffer newer = second.getInt(EngineFiles.LMDB_MAGIC_OFFSET) == EngineFiles.LMDB_MAGIC
        && Long.compareUnsigned(second.getLong(LMDB_TXNID_OFFSET), first.getLong(LMDB_TXNID_OFFSET)) > 0
        ? second : first;
    return newer.getLong(LMDB_MAIN_ENTRIES_OFFSET) == 0 ? "the newer meta page of its " + EngineFiles.LMDB_DATA_FILE
        + " (transaction " + newer.getLong(LMDB_TXNID_OFFSET) + ") counts no entry" : null;
  }

  /**
   * SQLite's database file: no record when it is empty (SQLite opens it as a new database), when its schema has
   * no table named {@code table} (the open would create it), or when that table's root page is a leaf without a
   * cell. A write-ahead log or rollback journal with a byte in it may hold the rest: not told then.
   */
  public static String sqlite(Path file, String table) throws IOException {
    String name = file.getFileName().toString();
    long size = Files.size(file);
    if (size == 0) {
      return name + " is empty (SQLite opens it as a new database)";
    }
    if (nonEmpty(Path.of(file + "-wal")) || nonEmpty(Path.of(file + "-journal")) || size < 100) {
      return null;
    }
    ByteBuffer head = read(file, 0, 100);
    int pageSize = head.getShort(16) & 0xFFFF;
    pageSize = pageSize == 1 ? 65536 : pageSize;
    int usable = pageSize - (head.get(20) & 0xFF);
    if (pageSize < 512 || size < pageSize || head.getInt(56) != 1) { // 1: UTF-8 text
      return null;
    }
    ByteBuffer schema = read(file, 0, pageSize);
    if ((schema.get(100) & 0xFF) != SQLITE_TABLE_LEAF) {
      return null; // a schema of more than one page: not read here
    }
    long root = -1;
    int cells = schema.getShort(103) & 0xFFFF;
    for (int i = 0; i < cells && root < 0; i++) {
      List<Object> row = sqliteRow(schema, schema.getShort(108 + 2 * i) & 0xFFFF, usable);
      if (row == null) {
        return null;
      }
      if (row.size() >= 4 && "table".equals(row.get(0)) && row.get(1) instanceof String n
          && n.equalsIgnoreCase(table) && row.get(3) instanceof Long rootPage) {
        root = rootPage;
      }
    }
    if (root < 0) {
      return name + " has no table " + table + " (the open would create it)";
    }
    if (root < 2 || (root - 1) * pageSize + pageSize > size) {
      return null;
    }
    ByteBuffer page = read(file, (root - 1) * pageSize, 8);
    int type = page.get(0) & 0xFF;
    if (type == SQLITE_TABLE_LEAF || type == SQLITE_INDEX_LEAF) {
      return (page.getShort(3) & 0xFFFF) == 0 ? "the table " + table + " in " + name + " has no row" : null;
    }
    return null; // an interior page, or one this does not know
  }

  /**
   * Kyoto Cabinet's file: no record when it is empty (Kyoto makes a new database of it), or, for a file closed
   * cleanly (no "opened" or "fatal" flag in its header, no write-ahead log with a byte in it), when its header
   * counts no record (a HashDB) or its meta record counts none (a TreeDB, whose header counts its pages). A
   * compressed file's meta record is not read.
   */
  public static String kyoto(Path file) throws IOException {
    String name = file.getFileName().toString();
    long size = Files.size(file);
    if (size == 0) {
      return name + " is empty (Kyoto Cabinet makes a new database of it)";
    }
    if (size < 64 || nonEmpty(Path.of(file + ".wal"))) {
      return null;
    }
    ByteBuffer head = read(file, 0, 64);
    int type = head.get(8) & 0xFF;
    int apow = head.get(9) & 0xFF;
    int fpow = head.get(10) & 0xFF;
    int opts = head.get(11) & 0xFF;
    long buckets = head.getLong(16);
    int flags = head.get(24) & 0xFF;
    long count = head.getLong(32);
    long end = head.getLong(40);
    if ((flags & (KYOTO_FLAG_OPEN | KYOTO_FLAG_FATAL)) != 0 || end > size || apow > 15 || fpow > 20
        || buckets <= 0 || buckets > (1L << 40)) {
      return null; // not closed cleanly: Kyoto's open recovers it first
    }
    if (type == KYOTO_TYPE_HASH) {
      return count == 0 ? "the header of " + name + " counts no record" : null;
    }
    if (type != KYOTO_TYPE_TREE || (opts & KYOTO_OPT_COMPRESS) != 0) {
      return null;
    }
    int width = (opts & KYOTO_OPT_SMALL) != 0 ? 4 : 6;
    boolean linear = (opts & KYOTO_OPT_LINEAR) != 0;
    long pool = fpow > 0 ? 1L << fpow : 0;
    long offset = 64 + 6 * pool + (pool > 0 ? width * 2L + 2 : 0) + width * buckets;
    long align = 1L << apow;
    offset = (offset + align - 1) / align * align;
    for (int n = 0; n < KYOTO_RECORDS_READ && offset + 2 < end; n++) {
      ByteBuffer r = read(file, offset, (int) Math.min(48 + KYOTO_TREE_META_BYTES, end - offset));
      int magic = r.get(0) & 0xFF;
      if (magic == 0xDD) { // a free block: its size follows, in units of the alignment
        offset += fixed(r, 2, width) << apow;
        continue;
      }
      if (magic == 0 || magic >= 0x80 && magic != 0xCC) {
        return null; // a nullified region, or what Kyoto would call broken
      }
      long padding = magic == 0xCC ? r.get(1) & 0xFF : r.getShort(0) & 0xFFFF;
      int at = 2 + width * (linear ? 1 : 2);
      long[] keySize = varnum(r, at);
      long[] valueSize = keySize == null ? null : varnum(r, (int) keySize[1]);
      if (valueSize == null) {
        return null;
      }
      int key = (int) valueSize[1];
      if (keySize[0] == 1 && valueSize[0] == KYOTO_TREE_META_BYTES && key + 1 + KYOTO_TREE_META_BYTES <= r.limit()
          && r.get(key) == '@') {
        long records = r.getLong(key + 1 + KYOTO_TREE_COUNT_OFFSET);
        return records == 0 ? "the meta record of " + name + " counts no record" : null;
      }
      offset += key + keySize[0] + valueSize[0] + padding;
    }
    return null;
  }

  /** SQLite's schema row in the leaf cell at {@code cell} as strings and longs, or null for what is not read. */
  private static List<Object> sqliteRow(ByteBuffer page, int cell, int usable) {
    long[] payload = sqliteVarint(page, cell);
    long[] rowid = payload == null ? null : sqliteVarint(page, (int) payload[1]);
    if (rowid == null || payload[0] > usable - 35) {
      return null; // spills to an overflow page
    }
    int start = (int) rowid[1];
    long[] headerSize = sqliteVarint(page, start);
    if (headerSize == null || start + payload[0] > page.limit()) {
      return null;
    }
    int at = (int) headerSize[1];
    int data = start + (int) headerSize[0];
    List<Object> row = new ArrayList<>();
    while (at < start + headerSize[0]) {
      long[] type = sqliteVarint(page, at);
      if (type == null) {
        return null;
      }
      at = (int) type[1];
      long t = type[0];
      int length = t >= 12 ? (int) ((t - 12) / 2) : t <= 4 ? (int) t : t == 5 ? 6 : t == 6 || t == 7 ? 8 : 0;
      if (data + length > page.limit()) {
        return null;
      }
      if (t >= 13 && t % 2 == 1) {
        byte[] text = new byte[length];
        page.get(data, text);
        row.add(new String(text, StandardCharsets.UTF_8));
      } else if (t >= 1 && t <= 6) {
        long v = page.get(data); // big-endian two's complement of 1 to 8 bytes
        for (int i = 1; i < length; i++) {
          v = (v << 8) | (page.get(data + i) & 0xFF);
        }
        row.add(v);
      } else {
        row.add(t == 8 ? (Object) 0L : t == 9 ? (Object) 1L : null);
      }
      data += length;
    }
    return row;
  }

  /** SQLite's varint at {@code at}: {value, the offset after it}, or null past the page. */
  private static long[] sqliteVarint(ByteBuffer b, int at) {
    long v = 0;
    for (int i = 0; i < 9; i++) {
      if (at + i >= b.limit()) {
        return null;
      }
      int c = b.get(at + i) & 0xFF;
      if (i == 8) {
        return new long[] {(v << 8) | c, at + 9};
      }
      v = (v << 7) | (c & 0x7F);
      if (c < 0x80) {
        return new long[] {v, at + i + 1};
      }
    }
    return null;
  }

  /** Kyoto's variable-length number at {@code at}: {value, the offset after it}, or null past the buffer. */
  private static long[] varnum(ByteBuffer b, int at) {
    long v = 0;
    for (int i = at; i < b.limit() && i < at + 10; i++) {
      int c = b.get(i) & 0xFF;
      v = (v << 7) + (c & 0x7F);
      if (c < 0x80) {
        return new long[] {v, i + 1};
      }
    }
    return null;
  }

  /** A big-endian number of {@code width} bytes at {@code at}. */
  private static long fixed(ByteBuffer b, int at, int width) {
    long v = 0;
    for (int i = 0; i < width; i++) {
      v = (v << 8) | (b.get(at + i) & 0xFF);
    }
    return v;
  }

  /** Up to {@code n} bytes of {@code file} from {@code offset}, big-endian; fewer at its end. */
  private static ByteBuffer read(Path file, long offset, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n);
    try (FileChannel ch = FileChannel.open(file)) {
      while (b.hasRemaining() && ch.read(b, offset + b.position()) > 0) {
        continue;
      }
    }
    return b.flip();
  }

  private static boolean nonEmpty(Path file) throws IOException {
    return Files.isRegularFile(file) && Files.size(file) > 0;
  }
}
