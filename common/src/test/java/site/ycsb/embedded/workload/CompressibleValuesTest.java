package site.ycsb.embedded.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;

import org.junit.jupiter.api.Test;

class CompressibleValuesTest {

  /** The generator as it was written first (one pool step per 100-byte piece): the values must not change. */
  private static final class OnePieceAtATime {
    private final double ratio;
    private final byte[] random = new byte[1 << 20];
    private long cursor;

    OnePieceAtATime(double ratio, long seed) {
      this.ratio = ratio;
      Random r = new Random(seed);
      for (int i = 0; i < random.length; i++) {
        random[i] = (byte) (' ' + r.nextInt(95));
      }
    }

    byte[] next(int length) {
      byte[] v = new byte[length];
      for (int at = 0; at < length; at += 100) {
        int piece = Math.min(100, length - at);
        int raw = (int) Math.min(piece, Math.max(1, Math.ceil(ratio * piece)));
        int from = (int) Math.floorMod(cursor, (long) (random.length - 100));
        cursor += raw;
        System.arraycopy(random, from, v, at, raw);
        for (int filled = raw; filled < piece; filled += raw) {
          System.arraycopy(v, at, v, at + filled, Math.min(raw, piece - filled));
        }
      }
      return v;
    }
  }

  @Test
  void valuesAreTheSameBytesInTheSameOrderAsBefore() {
    for (double ratio : new double[] {0.5, 0.25, 0.013, 1.0}) {
      CompressibleValues values = new CompressibleValues(ratio, 20110727L);
      OnePieceAtATime reference = new OnePieceAtATime(ratio, 20110727L);
      Random lengths = new Random(1);
      for (int i = 0; i < 300; i++) {
        int length = i % 50 == 0 ? 100_000 : lengths.nextInt(350);
        assertArrayEquals(reference.next(length), values.next(length), "ratio " + ratio + ", value " + i);
      }
    }
  }
}
