package site.ycsb.embedded.lmdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import site.ycsb.embedded.DataLayout;

/** The meta page against the record of the last clean close (the walk itself: LmdbClientTest). */
class LmdbTreeTest {

  private static final LmdbTree.Db EMPTY = new LmdbTree.Db(0, 0, 0, 0, 0, -1);

  private static LmdbTree.Meta meta(long txn, long entries, long root) {
    return new LmdbTree.Meta(4096, txn, 302, EMPTY, new LmdbTree.Db(3, 3, 289, 0, entries, root));
  }

  private static DataLayout record(LmdbTree.Meta m) {
    DataLayout r = DataLayout.empty();
    for (Map.Entry<String, String> e : m.figures().entrySet()) {
      r = r.with(e.getKey(), e.getValue(), null);
    }
    return r;
  }

  @Test
  void theMetaPageMustBeWhatTheLastCloseRecordedAtItsTransaction() {
    LmdbTree.Meta closed = meta(10_000, 6364, 2);
    assertNull(LmdbTree.disagreement(closed, record(closed)));
    assertNull(LmdbTree.disagreement(closed, null), "no record: an environment of an earlier version, or new");
    assertNull(LmdbTree.disagreement(meta(10_005, 6000, 9), record(closed)), "written since: not comparable");
    String changed = LmdbTree.disagreement(meta(10_000, 0, 7), record(closed));
    assertEquals("its meta page of transaction 10000 no longer records what the binding closed (in "
        + LmdbTree.RECORD + "): entries 6364 at the last close, 0 now, root 2 at the last close, 7 now", changed);
    String older = LmdbTree.disagreement(meta(9_999, 6364, 4), record(closed));
    assertTrue(older.startsWith("LMDB would open it at transaction 9999, older than the 10000 the binding closed it"
        + " at"), older);
  }
}
