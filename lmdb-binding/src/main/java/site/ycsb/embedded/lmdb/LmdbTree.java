package site.ycsb.embedded.lmdb;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import site.ycsb.embedded.DataLayout;
import site.ycsb.embedded.EngineFiles;

/**
 * What the binding checks of an LMDB tree before LMDB opens it. LMDB keeps no page checksums: a page
 * overwritten inside the tree (4,096 random bytes over page 2, the root) opened without a word, and
 * every read was NOT_FOUND. So, read from data.mdb itself, cheaply (its branch pages and two leaves):
 *
 * <ul>
 *   <li>the meta page LMDB will use (the valid one with the higher transaction id) against what the
 *       binding recorded at its last clean close ({@link #RECORD}: transaction id, last page, and the
 *       main database's depth, page counts, entries and root): at the same transaction every figure must
 *       match; an older transaction means the newer meta page was lost or the file is an older copy. A
 *       higher one was written since (a killed run, another program): nothing to compare, the walk only;</li>
 *   <li>the tree of the main database and of LMDB's free list, level by level down to the leaves: each
 *       branch page must carry its own page number and the branch flag, hold keys within its page, and
 *       point at pages LMDB has allocated; the branch pages met must be as many as the meta page counts,
 *       their pointers at the last level as many as its leaf pages; the first and last leaf must be leaves.</li>
 * </ul>
 *
 * <p>What stays undetectable: a leaf other than the first and the last, and an overflow page (a large
 * value), damaged in their contents or replaced by another page (reading every leaf would read the whole
 * file at each open); bytes changed inside a record; damage done while the environment is open.
 */
final class LmdbTree {

  /** The record of the last clean close, beside the layout record (names starting so are the project's). */
  static final String RECORD = DataLayout.FILE + ".lmdb-tree";

  // A page (lmdb/mdb.c MDB_page, 64-bit): page number u64 @0, pad u16 @8, flags u16 @10, lower u16 @12,
  // upper u16 @14, then the nodes' offsets (u16 each, from the page's start), PAGEHDRSZ = 16.
  private static final int HEADER = 16;
  private static final int FLAGS = 10;
  private static final int LOWER = 12;
  private static final int UPPER = 14;
  private static final int P_BRANCH = 0x01;
  private static final int P_LEAF = 0x02;
  private static final int P_OVERFLOW = 0x04;
  private static final int P_META = 0x08;
  private static final int KIND = P_BRANCH | P_LEAF | P_OVERFLOW | P_META;
  /** A branch node (MDB_node): child page number in lo u16, hi u16, flags u16 (bits 32-47), then ksize u16. */
  private static final int NODE_HEADER = 8;
  // MDB_meta after the page header: magic u32 @16, version u32 @20, address @24, map size @32, the free list's
  // MDB_db @40, the main database's @88, last page @136, transaction id @144.
  private static final int MAGIC = 16;
  private static final int FREE_DB = 40;
  private static final int MAIN_DB = 88;
  private static final int LAST_PAGE = 136;
  private static final int TXN_ID = 144;
  private static final int META_BYTES = 152;
  private static final int LMDB_MAGIC = 0xBEEFC0DE;
  /** P_INVALID: the root of an empty database. */
  private static final long NO_ROOT = -1L;

  private LmdbTree() {
  }

  /** An MDB_db: pad (the page size, in the free list's), flags u16 @4, depth u16 @6, then five u64. */
  record Db(int depth, long branchPages, long leafPages, long overflowPages, long entries, long root) {
    static Db at(ByteBuffer meta, int at) {
      return new Db(meta.getShort(at + 6) & 0xffff, meta.getLong(at + 8), meta.getLong(at + 16),
          meta.getLong(at + 24), meta.getLong(at + 32), meta.getLong(at + 40));
    }
  }

  /** The meta page LMDB opens the environment with. */
  record Meta(int pageSize, long txnId, long lastPage, Db free, Db main) {

    /** What the record keeps of it, by name, in the order a message names them. */
    Map<String, String> figures() {
      Map<String, String> m = new LinkedHashMap<>();
      m.put("txnid", Long.toUnsignedString(txnId));
      m.put("lastpage", Long.toString(lastPage));
      m.put("entries", Long.toString(main.entries()));
      m.put("depth", Integer.toString(main.depth()));
      m.put("branchpages", Long.toString(main.branchPages()));
      m.put("leafpages", Long.toString(main.leafPages()));
      m.put("overflowpages", Long.toString(main.overflowPages()));
      m.put("root", Long.toString(main.root()));
      return m;
    }
  }

