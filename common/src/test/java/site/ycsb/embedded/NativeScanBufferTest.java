package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The buffer protocol of the native scans, driven by a Java stand-in for the native fill (the
 * bindings' tests drive the real ones): several fills per scan, a value larger than the buffer
 * (the fill asks for more room), the end of the cursor, and a count that stops early. Values and
 * lengths must come out the same, in order.
 */
class NativeScanBufferTest {

  /** A cursor over {@code values} that fills as the native code does. */
  private static final class FakeCursor implements NativeScanBuffer.Fill {
    private final List<byte[]> values;
    private int next;
    int fills;

    FakeCursor(List<byte[]> values) {
      this.values = values;
    }

    @Override
    public long fill(ByteBuffer buffer, int maxEntries) {
      fills++;
      ByteBuffer out = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
      out.clear();
      int copied = 0;
      while (next < values.size() && copied < maxEntries) {
        byte[] v = values.get(next);
        if (out.remaining() < NativeScanBuffer.LENGTH_BYTES + v.length) {
          if (copied == 0) {
            return -(NativeScanBuffer.LENGTH_BYTES + (long) v.length);
          }
          break;
        }
        out.putInt(v.length).put(v);
        next++;
        copied++;
      }
      return ((long) out.position() << 1) | (next == values.size() ? 1 : 0);
    }
  }

  private static List<byte[]> values(int n, long seed) {
    Random r = new Random(seed);
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      // mostly 100-byte values, now and then one larger than the 256 KB buffer
      byte[] v = new byte[i % 997 == 500 ? NativeScanBuffer.INITIAL_BYTES + 1000 : r.nextInt(200)];
      r.nextBytes(v);
      out.add(v);
    }
    return out;
  }

  @Test
  void valuesAndLengthsComeOutInOrderAcrossFillsAndAGrownBuffer() throws Exception {
    List<byte[]> stored = values(6000, 7);
    List<byte[]> seen = new ArrayList<>();
    FakeCursor values = new FakeCursor(stored);
    NativeScanBuffer.feed(values, Integer.MAX_VALUE, seen::add);
    assertEquals(stored.size(), seen.size());
    for (int i = 0; i < stored.size(); i++) {
      assertArrayEquals(stored.get(i), seen.get(i), "value " + i);
    }
    List<Integer> lengths = new ArrayList<>();
    FakeCursor sizes = new FakeCursor(stored);
    NativeScanBuffer.feedSizes(sizes, Integer.MAX_VALUE, lengths::add);
    assertEquals(stored.size(), lengths.size());
    for (int i = 0; i < stored.size(); i++) {
      assertEquals(stored.get(i).length, (int) lengths.get(i), "length " + i);
    }
    assertEquals(true, sizes.fills > 3, "the scan took several fills: " + sizes.fills);
  }

  @Test
  void aCountStopsBothEarly() throws Exception {
    List<byte[]> stored = values(3000, 9);
    List<Integer> lengths = new ArrayList<>();
    NativeScanBuffer.feedSizes(new FakeCursor(stored), 1234, lengths::add);
    assertEquals(1234, lengths.size());
    assertEquals(stored.get(1233).length, (int) lengths.get(1233));
    List<byte[]> seen = new ArrayList<>();
    NativeScanBuffer.feed(new FakeCursor(stored), 1234, seen::add);
    assertEquals(1234, seen.size());
    assertArrayEquals(stored.get(1233), seen.get(1233));
  }
}
