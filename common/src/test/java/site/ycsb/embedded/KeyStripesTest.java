package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import site.ycsb.Status;

/** The per-key stripes that keep read-merge-write updates apart, through the write group that takes them. */
class KeyStripesTest {

  private static byte[] key(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void equalKeysShareAStripe() {
    for (String k : new String[] {"", "u", "user42", "user4200", "user42000", "0000000000001234",
        "user6284781860667377211"}) {
      assertEquals(KeyStripes.of(key(k)), KeyStripes.of(key(new String(k))), k);
      assertTrue(KeyStripes.of(key(k)) >= 0 && KeyStripes.of(key(k)) < KeyStripes.STRIPES, k);
    }
    assertFalse(KeyStripes.of(key("user1")) == KeyStripes.of(key("user2"))
        && KeyStripes.of(key("user2")) == KeyStripes.of(key("user3")), "short keys that differ in one byte spread");
  }

  /** Hashed YCSB keys, ordered ones, and the scale group's 16-byte decimal keys all use every stripe evenly. */
  @Test
  void keysOfEveryShapeSpreadOverAllStripes() {
    Random r = new Random(1);
    assertEvenlySpread("hashed", i -> "user" + Math.abs(r.nextLong()));
    assertEvenlySpread("ordered", i -> "user" + i);
    assertEvenlySpread("16-byte decimal", i -> String.format("%016d", i));
    assertEvenlySpread("short", i -> Integer.toString(i, 36));
  }

  private static void assertEvenlySpread(String shape, java.util.function.IntFunction<String> keys) {
    int[] hits = new int[KeyStripes.STRIPES];
    int n = 64 * KeyStripes.STRIPES;
    for (int i = 0; i < n; i++) {
      hits[KeyStripes.of(key(keys.apply(i)))]++;
    }
    int mean = n / KeyStripes.STRIPES;
    for (int s = 0; s < hits.length; s++) {
      assertTrue(hits[s] > mean / 2 && hits[s] < mean * 2,
          shape + " keys: stripe " + s + " took " + hits[s] + ", the mean is " + mean);
    }
  }

  /**
   * Eight threads increment four counters by reading, pausing and writing back, through the write group as
   * read-merge-write updates: with the stripes, no increment is lost. Some holders sleep, so that waiters go
   * past their spins and wait on the stripe's monitor.
   */
  @Test
  void readMergeWriteUpdatesOfOneKeyNeverInterleave() throws Exception {
    int threads = 8;
    int perThread = 20_000;
    String[] keys = {"a", "b", "c", "d"};
    ConcurrentHashMap<String, Integer> counters = new ConcurrentHashMap<>();
    for (String k : keys) {
      counters.put(k, 0);
    }
    KeyStripes stripes = new KeyStripes();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<int[]>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      done.add(pool.submit(() -> {
        WriteBatcher group = new WriteBatcher(1, (k, v, n) -> {
          throw new AssertionError("no insert here");
        }, stripes.join());
        Random r = new Random(id);
        int[] mine = new int[keys.length];
        for (int i = 0; i < perThread; i++) {
          int k = r.nextInt(keys.length);
          boolean slow = i % 2_000 == 0;
          Status s = group.write(WriteGroup.Kind.UPDATE, key(keys[k]), null, () -> {
            int seen = counters.get(keys[k]);
            if (slow) {
              Thread.sleep(2);
            } else {
              Thread.yield();
            }
            counters.put(keys[k], seen + 1);
            return Status.OK;
          });
          assertEquals(Status.OK, s);
          mine[k]++;
        }
        return mine;
      }));
    }
    int[] wanted = new int[keys.length];
    for (Future<int[]> f : done) {
      int[] mine = f.get(120, TimeUnit.SECONDS);
      for (int k = 0; k < keys.length; k++) {
        wanted[k] += mine[k];
      }
    }
    pool.shutdown();
    for (int k = 0; k < keys.length; k++) {
      assertEquals(wanted[k], (int) counters.get(keys[k]), "increments of " + keys[k] + " kept");
      assertFalse(stripes.isHeld(KeyStripes.of(key(keys[k]))), "stripe of " + keys[k] + " given back");
    }
    assertEquals(threads * perThread, wanted[0] + wanted[1] + wanted[2] + wanted[3]);
  }

