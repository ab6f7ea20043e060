package site.ycsb.embedded.workload;

import java.util.Locale;

/**
 * A distribution of sizes (bytes, scan lengths) in fixed memory: exact counts below a power of two (65,536
 * unless told), one bucket per power of two above (a quantile that falls there is the bucket's upper end).
 * Not thread-safe.
 */
final class SizeHistogram {

  private final int exactBelow;
  private final long[] exact;
  private final long[] powers = new long[64];
  private long count;
  private long min = Long.MAX_VALUE;
  private long max = Long.MIN_VALUE;
  private double sum;

  SizeHistogram() {
    this(1 << 16);
  }

  SizeHistogram(int exactBelow) {
    if (Integer.bitCount(exactBelow) != 1) {
      throw new IllegalArgumentException("exact counts end at a power of two, got " + exactBelow);
    }
    this.exactBelow = exactBelow;
    exact = new long[exactBelow];
  }

  void add(long v) {
    long x = Math.max(0, v);
    if (x < exactBelow) {
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
    for (int i = 0; i < exactBelow; i++) {
      seen += exact[i];
      if (seen >= want) {
        return i;
      }
    }
    for (int b = Integer.numberOfTrailingZeros(exactBelow); b < 64; b++) {
      seen += powers[b];
      if (seen >= want) {
        return Math.min(max, b == 62 ? Long.MAX_VALUE : (1L << (b + 1)) - 1);
      }
    }
    return max;
  }

  /** Adds another histogram's counts (the same exact range) to this one. */
  void addAll(SizeHistogram other) {
    for (int i = 0; i < exactBelow; i++) {
      exact[i] += other.exact[i];
    }
    for (int b = 0; b < 64; b++) {
      powers[b] += other.powers[b];
    }
    count += other.count;
    min = Math.min(min, other.min);
    max = Math.max(max, other.max);
    sum += other.sum;
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
