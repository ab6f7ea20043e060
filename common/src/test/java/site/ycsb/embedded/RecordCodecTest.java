package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

class RecordCodecTest {

  private static Map<String, byte[]> randomRecord(Random r) {
    Map<String, byte[]> m = new HashMap<>();
    int fields = r.nextInt(12);
    for (int i = 0; i < fields; i++) {
      byte[] v = new byte[r.nextInt(4) == 0 ? r.nextInt(300) : r.nextInt(20)];
      r.nextBytes(v);
      String name = r.nextBoolean() ? "field" + i : "f\u00e9ld-\u4e2d" + i;
      m.put(name, v);
    }
    return m;
  }

  private static Map<String, ByteIterator> iterators(Map<String, byte[]> m) {
    Map<String, ByteIterator> out = new HashMap<>();
    m.forEach((k, v) -> out.put(k, new ByteArrayByteIterator(v)));
    return out;
  }

  private static void assertSame(Map<String, byte[]> want, Map<String, ByteIterator> got) {
    assertEquals(want.keySet(), got.keySet());
    want.forEach((k, v) -> assertArrayEquals(v, got.get(k).toArray(), k));
  }

  @Test
  void randomRecordsRoundTrip() {
    RecordCodec codec = RecordCodec.fields();
    Random r = new Random(42);
    for (int i = 0; i < 2000; i++) {
      Map<String, byte[]> rec = randomRecord(r);
      Map<String, ByteIterator> got = new HashMap<>();
      codec.decode(codec.encode(iterators(rec)), null, got);
      assertSame(rec, got);
    }
  }

  @Test
  void emptyRecordAndEmptyValues() {
    RecordCodec codec = RecordCodec.fields();
    byte[] empty = codec.encode(new HashMap<>());
    assertArrayEquals(new byte[] {0}, empty);
    Map<String, ByteIterator> got = new HashMap<>();
    codec.decode(empty, null, got);
    assertEquals(0, got.size());
    Map<String, byte[]> rec = Map.of("", new byte[0], "x", new byte[0]);
    codec.decode(codec.encode(iterators(rec)), null, got);
    assertSame(rec, got);
  }

  @Test
  void binaryAndOneMegabyteValues() {
    RecordCodec codec = RecordCodec.fields();
    byte[] all = new byte[256];
    for (int i = 0; i < 256; i++) {
      all[i] = (byte) i;
    }
    byte[] big = new byte[1 << 20];
    new Random(1).nextBytes(big);
    Map<String, byte[]> rec = Map.of("bin", all, "big", big);
    Map<String, ByteIterator> got = new HashMap<>();
    codec.decode(codec.encode(iterators(rec)), null, got);
    assertSame(rec, got);
  }

  @Test
  void decodeKeepsOnlyRequestedFields() {
    RecordCodec codec = RecordCodec.fields();
    byte[] stored = codec.encode(iterators(Map.of("a", "1".getBytes(), "b", "22".getBytes(), "c", "333".getBytes())));
    Map<String, ByteIterator> got = new HashMap<>();
    codec.decode(stored, Set.of("b", "zz"), got);
    assertEquals(Set.of("b"), got.keySet());
    assertEquals("22", got.get("b").toString());
  }

  @Test
  void oneHundredByteFieldCostsNineBytesOfFraming() {
    byte[] v = new byte[100];
    Map<String, ByteIterator> rec = new HashMap<>();
    rec.put("field0", new ByteArrayByteIterator(v));
    assertEquals(109, RecordCodec.fields().encode(rec).length);
    rec.put("field0", new ByteArrayByteIterator(v));
    assertEquals(100, RecordCodec.bare("field0").encode(rec).length);
  }