  /**
   * Refuses the environment in {@code dir} when its tree is damaged or no longer what the binding last
   * closed, naming the damage; reads only. An empty or missing data.mdb (a new environment) passes.
   * EngineFiles has refused a data.mdb without a valid first meta page or shorter than its last page.
   */
  static void refuseDamaged(Path dir) throws IOException {
    Path file = dir.resolve(EngineFiles.LMDB_DATA_FILE);
    if (!Files.isRegularFile(file) || Files.size(file) == 0) {
      return;
    }
    String why;
    try (FileChannel ch = FileChannel.open(file)) {
      Meta meta = meta(ch);
      why = disagreement(meta, DataLayout.read(dir.resolve(RECORD)));
      if (why == null) {
        why = walk(ch, meta, meta.main(), "the main database");
      }
      if (why == null) {
        why = walk(ch, meta, meta.free(), "LMDB's free list");
      }
    } catch (EOFException e) {
      why = e.getMessage();
    }
    if (why != null) {
      throw new IOException("the LMDB file " + file.toAbsolutePath() + " is damaged: " + why + ". LMDB keeps no"
          + " page checksums: opened, it would read records wrongly or as missing without a word, so the open is"
          + " refused and nothing was changed. Restore it from a backup (mdb_stat -e " + dir.toAbsolutePath()
          + " shows what LMDB reads), or use destroy=true to start over");
    }
  }

  /** Records what data.mdb in {@code dir} holds after a clean close, for the next open to compare. */
  static void recordClose(Path dir) throws IOException {
    Meta meta;
    try (FileChannel ch = FileChannel.open(dir.resolve(EngineFiles.LMDB_DATA_FILE))) {
      meta = meta(ch);
    }
    DataLayout record = DataLayout.empty();
    for (Map.Entry<String, String> e : meta.figures().entrySet()) {
      record = record.with(e.getKey(), e.getValue(), null);
    }
    record.write(dir.resolve(RECORD), "What data.mdb's meta page recorded at the binding's last clean close;"
        + " the next open compares it (LmdbTree).");
  }

  /** The meta page LMDB picks: of the two with LMDB's magic and version 1, the one with the higher transaction. */
  static Meta meta(FileChannel ch) throws IOException {
    ByteBuffer first = read(ch, 0, META_BYTES);
    int pageSize = first.getInt(FREE_DB);
    ByteBuffer second = read(ch, pageSize, META_BYTES);
    ByteBuffer m = valid(second) && (!valid(first)
        || Long.compareUnsigned(second.getLong(TXN_ID), first.getLong(TXN_ID)) > 0) ? second : first;
    return new Meta(pageSize, m.getLong(TXN_ID), m.getLong(LAST_PAGE), Db.at(m, FREE_DB), Db.at(m, MAIN_DB));
  }

  private static boolean valid(ByteBuffer meta) {
    return meta.getInt(MAGIC) == LMDB_MAGIC && meta.getInt(MAGIC + 4) == 1;
  }

  /** Why the meta page disagrees with the record of the last clean close, or null (also without a record). */
  static String disagreement(Meta meta, DataLayout closed) {
    if (closed == null || closed.get("txnid") == null) {
      return null;
    }
    long txn;
    try {
      txn = Long.parseUnsignedLong(closed.get("txnid"));
    } catch (NumberFormatException e) {
      return "the record of its last close, " + RECORD + ", is unreadable (txnid = " + closed.get("txnid") + ")";
    }
    int order = Long.compareUnsigned(meta.txnId(), txn);
    if (order > 0) {
      return null; // written since the last clean close (a killed run, another program): the walk only
    }
    if (order < 0) {
      return "LMDB would open it at transaction " + Long.toUnsignedString(meta.txnId()) + ", older than the "
          + txn + " the binding closed it at (in " + RECORD + "): its newer meta page is damaged or the file is"
          + " an older copy, and the commits after it are lost";
    }
    List<String> differences = new ArrayList<>();
    meta.figures().forEach((name, now) -> {
      String then = closed.get(name);
      if (then != null && !then.equals(now)) {
        differences.add(name + " " + then + " at the last close, " + now + " now");
      }
    });
    return differences.isEmpty() ? null : "its meta page of transaction " + txn + " no longer records what the"
        + " binding closed (in " + RECORD + "): " + String.join(", ", differences);
  }

