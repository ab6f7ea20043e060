package site.ycsb.embedded.workload;

import java.util.Locale;

/**
 * A distribution of sizes (bytes, scan lengths) in fixed memory: exact counts below 65,536, one bucket
 * per power of two above (a quantile that falls there is the bucket's upper end). Not thread-safe.
 */
final class SizeHistogram {

  private static final int EXACT = 1 << 16;
  private final long[] exact = new long[EXACT];
  private final long[] powers = new long[64];
  private long count;
  private long min = Long.MAX_VALUE;
  private long max = Long.MIN_VALUE;
  private double sum;

  void add(long v) {
    long x = Math.max(0, v);
    if (x < EXACT) {
      exact[(int) x]++;
    } else {
      powers[63 - Long.numberOfLeadingZeros(x)]++;
    }
    count++;
    min = Math.min(min, x);
    max = Math.max(max, x);
    sum += x;
  }

  long count() {
    return count;
  }

  /** The smallest size s with at least q of the sizes at or below s (0 when empty). */
  long quantile(double q) {
    if (count == 0) {
      return 0;
    }
    long want = Math.max(1, (long) Math.ceil(q * count));
    long seen = 0;
    for (int i = 0; i < EXACT; i++) {
      seen += exact[i];
      if (seen >= want) {
        return i;
      }
    }
    for (int b = 16; b < 64; b++) {
      seen += powers[b];
      if (seen >= want) {
        return Math.min(max, b == 62 ? Long.MAX_VALUE : (1L << (b + 1)) - 1);
      }
    }
    return max;
  }

  /** The share of sizes in [lo, hi]; exact only below 65,536. */
  double share(long lo, long hi) {
    if (count == 0) {
      return 0;
    }
    long n = 0;
    for (long i = Math.max(0, lo); i <= Math.min(hi, EXACT - 1); i++) {
      n += exact[(int) i];
    }
    return n / (double) count;
  }

  /** {@code min:..,p50:..,p90:..,p99:..,max:..,mean:..}: the stable form of the stderr blocks. */
  String describe() {
    if (count == 0) {
      return "none";
    }
    return String.format(Locale.ROOT, "min:%d,p50:%d,p90:%d,p99:%d,max:%d,mean:%.1f", min, quantile(0.5),
        quantile(0.9), quantile(0.99), max, sum / count);
  }
}
