package site.ycsb.embedded.workload;

import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Values that a simple compressor shrinks to about {@code ratio} of their size, like db_bench's
 * generator ({@code --compression_ratio}): each value is {@code ceil(ratio * length)} random
 * printable bytes, repeated until the value is full (per 100-byte piece). YCSB's own random values do not compress
 * at all with Snappy, which would hide what compression does for an engine.
 */
public final class CompressibleValues {

  private static final int POOL = 1 << 20;
  /** db_bench makes its values from 100-byte compressible pieces. */
  private static final int PIECE = 100;

  private final double ratio;
  private final byte[] random = new byte[POOL];
  private final AtomicLong cursor = new AtomicLong();

  public CompressibleValues(double ratio, long seed) {
    if (!(ratio > 0 && ratio <= 1)) {
      throw new IllegalArgumentException("compression ratio must be in (0, 1], got " + ratio);
    }
    this.ratio = ratio;
    Random r = new Random(seed);
    for (int i = 0; i < POOL; i++) {
      random[i] = (byte) (' ' + r.nextInt(95));
    }
  }

  public double ratio() {
    return ratio;
  }

  /**
   * A new value of {@code length} bytes, made of 100-byte pieces that each repeat their own
   * random prefix: compressors with a small window (Snappy, LZO) see the repeats too.
   */
  public byte[] next(int length) {
    byte[] v = new byte[length];
    long next = cursor.getAndAdd(rawBytes(length)); // one atomic step per value, not one per piece
    for (int at = 0; at < length; at += PIECE) {
      int piece = Math.min(PIECE, length - at);
      int raw = pieceRaw(piece);
      int from = (int) Math.floorMod(next, (long) (POOL - PIECE));
      next += raw;
      System.arraycopy(random, from, v, at, raw);
      for (int filled = raw; filled < piece; filled += raw) {
        System.arraycopy(v, at, v, at + filled, Math.min(raw, piece - filled));
      }
    }
    return v;
  }

  /** The random bytes a value of {@code length} takes from the pool: those of each 100-byte piece. */
  private long rawBytes(int length) {
    int rest = length % PIECE;
    return (long) (length / PIECE) * pieceRaw(PIECE) + (rest > 0 ? pieceRaw(rest) : 0);
  }

  /** The random prefix a piece of {@code piece} bytes repeats. */
  private int pieceRaw(int piece) {
    return (int) Math.min(piece, Math.max(1, Math.ceil(ratio * piece)));
  }
}
