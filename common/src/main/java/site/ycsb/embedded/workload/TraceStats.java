package site.ycsb.embedded.workload;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a trace was, in fixed memory: lines, distinct keys (estimated), the operations as the trace names
 * them and as they were replayed, key and value sizes, and the time span. Printed at the end as one
 * stderr line, {@code [TRACE] name=value, name=value, ...} (see README, "The workload class"). Not
 * thread-safe: the trace's reader lock guards it.
 */
final class TraceStats {

  /** Trace operation names kept apart in trace_ops; more names than this count as "other". */
  private static final int NAMES = 32;

  private final HyperLogLog distinct = new HyperLogLog();
  private final SizeHistogram keySizes = new SizeHistogram();
  private final SizeHistogram valueSizes = new SizeHistogram();
  private final Map<String, Long> traceOps = new TreeMap<>();
  private final Map<String, Long> mix = new TreeMap<>();
  private long lines;
  private double firstTime = Double.NaN;
  private double lastTime = Double.NaN;

  void add(TraceFile.Line line, long keyHash, String mapped) {
    lines++;
    distinct.add(keyHash);
    keySizes.add(line.keySize);
    valueSizes.add(line.valueSize);
    String name = traceOps.containsKey(line.op) || traceOps.size() < NAMES ? line.op : "other";
    traceOps.merge(name, 1L, Long::sum);
    mix.merge(mapped, 1L, Long::sum);
    if (Double.isNaN(firstTime)) {
      firstTime = line.time;
    }
    lastTime = line.time;
  }

  long lines() {
    return lines;
  }

  long distinctKeys() {
    return distinct.estimate();
  }

  /** The stable line; {@code extra} (already "name=value" pairs) goes before the distributions. */
  String describe(String phase, String format, long malformed, String extra) {
    return String.format(Locale.ROOT, "[TRACE] phase=%s, format=%s, lines=%d, malformed=%d, distinct_keys~=%d,"
        + " span_s=%.3f, mix=%s, trace_ops=%s, %skeysize=%s, valuesize=%s", phase, format, lines, malformed,
        distinct.estimate(), Double.isNaN(firstTime) ? 0.0 : lastTime - firstTime, counts(mix), counts(traceOps),
        extra.isEmpty() ? "" : extra + ", ", keySizes.describe(), valueSizes.describe());
  }

  private static String counts(Map<String, Long> m) {
    if (m.isEmpty()) {
      return "none";
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Long> e : m.entrySet()) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      // a name never holds the block's separators
      sb.append(e.getKey().replaceAll("[,:=\\s]", "_")).append(':').append(e.getValue());
    }
    return sb.toString();
  }
}