  /** Threads that had to sleep on a stripe are all woken: none is left waiting for a notify that never came. */
  @Test
  void everyThreadWaitingOnAHeldStripeGetsItInTurn() throws Exception {
    KeyStripes stripes = new KeyStripes();
    int stripe = KeyStripes.of(key("held"));
    int waiters = 6;
    stripes.lock(stripe);
    ExecutorService pool = Executors.newFixedThreadPool(waiters);
    CountDownLatch started = new CountDownLatch(waiters);
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < waiters; t++) {
      done.add(pool.submit(() -> {
        started.countDown();
        stripes.lock(stripe);
        try {
          most.accumulateAndGet(inside.incrementAndGet(), Math::max);
          Thread.sleep(5);
          inside.decrementAndGet();
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        } finally {
          stripes.unlock(stripe);
        }
      }));
    }
    started.await();
    Thread.sleep(200); // past the spins: the waiters sleep on the stripe's monitor now
    assertEquals(0, inside.get(), "no waiter got in while the stripe was held");
    stripes.unlock(stripe);
    for (Future<?> f : done) {
      f.get(30, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertEquals(1, most.get(), "one holder at a time");
    assertFalse(stripes.isHeld(stripe));
  }

  @Test
  void aFailedWriteGivesItsStripeBackAndEndsAsRunning() throws Exception {
    KeyStripes stripes = new KeyStripes();
    WriteBatcher alone = new WriteBatcher(1, (k, v, n) -> {
    }, stripes.join());
    byte[] k = key("fails");
    WriteGroup.Write failing = () -> {
      throw new IllegalStateException("engine refused");
    };
    assertEquals("engine refused", assertThrows(IllegalStateException.class,
        () -> alone.write(WriteGroup.Kind.UPDATE, k, null, failing)).getMessage());
    // a second writer's join waits for running writes: it returns, so the failed one ended as running
    WriteBatcher second = CompletableFuture.supplyAsync(() -> new WriteBatcher(1, (kk, v, n) -> {
    }, stripes.join())).get(10, TimeUnit.SECONDS);
    assertTrue(stripes.isStriped());
    assertEquals("engine refused", assertThrows(IllegalStateException.class,
        () -> second.write(WriteGroup.Kind.UPDATE, k, null, failing)).getMessage());
    assertFalse(stripes.isHeld(KeyStripes.of(k)));
    assertEquals(Status.NOT_FOUND, alone.write(WriteGroup.Kind.DELETE, k, null, () -> Status.NOT_FOUND));
  }

  /** A handle's only writer takes no stripe; once a second joins, both take them. */
  @Test
  void aLoneWriterTakesNoStripeUntilASecondJoins() throws Exception {
    KeyStripes stripes = new KeyStripes();
    KeyStripes.Writer first = stripes.join();
    byte[] k = key("k");
    int stripe = KeyStripes.of(k);
    assertEquals(Status.OK, first.exclusive(k, () -> {
      assertFalse(stripes.isHeld(stripe), "alone: no stripe");
      return Status.OK;
    }));
    KeyStripes.Writer second = stripes.join();
    for (KeyStripes.Writer w : List.of(first, second)) {
      assertEquals(Status.OK, w.exclusive(k, () -> {
        assertTrue(stripes.isHeld(stripe), "two writers: the key's stripe");
        return Status.OK;
      }));
    }
    second.leave();
    second.leave();
    assertEquals(Status.OK, first.exclusive(k, () -> {
      assertTrue(stripes.isHeld(stripe), "a handle stays striped once it was");
      return Status.OK;
    }));
    first.leave();
  }

  /**
   * A writer that joins while the lone writer's write runs without a stripe waits for that write to end: its
   * own first write cannot come between the other's get and put.
   */
  @Test
  void aJoinWaitsForTheWriteThatRunsWithoutAStripe() throws Exception {
    KeyStripes stripes = new KeyStripes();
    KeyStripes.Writer first = stripes.join();
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger ended = new AtomicInteger();
    Future<Status> running = Executors.newSingleThreadExecutor().submit(() -> first.exclusive(key("k"), () -> {
      inside.countDown();
      release.await();
      ended.incrementAndGet();
      return Status.OK;
    }));
    inside.await();
    CompletableFuture<KeyStripes.Writer> joining = CompletableFuture.supplyAsync(stripes::join);
    Thread.sleep(200);
    assertFalse(joining.isDone(), "the join waits while a write without a stripe runs");
    release.countDown();
    KeyStripes.Writer second = joining.get(10, TimeUnit.SECONDS);
    assertEquals(1, ended.get(), "the join returned after that write ended");
    assertEquals(Status.OK, running.get());
    assertTrue(stripes.isStriped());
    second.leave();
    first.leave();
  }

  @Test
  void anInterruptedWaiterStillGetsTheStripeAndKeepsItsInterrupt() throws Exception {
    KeyStripes stripes = new KeyStripes();
    int stripe = KeyStripes.of(key("interrupted"));
    stripes.lock(stripe);
    AtomicInteger sawInterrupt = new AtomicInteger(-1);
    Thread waiter = new Thread(() -> {
      stripes.lock(stripe);
      sawInterrupt.set(Thread.currentThread().isInterrupted() ? 1 : 0);
      stripes.unlock(stripe);
    });
    waiter.start();
    Thread.sleep(100);
    waiter.interrupt();
    Thread.sleep(100);
    assertEquals(-1, sawInterrupt.get(), "the interrupt did not let the waiter in");
    stripes.unlock(stripe);
    waiter.join(10_000);
    assertEquals(1, sawInterrupt.get(), "in after the holder left, with its interrupt kept");
    assertFalse(stripes.isHeld(stripe));
  }
}
