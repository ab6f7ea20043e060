package site.ycsb.embedded.workload;

/**
 * Whether a trace key was seen before, in fixed memory: a Bloom filter of {@code bytes} bytes and
 * seven probes. It never forgets a key it saw; with n keys in m bits it wrongly answers "seen" for
 * about (1 - e^(-7n/m))^7 of the new ones (1 % at about 10 bits a key). Not thread-safe.
 */
final class KeySeenFilter {

  private static final int PROBES = 7;
  private final long[] bits;
  private final long size;

  KeySeenFilter(long bytes) {
    long words = Math.max(1, Math.min(bytes / 8, Integer.MAX_VALUE - 8));
    bits = new long[(int) words];
    size = words * 64;
  }

  /** Marks the key as seen; returns whether it (probably) was already. */
  boolean seenBefore(long hash) {
    long h1 = hash;
    long h2 = SplitMix64.mix(hash ^ SplitMix64.GAMMA) | 1;
    boolean all = true;
    for (int i = 0; i < PROBES; i++) {
      long bit = Long.remainderUnsigned(h1 + i * h2, size);
      int word = (int) (bit >>> 6);
      long mask = 1L << (bit & 63);
      if ((bits[word] & mask) == 0) {
        all = false;
        bits[word] |= mask;
      }
    }
    return all;
  }

  /** The share of new keys wrongly answered "seen" once {@code keys} distinct keys are in. */
  double falsePositiveRate(long keys) {
    return Math.pow(1 - Math.exp(-PROBES * (double) keys / size), PROBES);
  }
}
