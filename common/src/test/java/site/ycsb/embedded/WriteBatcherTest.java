package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

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
    });
    assertFalse(b.add("a".getBytes(), "1".getBytes()));
    assertFalse(b.add("b".getBytes(), "2".getBytes()));
    assertTrue(b.add("c".getBytes(), "3".getBytes()));
    assertFalse(b.add("d".getBytes(), "4".getBytes()));
    assertEquals(1, b.pending());
    b.flush();
    b.flush();
    assertEquals(List.of(List.of("a=1", "b=2", "c=3"), List.of("d=4")), applied);
  }
}
