package site.ycsb.embedded.workload;

/**
 * Whether a trace key was seen before, in fixed memory: a Bloom filter of {@code bytes} bytes, blocked (the seven
 * probes of a key fall in one 64-byte block, so a lookup costs one cache miss, not seven: it runs under the trace's
 * reader lock). It never forgets a key it saw; it wrongly answers "seen" for about 0.9 % of new keys at 10 bits a
 * key and 0.1 % at 16 (measured, and what {@link #falsePositiveRate} gives). Not thread-safe.
 */
final class KeySeenFilter {

  private static final int PROBES = 7;
  /** Longs in a block: 512 bits, one cache line. */
  private static final int BLOCK = 8;
  private final long[] bits;
  private final long blocks;

  KeySeenFilter(long bytes) {
    blocks = Math.max(1, Math.min(bytes / (8 * BLOCK), (Integer.MAX_VALUE - 8) / BLOCK));
    bits = new long[(int) (blocks * BLOCK)];
  }

  /** Marks the key as seen; returns whether it (probably) was already. */
  boolean seenBefore(long hash) {
    int base = (int) Long.remainderUnsigned(hash, blocks) * BLOCK;
    long h2 = SplitMix64.mix(hash ^ SplitMix64.GAMMA);
    boolean all = true;
    for (int i = 0; i < PROBES; i++) {
      int bit = (int) (h2 >>> (9 * i)) & 511;
      int word = base + (bit >>> 6);
      long mask = 1L << (bit & 63);
      if ((bits[word] & mask) == 0) {
        all = false;
        bits[word] |= mask;
      }
    }
    return all;
  }

  /**
   * The share of new keys wrongly answered "seen" once {@code keys} distinct keys are in: a block holds a Poisson
   * number j of keys (mean keys / blocks), and a new key in a block of j is a false "seen" with probability
   * (1 - e^(-7j/512))^7.
   */
  double falsePositiveRate(long keys) {
    double mean = keys / (double) blocks;
    if (mean > 2000) {
      return 1.0; // every block saturated
    }
    double rate = 0;
    double logFactorial = 0;
    for (int j = 0; j <= mean + 20 * Math.sqrt(mean) + 40; j++) {
      if (j > 0) {
        logFactorial += Math.log(j);
      }
      double p = Math.exp(j * Math.log(Math.max(mean, Double.MIN_NORMAL)) - mean - logFactorial);
      rate += p * Math.pow(1 - Math.exp(-PROBES * j / 512.0), PROBES);
    }
    return Math.min(1.0, rate);
  }
}
