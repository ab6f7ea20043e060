package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import site.ycsb.Status;

class WriteBatcherTest {

  @Test
  void appliesFullBatchesThenTheRemainderOnFlush() throws Exception {
    List<List<String>> applied = new ArrayList<>();
    WriteBatcher b = new WriteBatcher(3, (k, v, n) -> {
      List<String> batch = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        batch.add(new String(k[i]) + "=" + new String(v[i]));
      }
      applied.add(batch);
    }, new KeyStripes().join());
    assertFalse(b.add("a".getBytes(), "1".getBytes()));
    assertFalse(b.add("b".getBytes(), "2".getBytes()));
    assertTrue(b.add("c".getBytes(), "3".getBytes()));
    assertFalse(b.add("d".getBytes(), "4".getBytes()));
    assertEquals(1, b.pending());
    b.flush();
    b.flush();
    assertEquals(List.of(List.of("a=1", "b=2", "c=3"), List.of("d=4")), applied);
  }

  @Test
  void asTheDefaultWriteGroupItBatchesInsertsAndRunsOtherWritesAfterThem() throws Exception {
    List<String> events = new ArrayList<>();
    WriteBatcher b = new WriteBatcher(2, (k, v, n) -> events.add("batch of " + n), new KeyStripes().join());
    WriteGroup.Write direct = () -> {
      events.add("direct");
      return Status.NOT_FOUND;
    };
    assertEquals(Status.BATCHED_OK, b.write(WriteGroup.Kind.INSERT, "a".getBytes(), "1".getBytes(), direct));
    assertEquals(Status.NOT_FOUND, b.write(WriteGroup.Kind.DELETE, "a".getBytes(), null, direct));
    assertEquals(Status.BATCHED_OK, b.write(WriteGroup.Kind.INSERT, "b".getBytes(), "2".getBytes(), direct));
    assertEquals(Status.OK, b.write(WriteGroup.Kind.INSERT, "c".getBytes(), "3".getBytes(), direct));
    assertEquals(Status.NOT_FOUND, b.write(WriteGroup.Kind.UPDATE, "d".getBytes(), null, direct));
    assertEquals(List.of("batch of 1", "direct", "batch of 2", "direct"), events);
    WriteBatcher single = new WriteBatcher(1, (k, v, n) -> events.add("batch of " + n),
        new KeyStripes().join());
    assertEquals(Status.NOT_FOUND, single.write(WriteGroup.Kind.INSERT, "e".getBytes(), "5".getBytes(), direct));
    assertEquals("direct", events.get(events.size() - 1), "batch size 1: an insert is put on its own");
  }
}
