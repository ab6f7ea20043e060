package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class HandedOverBytesTest {

  @Test
  void toArrayHandsOverTheArrayItselfAndConsumesIt() {
    byte[] v = {1, 2, 3, 4, 5};
    HandedOverBytes it = new HandedOverBytes(v);
    assertEquals(5, it.bytesLeft());
    assertSame(v, it.toArray());
    assertEquals(0, it.bytesLeft());
    assertFalse(it.hasNext());
    it.reset();
    assertArrayEquals(v, it.toArray());
  }

  @Test
  void aPartlyReadValueGivesTheRestAsACopy() {
    byte[] v = {1, 2, 3, 4, 5};
    HandedOverBytes it = new HandedOverBytes(v);
    assertEquals(1, it.nextByte());
    byte[] two = new byte[3];
    assertEquals(3, it.nextBuf(two, 1));
    assertArrayEquals(new byte[] {0, 2, 3}, two);
    assertArrayEquals(new byte[] {4, 5}, it.toArray());
    assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, v, "the maker's array is untouched");
    it.reset();
    assertEquals("\u0001\u0002\u0003\u0004\u0005", it.toString());
  }
}