  @Test
  void bareLayoutStoresTheValueOnly() {
    RecordCodec codec = RecordCodec.bare("field0");
    byte[] v = {1, 2, 3};
    Map<String, ByteIterator> rec = new HashMap<>();
    rec.put("field0", new ByteArrayByteIterator(v));
    byte[] stored = codec.encode(rec);
    assertArrayEquals(v, stored);
    Map<String, ByteIterator> got = new HashMap<>();
    codec.decode(stored, Set.of("other"), got);
    assertEquals(0, got.size());
    codec.decode(stored, null, got);
    assertArrayEquals(v, got.get("field0").toArray());
    Map<String, ByteIterator> wrong = new HashMap<>();
    wrong.put("field1", new ByteArrayByteIterator(v));
    assertThrows(IllegalArgumentException.class, () -> codec.encode(wrong));
  }

  @Test
  void mergeReplacesAddsAndKeeps() {
    RecordCodec codec = RecordCodec.fields();
    byte[] stored = codec.encode(iterators(Map.of("a", "1".getBytes(), "b", "2".getBytes())));
    byte[] merged = codec.merge(stored, iterators(Map.of("b", "20".getBytes(), "c", "3".getBytes())));
    Map<String, ByteIterator> got = new HashMap<>();
    codec.decode(merged, null, got);
    assertSame(Map.of("a", "1".getBytes(), "b", "20".getBytes(), "c", "3".getBytes()), got);
  }

  @Test
  void corruptBytesAreRefusedNotReturned() {
    RecordCodec codec = RecordCodec.fields();
    byte[] stored = codec.encode(iterators(Map.of("name", "value".getBytes())));
    byte[] truncated = java.util.Arrays.copyOf(stored, stored.length - 2);
    assertThrows(RecordCodec.CorruptRecordException.class, () -> codec.decode(truncated, null, new HashMap<>()));
    byte[] longer = java.util.Arrays.copyOf(stored, stored.length + 1);
    assertThrows(RecordCodec.CorruptRecordException.class, () -> codec.decode(longer, null, new HashMap<>()));
    byte[] hugeCount = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F, 1, 'a'};
    assertThrows(RecordCodec.CorruptRecordException.class, () -> codec.decode(hugeCount, null, new HashMap<>()));
  }

  @Test
  void valueBytesCountsWhatDecodeReturns() {
    RecordCodec codec = RecordCodec.fields();
    Random r = new Random(43);
    for (int i = 0; i < 2000; i++) {
      Map<String, byte[]> rec = randomRecord(r);
      byte[] stored = codec.encode(iterators(rec));
      for (Set<String> fields : java.util.Arrays.asList(null, Set.of("field1"),
          Set.of("field0", "f\u00e9ld-\u4e2d2"))) {
        Map<String, ByteIterator> got = new HashMap<>();
        codec.decode(stored, fields, got);
        long want = got.values().stream().mapToLong(ByteIterator::bytesLeft).sum();
        assertEquals(want, codec.valueBytes(stored, fields), "fields " + fields);
      }
    }
    RecordCodec bare = RecordCodec.bare("field0");
    assertEquals(7, bare.valueBytes(new byte[7], null));
    assertEquals(7, bare.valueBytes(new byte[7], Set.of("field0")));
    assertEquals(0, bare.valueBytes(new byte[7], Set.of("field1")));
    assertThrows(RecordCodec.CorruptRecordException.class, () -> codec.valueBytes(new byte[] {1, 5, 'a'}, null));
    assertThrows(RecordCodec.CorruptRecordException.class, () -> codec.valueBytes(new byte[] {0, 9}, null));
  }

  @Test
  void aHandedOverValueIsStoredWithoutACopy() {
    byte[] v = new byte[100_000];
    new Random(5).nextBytes(v);
    Map<String, ByteIterator> rec = new HashMap<>();
    rec.put("field0", new HandedOverBytes(v));
    org.junit.jupiter.api.Assertions.assertSame(v, RecordCodec.bare("field0").encode(rec),
        "the bare layout stores the workload's own array");
    rec.put("field0", new HandedOverBytes(v));
    rec.put("field1", new HandedOverBytes(new byte[] {1, 2}));
    Map<String, ByteIterator> got = new HashMap<>();
    RecordCodec.fields().decode(RecordCodec.fields().encode(rec), null, got);
    assertArrayEquals(v, got.get("field0").toArray());
    assertArrayEquals(new byte[] {1, 2}, got.get("field1").toArray());
  }
}
