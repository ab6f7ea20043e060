package site.ycsb.embedded.kyoto;

import static site.ycsb.embedded.RecordsInFiles.nonEmpty;
import static site.ycsb.embedded.RecordsInFiles.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a Kyoto Cabinet file holds a record, read from its header and, for a TreeDB, its meta record, without
 * Kyoto's open (which makes a new database of an empty file): what {@link KyotoClient#noRecordInFiles} answers
 * before a run phase that reads records opens the file.
 */
final class KyotoFileRecords {

  /** Kyoto's header (kchashdb.h): type, alignment and pool powers, options, buckets, flags, count, size. */
  private static final int TYPE_TREE = 0x31;
  private static final int TYPE_HASH = 0x30;
  private static final int OPT_SMALL = 1;
  private static final int OPT_LINEAR = 2;
  private static final int OPT_COMPRESS = 4;
  private static final int FLAG_OPEN = 1;
  private static final int FLAG_FATAL = 2;
  /** A TreeDB's meta record (kcplantdb.h): key "@", 80 bytes whose record count is at 8 + 6 * 8. */
  private static final int TREE_META_BYTES = 80;
  private static final int TREE_COUNT_OFFSET = 56;
  /** How many of a TreeDB's first records are read for its meta record (Kyoto writes it first). */
  private static final int RECORDS_READ = 64;

  private KyotoFileRecords() {
  }

  /**
   * Why {@code file} holds no record, or null when it holds one or this cannot tell. None when it has no byte
   * (Kyoto would make a new database of it); for a file Kyoto closed cleanly (its header flags neither "opened" nor
   * "fatal", and no write-ahead log beside it has a byte), none when a HashDB's header counts no record, or when a
   * TreeDB's meta record does (a TreeDB's header counts its pages, not its records). The meta record of a
   * compressed TreeDB is not read.
   */
  static String whyNone(Path file) throws IOException {
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
    if ((flags & (FLAG_OPEN | FLAG_FATAL)) != 0 || end > size || apow > 15 || fpow > 20
        || buckets <= 0 || buckets > (1L << 40)) {
      return null; // not closed cleanly: Kyoto's open recovers it first
    }
    if (type == TYPE_HASH) {
      return count == 0 ? "the header of " + name + " counts no record" : null;
    }
    if (type != TYPE_TREE || (opts & OPT_COMPRESS) != 0) {
      return null;
    }
    int width = (opts & OPT_SMALL) != 0 ? 4 : 6;
    boolean linear = (opts & OPT_LINEAR) != 0;
    long pool = fpow > 0 ? 1L << fpow : 0;
    long offset = 64 + 6 * pool + (pool > 0 ? width * 2L + 2 : 0) + width * buckets;
    long align = 1L << apow;
    offset = (offset + align - 1) / align * align;
    for (int n = 0; n < RECORDS_READ && offset + 2 < end; n++) {
      ByteBuffer r = read(file, offset, (int) Math.min(48 + TREE_META_BYTES, end - offset));
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
      if (keySize[0] == 1 && valueSize[0] == TREE_META_BYTES && key + 1 + TREE_META_BYTES <= r.limit()
          && r.get(key) == '@') {
        long records = r.getLong(key + 1 + TREE_COUNT_OFFSET);
        return records == 0 ? "the meta record of " + name + " counts no record" : null;
      }
      offset += key + keySize[0] + valueSize[0] + padding;
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
}
