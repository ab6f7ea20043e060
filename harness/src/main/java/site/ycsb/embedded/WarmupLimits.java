package site.ycsb.embedded;

import java.util.Properties;

/**
 * The warm-up's two limits, {@value Warmup#OPERATIONS} and {@value Warmup#SECONDS}, as the properties ask for them:
 * the warm-up runs only when both are above 0, and stops at whichever it reaches first.
 */
record WarmupLimits(long operations, double seconds, String bound) {

  static final long OPERATIONS_DEFAULT = 200_000;
  static final double SECONDS_DEFAULT = 2;

  WarmupLimits(long operations, double seconds) {
    this(operations, seconds, null);
  }

  boolean on() {
    return operations > 0 && seconds > 0;
  }

  String describe() {
    return Warmup.OPERATIONS + "=" + operations + (bound == null ? "" : " (" + bound + ")") + ", " + Warmup.SECONDS
        + "=" + Warmup.decimal(seconds);
  }

  /**
   * The limits the properties ask for; a value that is not one is refused with the property's name. The default
   * operation count is bounded by the phase it warms: no more warm-up operations than the phase has (its insertcount
   * or recordcount in a load, its operationcount in a run), so that a short phase does not wait seconds for it.
   */
  static WarmupLimits of(Properties p) {
    EngineProperties props = new EngineProperties(p, "warmup");
    long operations = props.integer(Warmup.OPERATIONS, OPERATIONS_DEFAULT, 0L, Long.MAX_VALUE);
    double seconds = props.decimal(Warmup.SECONDS, SECONDS_DEFAULT, 0, 3600);
    long phase = phaseOperations(p);
    if (props.isSet(Warmup.OPERATIONS) || phase <= 0 || phase >= operations) {
      return new WarmupLimits(operations, seconds);
    }
    return new WarmupLimits(phase, seconds, "the default " + OPERATIONS_DEFAULT + " bounded by the phase's " + phase
        + " operations");
  }

  /** The operations of the phase a warm-up warms, as YCSB's client counts them; 0 when unbounded or unreadable. */
  static long phaseOperations(Properties p) {
    boolean run = Boolean.parseBoolean(p.getProperty("dotransactions", "true"));
    String count = run ? p.getProperty("operationcount", "0")
        : p.getProperty("insertcount", p.getProperty("recordcount", "0"));
    try {
      return Math.max(0, Long.parseLong(count.trim()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
