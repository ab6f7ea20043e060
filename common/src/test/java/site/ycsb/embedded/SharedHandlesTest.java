package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class SharedHandlesTest {

  @Test
  void firstOpensLastClosesOnceAcrossThreads() throws Exception {
    AtomicInteger opens = new AtomicInteger();
    AtomicInteger closes = new AtomicInteger();
    Object engine = new Object();
    Path dir = Path.of("target", "shared-test");
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<SharedHandles.Lease<Object>>> leases = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      leases.add(pool.submit(() -> SharedHandles.acquire("t", dir, () -> {
        opens.incrementAndGet();
        return engine;
      }, h -> closes.incrementAndGet())));
    }
    List<SharedHandles.Lease<Object>> all = new ArrayList<>();
    for (Future<SharedHandles.Lease<Object>> f : leases) {
      all.add(f.get());
      assertSame(engine, all.get(all.size() - 1).get());
    }
    assertEquals(1, opens.get());
    List<Future<?>> done = new ArrayList<>();
    for (SharedHandles.Lease<Object> l : all) {
      done.add(pool.submit(() -> {
        l.close();
        l.close();
        return null;
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    assertEquals(1, closes.get());
    assertEquals(0, SharedHandles.openCount());
    assertThrows(IllegalStateException.class, () -> all.get(0).get());
  }

  @Test
  void differentPathsGetDifferentHandlesAndSamePathSpelledDifferentlyTheSame() throws Exception {
    var a = SharedHandles.acquire("t", Path.of("target/x"), Object::new, h -> { });
    var b = SharedHandles.acquire("t", Path.of("target/./x"), Object::new, h -> { });
    var c = SharedHandles.acquire("t", Path.of("target/y"), Object::new, h -> { });
    assertSame(a.get(), b.get());
    assertEquals(2, SharedHandles.openCount());
    a.close();
    b.close();
    c.close();
    assertEquals(0, SharedHandles.openCount());
  }

  @Test
  void aFailedOpenLeavesNothingRegistered() {
    assertThrows(IllegalStateException.class, () -> SharedHandles.acquire("t", Path.of("target/z"), () -> {
      throw new IllegalStateException("locked");
    }, h -> { }));
    assertEquals(0, SharedHandles.openCount());
  }
}
