package site.ycsb.embedded;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Typed reading of YCSB properties with defaults, clear errors and a record of what was used.
 *
 * <p>A name without a dot is an engine-neutral knob ({@code cachesize}): the engine-prefixed
 * property ({@code <engine>.cachesize}) overrides it, so one workload file can drive every engine
 * and still give one engine its own value. A name with a dot is read as written.
 *
 * <p>Every value read is remembered, so that {@link #describe()} can print the effective
 * configuration once at start.
 */
public final class EngineProperties {

  /** Data directory of the engine (each engine keeps its files inside it). */
  public static final String PATH = "path";
  /** Delete the data directory before opening: false, true, or load (only in the load phase). */
  public static final String DESTROY = "destroy";
  /** Inserts applied atomically together; 1 applies each insert on its own. */
  public static final String BATCH_SIZE = "batchsize";
  /** Every write waits for the disk before it returns. */
  public static final String SYNC = "sync";
  /** Compression of stored data; each engine lists the values it allows. */
  public static final String COMPRESSION = "compression";
  /** Read cache size in bytes (k, m, g and t suffixes allowed). */
  public static final String CACHE_SIZE = "cachesize";
  /** Write buffer (memtable) size in bytes (k, m, g and t suffixes allowed). */
  public static final String WRITE_BUFFER_SIZE = "writebuffersize";

  private final Properties props;
  private final String engine;
  /** Upstream YCSB's names the engine honours, by the engine-prefixed name of ours each means. */
  private final java.util.Map<String, String> upstreamByOurs = new java.util.HashMap<>();
  /** Upstream YCSB's names the engine refuses, sorted, each with what to set instead. */
  private final java.util.SortedMap<String, String> upstreamRefused;
  private final List<String> effective = new ArrayList<>();
  private final java.util.Set<String> read = new java.util.HashSet<>();
  /** The last lookup of each name, so that a rule between two properties can name both as they were read. */
  private final java.util.Map<String, Found> found = new java.util.HashMap<>();

  /**
   * The properties as read for {@code engine}, the prefix that overrides a neutral knob (a part that is not a binding
   * reads its own, {@code workload}), with no upstream YCSB name honoured or refused.
   */
  public EngineProperties(Properties props, String engine) {
    this(props, engine, java.util.Map.of(), java.util.Map.of());
  }

  /** The properties as read for a binding's engine, with the upstream YCSB names its facts honour and refuse. */
  public EngineProperties(Properties props, EngineFacts facts) {
    this(props, facts.name(), facts.upstreamAliases(), facts.upstreamRefused());
  }

  private EngineProperties(Properties props, String engine, java.util.Map<String, String> upstreamAliases,
      java.util.Map<String, String> upstreamRefused) {
    this.props = props;
    this.engine = engine;
    upstreamAliases.forEach((theirs, ours) -> upstreamByOurs.put(ours, theirs));
    this.upstreamRefused = new java.util.TreeMap<>(upstreamRefused);
  }

  public String engine() {
    return engine;
  }

  /**
   * Refuses an upstream YCSB name whose meaning differs from ours, naming every such property set
   * and what to set instead; a pipeline's option is never dropped without a word.
   */
  public void refuseUpstreamNames() {
    java.util.List<String> problems = new java.util.ArrayList<>();
    upstreamRefused.forEach((name, why) -> {
      if (props.getProperty(name) != null) {
        problems.add("property " + name + " = '" + props.getProperty(name) + "' (upstream YCSB's) is not"
            + " honoured: " + why);
      }
    });
    if (!problems.isEmpty()) {
      throw new BadPropertyException(String.join("; ", problems));
    }
  }

  /** A string; never fails. */
  public String string(String name, String def) {
    return lookup(name, def).value;
  }

  /**
   * A directory: any path but an empty or blank one, which would name the working directory ({@code -p path=$DIR}
   * with DIR unset) and let {@code destroy} delete what the user keeps there. Refused before anything is touched.
   */
  public java.nio.file.Path directory(String name, String def) {
    Found f = lookup(name, def);
    if (f.value.isBlank()) {
      throw f.bad("a directory's path (it is empty: an unset variable in -p " + f.key + "=$DIR?); nothing was"
          + " touched");
    }
    try {
      return java.nio.file.Path.of(f.value);
    } catch (java.nio.file.InvalidPathException e) {
      throw f.bad("a directory's path (" + e.getReason() + "); nothing was touched");
    }
  }

  /** A whole number in [min, max]. */
  public long integer(String name, long def, long min, long max) {
    Found f = lookup(name, Long.toString(def));
    long v;
    try {
      v = Long.parseLong(f.value.trim());
    } catch (NumberFormatException e) {
      throw f.bad("a whole number from " + min + " to " + max);
    }
    if (v < min || v > max) {
      throw f.bad("a whole number from " + min + " to " + max);
    }
    return v;
  }

  /** An int in [min, max]. */
  public int integer(String name, int def, int min, int max) {
    return (int) integer(name, (long) def, (long) min, (long) max);
  }

  /** A non-negative size in bytes, in the grammar of {@link #parseSize} (4194304, 4m, 4MiB, 2.5g). */
  public long size(String name, long def) {
    return size(name, def, Long.MAX_VALUE);
  }

  /** A size in bytes from 0 to {@code max}, in the grammar of {@link #parseSize}. */
  public long size(String name, long def, long max) {
    return size(name, def, 0, max);
  }

  /** A size in bytes from {@code min} to {@code max}, in the grammar of {@link #parseSize}. */
  public long size(String name, long def, long min, long max) {
    Found f = lookup(name, Long.toString(def));
    long v = parseSize(f.value);
    if (v < min || v > max) {
      throw f.bad("a size in bytes from " + min + " to " + max
          + ", optionally with k, m, g or t (4194304, 4m, 4MiB, 2.5g)");
    }
    return v;
  }

  /** true or false (also yes/no, on/off, 1/0), anything else is an error. */
  public boolean bool(String name, boolean def) {
    Found f = lookup(name, Boolean.toString(def));
    switch (f.value.trim().toLowerCase(Locale.ROOT)) {
      case "true": case "yes": case "on": case "1":
        return true;
      case "false": case "no": case "off": case "0":
        return false;
      default:
        throw f.bad("true or false");
    }
  }

  /** A decimal number in [min, max]. */
  public double decimal(String name, double def, double min, double max) {
    Found f = lookup(name, Double.toString(def));
    double v;
    try {
      v = Double.parseDouble(f.value.trim());
    } catch (NumberFormatException e) {
      throw f.bad("a number from " + min + " to " + max);
    }
    if (!(v >= min && v <= max)) {
      throw f.bad("a number from " + min + " to " + max);
    }
    return v;
  }

  /** One of {@code allowed} (case-insensitive); returns it in the spelling given in allowed. */
  public String choice(String name, String def, String... allowed) {
    Found f = lookup(name, def);
    for (String a : allowed) {
      if (a.equalsIgnoreCase(f.value.trim())) {
        return a;
      }
    }
    throw f.bad("one of " + String.join(", ", allowed));
  }

  /** Whether the property (or, for a neutral knob, its engine-prefixed form) is set at all. */
  public boolean isSet(String name) {
    return props.getProperty(prefixed(name)) != null || props.getProperty(name) != null;
  }

  /**
   * The engine-prefixed properties that are set but were never read: most likely typos
   * ({@code <engine>.cachsize}), which would otherwise be ignored without a word.
   */
  public java.util.SortedSet<String> unread() {
    java.util.SortedSet<String> out = new java.util.TreeSet<>();
    for (String name : props.stringPropertyNames()) {
      if (name.startsWith(engine + ".") && !read.contains(name)) {
        out.add(name);
      }
    }
    return out;
  }

  /** The effective configuration, one "name = value (origin)" line per value read. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    for (String line : effective) {
      sb.append("  ").append(line).append('\n');
    }
    return sb.toString();
  }

  /**
   * Refuses {@code name}'s value, already read, with what is allowed: for a check that the typed readers
   * cannot make alone (a power of two, a lower bound they do not take).
   */
  public BadPropertyException refuse(String name, String allowed) {
    return foundOrRaw(name).bad(allowed);
  }

  /**
   * States a rule between two properties: when {@code holds} is false, refuses {@code name}'s value in the
   * message format of every refusal, naming {@code other} with the value it has ("expected auto or fields with
   * fieldcount (3)"). {@code why}, when not null, ends the message.
   */
  public void require(boolean holds, String name, String allowed, String other, String why) {
    if (!holds) {
      Found o = foundOrRaw(other);
      String otherName = o.origin.startsWith("from") ? o.name : o.key; // as the user wrote it
      throw foundOrRaw(name).bad(allowed + " " + otherName + " (" + o.value + ")" + (why == null ? "" : "; " + why));
    }
  }

  /** The one message format of a refused property value. */
  public static String refusal(String property, String value, String allowed) {
    return "property " + property + " = '" + value + "' is not allowed: expected " + allowed;
  }

  private static final java.util.regex.Pattern SIZE = java.util.regex.Pattern.compile(
      "([0-9]+(?:\\.[0-9]+)?)[ \\t]*(?:([kmgt])(?:i?b)?|b)?", java.util.regex.Pattern.CASE_INSENSITIVE);

  /**
   * A size in bytes, or -1 when it is not one. The grammar, shared with analysis/results/engine_lines.py and
   * tested on both sides with common/src/test/resources/size-cases.txt: a whole or decimal number, then
   * optionally k, m, g or t (powers of 1024) with an optional b or ib, or a lone b; case-insensitive, blanks
   * around and before the unit allowed. The result must be a whole number of bytes no larger than
   * {@link Long#MAX_VALUE}: 4194304, 4m, 4MB, 4MiB, 2.5m, 512k, 1g, 100b, 0.5k.
   */
  public static long parseSize(String s) {
    if (s == null) {
      return -1;
    }
    java.util.regex.Matcher m = SIZE.matcher(s.trim());
    if (!m.matches()) {
      return -1;
    }
    String unit = m.group(2) == null ? "" : m.group(2).toLowerCase(Locale.ROOT);
    int shift = unit.isEmpty() ? 0 : 10 * ("kmgt".indexOf(unit) + 1);
    BigDecimal bytes = new BigDecimal(m.group(1)).multiply(new BigDecimal(BigInteger.ONE.shiftLeft(shift)));
    try {
      return bytes.longValueExact();
    } catch (ArithmeticException e) {
      return -1; // a fraction of a byte, or more than a long holds
    }
  }

  private String prefixed(String name) {
    return name.indexOf('.') < 0 ? engine + "." + name : name;
  }

  private Found lookup(String name, String def) {
    String key = prefixed(name);
    String v = props.getProperty(key);
    String origin;
    String upstream = upstreamByOurs.get(key);
    String upstreamValue = upstream == null ? null : props.getProperty(upstream);
    if (upstreamValue != null) {
      read.add(upstream);
    }
    if (v != null && upstreamValue != null && !v.equals(upstreamValue)) {
      throw new BadPropertyException("properties " + key + " = '" + v + "' and " + upstream + " = '"
          + upstreamValue + "' (upstream YCSB's name for it) disagree: set one of them");
    }
    // The neutral name (path) loses to upstream's name (its alias of <engine>.path) as to ours: a different value is
    // refused too.
    String neutral = key.equals(name) ? null : props.getProperty(name);
    if (v == null && upstreamValue != null && neutral != null && !neutral.equals(upstreamValue)) {
      throw new BadPropertyException("properties " + name + " = '" + neutral + "' and " + upstream + " = '"
          + upstreamValue + "' (upstream YCSB's name for " + key + ") disagree: set one of them");
    }
    if (v != null) {
      origin = "set";
    } else if (upstreamValue != null) {
      v = upstreamValue;
      origin = "from " + upstream + ", upstream YCSB's name";
    } else if (!key.equals(name) && (v = props.getProperty(name)) != null) {
      origin = "from " + name;
    } else {
      v = def;
      origin = "default";
    }
    String line = key + " = " + v + " (" + origin + ")";
    if (!effective.contains(line)) { // a value two parts of a binding read is printed once
      effective.add(line);
    }
    read.add(key);
    Found f = new Found(key, upstreamValue != null && origin.startsWith("from " + upstream) ? upstream : name, v,
        origin);
    found.put(name, f);
    return f;
  }

  /** How {@code name} was last read or, when it was not read, its value as set (or "not set"). */
  private Found foundOrRaw(String name) {
    Found f = found.get(name);
    if (f != null) {
      return f;
    }
    String key = prefixed(name);
    if (props.getProperty(key) != null) {
      return new Found(key, name, props.getProperty(key), "set");
    }
    if (props.getProperty(name) != null) {
      return new Found(name, name, props.getProperty(name), "set"); // not read through here: no override applies
    }
    return new Found(name, name, "not set", "default");
  }

  private static final class Found {
    final String key;
    final String name;
    final String value;
    final String origin;

    Found(String key, String name, String value, String origin) {
      this.key = key;
      this.name = name;
      this.value = value;
      this.origin = origin;
    }

    String which() {
      return origin.startsWith("from") ? name + " (read as " + key + ")" : key;
    }

    BadPropertyException bad(String allowed) {
      return new BadPropertyException(refusal(which(), value, allowed));
    }
  }

  /** A property value that cannot be used; the message names the property, value and choices. */
  public static final class BadPropertyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public BadPropertyException(String message) {
      super(message);
    }
  }
}