  /**
   * Walks {@code db}'s branch pages from its root and looks at its first and last leaf; why the tree is not
   * what its meta page records ({@code what} names the database), or null.
   */
  static String walk(FileChannel ch, Meta meta, Db db, String what) throws IOException {
    if (db.root() == NO_ROOT) {
      return db.depth() == 0 && db.entries() == 0 && db.branchPages() == 0 && db.leafPages() == 0 ? null
          : "the meta page records no root for " + what + " but " + db.entries() + " entries in "
          + (db.branchPages() + db.leafPages()) + " pages";
    }
    if (db.depth() < 1 || db.leafPages() < 1) {
      return what + " has root page " + db.root() + " but depth " + db.depth() + " and " + db.leafPages()
          + " leaf pages in its meta page";
    }
    List<Long> level = List.of(db.root());
    long branches = 0;
    long leaves = 0;
    long firstLeaf = db.root();
    long lastLeaf = db.root();
    for (int d = 1; d < db.depth(); d++) {
      List<Long> next = new ArrayList<>();
      boolean bottom = d == db.depth() - 1; // its children are the leaves: counted, not kept
      for (long pgno : level) {
        if (++branches > db.branchPages()) {
          return what + " has more branch pages than the " + db.branchPages() + " its meta page records (page "
              + pgno + " at level " + d + ")";
        }
        ByteBuffer page = read(ch, pgno * meta.pageSize(), meta.pageSize());
        String role = role(pgno, d, db.depth(), what);
        String bad = header(page, pgno, P_BRANCH, role, meta.pageSize());
        if (bad != null) {
          return bad;
        }
        int keys = ((page.getShort(LOWER) & 0xffff) - HEADER) >> 1;
        int upper = page.getShort(UPPER) & 0xffff;
        for (int i = 0; i < keys; i++) {
          int node = page.getShort(HEADER + 2 * i) & 0xffff;
          if (node < upper || node + NODE_HEADER > meta.pageSize()) {
            return role + " has its node " + i + " at byte " + node + ", outside its nodes (" + upper + " to "
                + meta.pageSize() + ")";
          }
          long child = (page.getShort(node) & 0xffffL) | (page.getShort(node + 2) & 0xffffL) << 16
              | (page.getShort(node + 4) & 0xffffL) << 32;
          if (child < 2 || child > meta.lastPage()) {
            return role + " points at page " + child + ", outside the pages 2 to " + meta.lastPage()
                + " LMDB has allocated";
          }
          if (bottom) {
            firstLeaf = leaves++ == 0 ? child : firstLeaf;
            lastLeaf = child;
          } else {
            next.add(child);
          }
        }
      }
      level = next;
    }
    if (branches != db.branchPages()) {
      return what + " has " + branches + " branch pages under its root, its meta page records "
          + db.branchPages();
    }
    if (db.depth() > 1 && leaves != db.leafPages()) {
      return what + "'s branch pages point at " + leaves + " leaf pages, its meta page records " + db.leafPages();
    }
    for (long leaf : new long[] {firstLeaf, lastLeaf}) {
      String bad = header(read(ch, leaf * meta.pageSize(), meta.pageSize()), leaf, P_LEAF,
          role(leaf, db.depth(), db.depth(), what), meta.pageSize());
      if (bad != null) {
        return bad;
      }
    }
    return null;
  }

  /** "page 2 (the root of the main database, level 1 of 3)". */
  private static String role(long pgno, int level, int depth, String what) {
    String kind = level == 1 ? "the root" : level == depth ? "a leaf" : "a branch page";
    return "page " + pgno + " (" + kind + " of " + what + ", level " + level + " of " + depth + ")";
  }

  /** Why {@code page} is not page {@code pgno} of {@code kind} with sane bounds, or null. */
  private static String header(ByteBuffer page, long pgno, int kind, String role, int pageSize) {
    long own = page.getLong(0);
    int flags = page.getShort(FLAGS) & 0xffff;
    int lower = page.getShort(LOWER) & 0xffff;
    int upper = page.getShort(UPPER) & 0xffff;
    if (own != pgno || (flags & KIND) != kind) {
      return role + " is not that page: its header says page " + own + " with flags 0x"
          + Integer.toHexString(flags) + " (a " + (kind == P_BRANCH ? "branch" : "leaf") + " is 0x"
          + Integer.toHexString(kind) + ")";
    }
    if (lower < HEADER + 2 || lower > upper || upper > pageSize || (lower & 1) != 0) {
      return role + " has its bounds out of place (lower " + lower + ", upper " + upper + " in a page of "
          + pageSize + " bytes)";
    }
    return null;
  }

  /** {@code n} bytes at {@code offset}, little-endian as LMDB writes them on x86-64. */
  private static ByteBuffer read(FileChannel ch, long offset, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      if (ch.read(b, offset + b.position()) < 0) {
        throw new EOFException("data.mdb ends at byte " + (offset + b.position()) + ", inside the page at byte "
            + offset + " its tree points at");
      }
    }
    return b.clear();
  }
}
