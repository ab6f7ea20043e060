package site.ycsb.embedded.workload;

import java.util.BitSet;

/**
 * SplitMix64's finaliser, and the key draws built on it. A load "with replacement" draws its i-th
 * key as the (i+1)-th output of a SplitMix64 generator started at the seed, modulo n: uniform over
 * [0, n), a function of the seed and the insert's index only (so any thread, any process and the
 * benchmarks' C floor draw the same key for the same index). That is how db_bench's fillrandom
 * picks its keys (uniform over [0, num) with repeats: about 1 - 1/e = 63 % of them distinct).
 */
public final class SplitMix64 {

  /** SplitMix64's increment (the golden ratio in 64 bits). */
  static final long GAMMA = 0x9E3779B97F4A7C15L;

  private SplitMix64() {
  }

  /** SplitMix64's output function: a bijection of 64-bit values that mixes every bit into every other. */
  public static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The key number of insert {@code index} drawn with replacement from [0, n). */
  public static long draw(long seed, long index, long n) {
    if (n < 1) {
      throw new IllegalArgumentException("a draw from an empty range");
    }
    return Long.remainderUnsigned(mix(seed + (index + 1) * GAMMA), n);
  }

  /** The key numbers that draws 0 .. count-1 from [0, n) hit, as a set (n at most Integer.MAX_VALUE). */
  public static BitSet drawn(long seed, long count, int n) {
    BitSet hit = new BitSet(n);
    for (long i = 0; i < count; i++) {
      hit.set((int) draw(seed, i, n));
    }
    return hit;
  }
}
