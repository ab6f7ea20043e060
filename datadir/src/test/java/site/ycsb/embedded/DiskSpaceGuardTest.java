package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The free-space check counts a large write itself: a 40 MB value on a disk with room for the margin but
 * not for the value must not be accepted, or it crashes leveldbjni. Margins are set from the disk's own
 * free space, with gaps wide enough for other processes' writes meanwhile.
 */
class DiskSpaceGuardTest {

  @TempDir
  Path tmp;

  /** A directory of its own per guard (one guard per directory and settings per JVM); it must exist to be read. */
  private Path dir(String name) throws IOException {
    return Files.createDirectories(tmp.resolve(name));
  }

  @Test
  void aWriteLargerThanTheRoomAboveTheMarginIsRefusedBeforeTheEngineSeesIt() throws Exception {
    long free = DiskSpaceGuard.of(tmp, 1, 0).free();
    assertTrue(free > 64L << 20, "this test needs 64 MB free in " + tmp + ", has " + free);
    DiskSpaceGuard guard = DiskSpaceGuard.of(dir("a"), free / 2, 0);
    guard.check("open"); // the margin alone fits
    DiskSpaceGuard.DiskFullException e = assertThrows(DiskSpaceGuard.DiskFullException.class,
        () -> guard.beforeWrite(free * 3 / 4));
    assertTrue(e.getMessage().startsWith("write refused: ") && e.getMessage().contains(" for this write ("
        + free * 3 / 4 + " bytes, 1 times"), e.getMessage());
    guard.opened();
  }

  @Test
  void theWriteFactorCountsTheCopiesTheEngineMayHoldAtOnce() throws Exception {
    long free = DiskSpaceGuard.of(tmp, 1, 0).free();
    assertTrue(free > 64L << 20, "this test needs 64 MB free in " + tmp + ", has " + free);
    long write = free / 4;
    DiskSpaceGuard once = DiskSpaceGuard.of(dir("b"), free / 2, 0, 1);
    once.beforeWrite(write); // margin + write: three quarters of the free space
    DiskSpaceGuard thrice = DiskSpaceGuard.of(dir("c"), free / 2, 0, 3);
    DiskSpaceGuard.DiskFullException e = assertThrows(DiskSpaceGuard.DiskFullException.class,
        () -> thrice.beforeWrite(write)); // margin + 3 writes: five quarters
    assertTrue(e.getMessage().contains(" for this write (" + write + " bytes, 3 times"), e.getMessage());
    thrice.opened();
    // Writes below a look's interval are the margin's to cover: counted, not looked at one by one.
    DiskSpaceGuard.of(dir("d"), free / 2, 0, 3).beforeWrite(DiskSpaceGuard.CHECK_EVERY_BYTES - 1);
    assertThrows(IllegalArgumentException.class, () -> DiskSpaceGuard.of(dir("e"), 1, 0, 0.5));
  }

  /**
   * A client's counter adds its small writes to the shared total a share at a time: the look at the free space
   * comes after the clients together wrote a look's interval, give or take one share per client, and once the
   * space is low every write is looked at again. A write of a share or more is counted at once.
   */
  @Test
  void clientCountersAddUpToOneTotalAndLookAsTheGuardDoes() throws Exception {
    long free = DiskSpaceGuard.of(tmp, 1, 0).free();
    DiskSpaceGuard never = DiskSpaceGuard.of(dir("f"), free * 2, 0); // no look can pass
    DiskSpaceGuard.Counter a = never.counter();
    DiskSpaceGuard.Counter b = never.counter();
    int write = 1000;
    long written = 0;
    try {
      while (true) {
        (written / write % 2 == 0 ? a : b).beforeWrite(write);
        written += write;
      }
    } catch (DiskSpaceGuard.DiskFullException e) {
      written += write;
    }
    assertTrue(written >= DiskSpaceGuard.CHECK_EVERY_BYTES
        && written <= DiskSpaceGuard.CHECK_EVERY_BYTES + 2 * (DiskSpaceGuard.CLIENT_SHARE_BYTES + write),
        "the first look came after " + written + " bytes from two clients");
    assertThrows(DiskSpaceGuard.DiskFullException.class, () -> a.beforeWrite(1), "low: every write looks");
    assertThrows(DiskSpaceGuard.DiskFullException.class, () -> b.beforeWrite(1), "low: every write looks");
    never.opened();

    DiskSpaceGuard half = DiskSpaceGuard.of(dir("g"), free / 2, 0);
    DiskSpaceGuard.Counter c = half.counter();
    c.beforeWrite(write);
    assertThrows(DiskSpaceGuard.DiskFullException.class, () -> c.beforeWrite(free * 3 / 4),
        "a large write is looked at before the engine sees it, whatever the counter held");
    half.opened();
    DiskSpaceGuard.Counter off = DiskSpaceGuard.of(dir("h"), 0, 0).counter();
    off.beforeWrite(free * 4); // margin 0: no guard
  }

