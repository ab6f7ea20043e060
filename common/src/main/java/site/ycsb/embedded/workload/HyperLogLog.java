package site.ycsb.embedded.workload;

/**
 * A distinct-count estimate in fixed memory (Flajolet et al.'s HyperLogLog with 2^14 one-byte registers,
 * 16 KB, standard error about 0.8 %), so that a trace of billions of lines reports its distinct keys
 * without holding them. Small counts use linear counting, as the algorithm prescribes; not thread-safe.
 */
final class HyperLogLog {

  private static final int P = 14;
  private static final int M = 1 << P;
  private final byte[] registers = new byte[M];

  /** Adds one element, given a well-mixed 64-bit hash of it. */
  void add(long hash) {
    int index = (int) (hash >>> (64 - P));
    long rest = (hash << P) | (1L << (P - 1)); // the guard bit bounds the rank at 64 - P + 1
    byte rank = (byte) (Long.numberOfLeadingZeros(rest) + 1);
    if (rank > registers[index]) {
      registers[index] = rank;
    }
  }

  /** The estimated number of distinct elements added. */
  long estimate() {
    double sum = 0;
    int zeros = 0;
    for (byte r : registers) {
      sum += Math.scalb(1.0, -r);
      if (r == 0) {
        zeros++;
      }
    }
    double alpha = 0.7213 / (1 + 1.079 / M);
    double raw = alpha * M * (double) M / sum;
    if (raw <= 2.5 * M && zeros > 0) {
      return Math.round(M * Math.log((double) M / zeros));
    }
    return Math.round(raw);
  }

  /** A 64-bit hash of a string's chars (FNV-1a, then SplitMix64's finaliser to spread every bit). */
  static long hash(String s) {
    long h = 0xCBF29CE484222325L;
    for (int i = 0; i < s.length(); i++) {
      h = (h ^ s.charAt(i)) * 0x100000001B3L;
    }
    return SplitMix64.mix(h ^ s.length());
  }
}
