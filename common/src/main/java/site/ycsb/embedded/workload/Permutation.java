package site.ycsb.embedded.workload;

/**
 * A pseudo-random permutation of [0, n): every number comes out exactly once, in random
 * order, with O(1) memory. A balanced Feistel network over the smallest even-bit power of two
 * >= n, cycle-walking past values >= n. Deterministic for a given seed.
 */
public final class Permutation {

  private static final int ROUNDS = 4;

  private final long n;
  private final int halfBits;
  private final long halfMask;
  private final long[] roundKeys = new long[ROUNDS];

  public Permutation(long n, long seed) {
    if (n < 1) {
      throw new IllegalArgumentException("permutation of an empty range");
    }
    this.n = n;
    int bits = 64 - Long.numberOfLeadingZeros(Math.max(1, n - 1));
    this.halfBits = Math.max(1, (bits + 1) / 2);
    this.halfMask = (1L << halfBits) - 1;
    long s = seed;
    for (int i = 0; i < ROUNDS; i++) {
      s = SplitMix64.mix(s + SplitMix64.GAMMA);
      roundKeys[i] = s;
    }
  }

  public long size() {
    return n;
  }

  /** The image of {@code i}, for 0 <= i < n. */
  public long apply(long i) {
    if (i < 0 || i >= n) {
      throw new IllegalArgumentException(i + " is outside [0, " + n + ")");
    }
    long x = i;
    do {
      x = encrypt(x);
    } while (x >= n);
    return x;
  }

  private long encrypt(long x) {
    long left = x >>> halfBits;
    long right = x & halfMask;
    for (long k : roundKeys) {
      long next = left ^ (SplitMix64.mix(right ^ k) & halfMask);
      left = right;
      right = next;
    }
    return (left << halfBits) | right;
  }
}