  /**
   * Clients whose large writes each fit at their own look, but not together, are refused once the ones under way
   * hold the room: a write looked at on its own stays held until its client applied it (16 writers of 4 MB through
   * LMDB's write map each found room for itself, then wrote past the end of the disk: a SIGBUS).
   */
  @Test
  void aLargeWriteStaysHeldInReserveUntilItsClientAppliedIt() throws Exception {
    long free = DiskSpaceGuard.of(tmp, 1, 0).free();
    assertTrue(free > 64L << 20, "this test needs 64 MB free in " + tmp + ", has " + free);
    long write = free / 5;
    DiskSpaceGuard guard = DiskSpaceGuard.of(dir("held"), free / 2, 0);
    DiskSpaceGuard.Counter a = guard.counter();
    DiskSpaceGuard.Counter b = guard.counter();
    DiskSpaceGuard.Counter c = guard.counter();
    a.beforeWrite(write); // margin and one write: 0.7 of the free space
    b.beforeWrite(write); // and the one under way: 0.9
    DiskSpaceGuard.DiskFullException e = assertThrows(DiskSpaceGuard.DiskFullException.class,
        () -> c.beforeWrite(write), "1.1 of the free space with the two writes under way");
    assertTrue(e.getMessage().contains(DiskSpaceGuard.mb(2 * write) + " for other clients' large writes under way"),
        e.getMessage());
    a.applied();
    c.beforeWrite(write); // a's write is in the free space now: 0.9 again
    b.applied();
    c.applied();
    guard.check("open"); // nothing held: the margin alone
    guard.beforeWrite(free / 4); // the guard's own look holds nothing after it
    guard.beforeWrite(free / 4);
    guard.opened();
  }

  @Test
  void anIoErrorIsCalledAFullDiskOnlyWhereTheDiskIsFull() throws Exception {
    assertTrue(DiskSpaceGuard.isIoError(new IOException("Platform constant error code: EIO Input/output error (5)")));
    assertTrue(DiskSpaceGuard.isIoError(new IOException("close", new IOException("IO error: 000005.log: Input/output"
        + " error"))));
    assertFalse(DiskSpaceGuard.isIoError(new IOException("Platform constant error code: ENOSPC No space left on"
        + " device (28)")));
    assertFalse(DiskSpaceGuard.isIoError(new IOException("NEIOS")));
    // here the disk has room: an EIO stays what the engine said (a full one: LmdbFullDiskTest)
    IOException eio = new IOException("EIO Input/output error (5)");
    assertSame(eio, DiskSpaceGuard.of(dir("eio"), 0, 0).explain(eio));
  }

  /**
   * An engine whose files grow by far more than its writes count (LMDB while another process pins a snapshot:
   * 12 KB per 100-byte update) hands the guard what its files use: once that grew by a look's interval, the
   * next write looks, whatever was counted (else the write map's SIGBUS).
   */
  @Test
  void aFollowedFileThatGrowsByALooksIntervalIsLookedAtOnTheNextWrite() throws Exception {
    long free = DiskSpaceGuard.of(tmp, 1, 0).free();
    DiskSpaceGuard never = DiskSpaceGuard.of(dir("i"), free * 2, 0); // no look can pass
    long[] used = {1L << 30};
    never.follow(() -> used[0]);
    DiskSpaceGuard.Counter c = never.counter();
    used[0] += DiskSpaceGuard.CHECK_EVERY_BYTES - 1;
    for (int i = 0; i < 2 * DiskSpaceGuard.GROWTH_READ_EVERY_WRITES; i++) {
      c.beforeWrite(100); // grown by less than an interval, a few KB counted: no look yet
    }
    used[0] += 1;
    for (int i = 1; i < DiskSpaceGuard.GROWTH_READ_EVERY_WRITES; i++) {
      c.beforeWrite(100); // the client reads the growth once in so many writes
    }
    DiskSpaceGuard.DiskFullException e = assertThrows(DiskSpaceGuard.DiskFullException.class,
        () -> c.beforeWrite(100), "the file grew by a look's interval: this write reads it and looks");
    assertTrue(e.getMessage().contains("diskspacemargin"), e.getMessage());
    never.follow(null);
    never.opened();
  }
}
