package site.ycsb.embedded;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.SortedSet;
import java.util.TreeSet;

import site.ycsb.Client;
import site.ycsb.DB;
import site.ycsb.Workload;
import site.ycsb.embedded.workload.EmbeddedWorkload;
import site.ycsb.embedded.workload.MixGraphWorkload;
import site.ycsb.embedded.workload.TraceWorkload;
import site.ycsb.workloads.CoreWorkload;

/**
 * The checks a YCSB command line's properties pass before anything runs: before a launcher's warm-up, before YCSB's
 * client starts, before any file is created. YCSB 0.17 parses its own numbers and CoreWorkload's as it meets them:
 * one it cannot parse stops it with a bare NumberFormatException that names no property (inside the launcher's
 * warm-up, with the warm-up's message), a negative {@code recordcount} starts no client thread and says nothing, a
 * negative {@code fieldlength} reaches the database. Here each such value is refused as the property, the value and
 * what is allowed ({@link EngineProperties#refusal}), in the ranges and spellings YCSB itself can use: its values
 * are not trimmed, as YCSB does not trim them.
 *
 * <p>And every property's name: one that no part of the run reads (a misspelt {@code recordcnt=1000}, which YCSB
 * ignores, loading the file's million records) is said once, with the nearest name that is read, or refused with
 * {@value UnknownProperties#STRICT}{@code =true} ({@link UnknownProperties}). The names read are YCSB's core's and
 * CoreWorkload's ({@link #CORE}), this project's workload classes' and launcher's, and the binding's
 * ({@link KeyValueDB#propertyNames}). A name with another of this project's engines' prefix (in a run of one engine:
 * one workload file drives every engine) is that engine's to judge, and a workload or DB class that is
 * not this project's (an upstream binding the suite runs as a peer) may read any name: then no name is judged.
 *
 * <p>What is checked: YCSB's client ({@code threadcount}, {@code target}, {@code maxexecutiontime},
 * {@code status.interval}, the phase's count), its measurements, the workload and DB classes (each loads as one),
 * and, for CoreWorkload and its subclasses, every property CoreWorkload parses and the rules between them that it
 * enforces by exiting. Free of any launcher: {@link CheckedClient} calls it, and so may any driver of YCSB's client.
 */
public final class Preflight {

  /**
   * What YCSB 0.17's core reads, beside its workload classes: its client, its measurements and their exporters,
   * its DB wrapper, its BasicDB and client thread; names starting with {@code htrace.} are its tracing's.
   */
  static final List<String> CORE = List.of(Client.WORKLOAD_PROPERTY, Client.DB_PROPERTY, Client.EXPORTER_PROPERTY,
      Client.EXPORT_FILE_PROPERTY, Client.THREAD_COUNT_PROPERTY, Client.INSERT_COUNT_PROPERTY, Client.TARGET_PROPERTY,
      Client.MAX_EXECUTION_TIME, Client.DO_TRANSACTIONS_PROPERTY, Client.STATUS_PROPERTY, Client.LABEL_PROPERTY,
      Client.RECORD_COUNT_PROPERTY, Client.OPERATION_COUNT_PROPERTY, "status.interval", "measurementtype",
      "measurement.interval", "measurement.trackjvm", "measurement.histogram.verbose", "hdrhistogram.percentiles",
      "hdrhistogram.fileoutput", "hdrhistogram.output.path", "histogram.buckets", "timeseries.granularity",
      "measurement.raw.output_file", "measurement.raw.no_summary", "reportlatencyforeacherror",
      "latencytrackederrors", "spin.sleep", "basicdb.verbose", "basicdb.simulatedelay", "basicdb.randomizedelay",
      "basicdb.count", Workload.INSERT_START_PROPERTY);
  private static final String CORE_PREFIX = "htrace.";
  /** What CoreWorkload reads. */
  static final List<String> CORE_WORKLOAD = List.of(CoreWorkload.TABLENAME_PROPERTY,
      CoreWorkload.FIELD_COUNT_PROPERTY, CoreWorkload.FIELD_LENGTH_DISTRIBUTION_PROPERTY,
      CoreWorkload.FIELD_LENGTH_PROPERTY, CoreWorkload.MIN_FIELD_LENGTH_PROPERTY,
      CoreWorkload.FIELD_LENGTH_HISTOGRAM_FILE_PROPERTY, CoreWorkload.READ_ALL_FIELDS_PROPERTY,
      "readallfieldsbyname", CoreWorkload.WRITE_ALL_FIELDS_PROPERTY, CoreWorkload.DATA_INTEGRITY_PROPERTY,
      CoreWorkload.READ_PROPORTION_PROPERTY, CoreWorkload.UPDATE_PROPORTION_PROPERTY,
      CoreWorkload.INSERT_PROPORTION_PROPERTY, CoreWorkload.SCAN_PROPORTION_PROPERTY,
      CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY, CoreWorkload.REQUEST_DISTRIBUTION_PROPERTY,
      CoreWorkload.ZERO_PADDING_PROPERTY, CoreWorkload.MIN_SCAN_LENGTH_PROPERTY, CoreWorkload.MAX_SCAN_LENGTH_PROPERTY,
      CoreWorkload.SCAN_LENGTH_DISTRIBUTION_PROPERTY, CoreWorkload.INSERT_ORDER_PROPERTY,
      CoreWorkload.HOTSPOT_DATA_FRACTION, CoreWorkload.HOTSPOT_OPN_FRACTION, CoreWorkload.INSERTION_RETRY_LIMIT,
      CoreWorkload.INSERTION_RETRY_INTERVAL, CoreWorkload.FIELD_NAME_PREFIX, "exponential.percentile",
      "exponential.frac");
  /** What this project's workload classes read beyond CoreWorkload's (EmbeddedWorkload's also as workload.NAME). */
  private static final List<String> EMBEDDED_WORKLOAD = List.of(EmbeddedWorkload.KEY_FORMAT,
      EmbeddedWorkload.KEY_LENGTH, EmbeddedWorkload.LOAD_ORDER, EmbeddedWorkload.LOAD_SEED,
      EmbeddedWorkload.LOAD_REPEATS, EmbeddedWorkload.VALUE_COMPRESSION_RATIO, EmbeddedWorkload.DELETE_PROPORTION,
      EmbeddedWorkload.READSEQ_PROPORTION);
  private static final List<String> TRACE_WORKLOAD = List.of(TraceWorkload.FILE, TraceWorkload.FORMAT,
      TraceWorkload.SPEED, TraceWorkload.LOAD, TraceWorkload.KEYS, TraceWorkload.FILTER_BYTES,
      TraceWorkload.DEFAULT_VALUE_SIZE);
  /** The workload classes whose names are known: a run of any other is not judged. */
  private static final List<Class<?>> OWN_WORKLOADS = List.of(CoreWorkload.class, EmbeddedWorkload.class,
      MixGraphWorkload.class, TraceWorkload.class);
  /** What the launcher reads: its warm-up, its timing layer, this class. */
  private static final List<String> LAUNCHER = List.of(Warmup.OPERATIONS, Warmup.SECONDS, Warmup.PATH_PROPERTY,
      NanoTimedDB.WRAPPED, NanoTimedDB.FILE, UnknownProperties.STRICT);

  private static final String WHOLE_INT = "a whole number from %d to " + Integer.MAX_VALUE;
  private static final List<String> PROPORTIONS = List.of(CoreWorkload.READ_PROPORTION_PROPERTY,
      CoreWorkload.UPDATE_PROPORTION_PROPERTY, CoreWorkload.INSERT_PROPORTION_PROPERTY,
      CoreWorkload.SCAN_PROPORTION_PROPERTY, CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY);
  private static final List<String> PROPORTION_DEFAULTS = List.of(CoreWorkload.READ_PROPORTION_PROPERTY_DEFAULT,
      CoreWorkload.UPDATE_PROPORTION_PROPERTY_DEFAULT, CoreWorkload.INSERT_PROPORTION_PROPERTY_DEFAULT,
      CoreWorkload.SCAN_PROPORTION_PROPERTY_DEFAULT, CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY_DEFAULT);

  private Preflight() {
  }

  /**
   * Checks {@code p}, YCSB's properties as its client makes them of the command line ({@code dotransactions} set
   * for the phase), before anything runs, and returns the warnings to print at start, one line each: the names no
   * part of the run reads. Each such name is said once per JVM: a binding's open does not say it again.
   *
   * @throws EngineProperties.BadPropertyException naming the property, its value and what is allowed (with
   *     {@value UnknownProperties#STRICT}{@code =true}, also for a name no part of the run reads)
   */
  public static List<String> check(Properties p) {
    return check(p, List.of());
  }

  /**
   * As {@link #check(Properties)}, for a caller that reads properties of its own ({@code callersNames}: a driver's
   * interval records), which are then known too.
   */
  public static List<String> check(Properties p, Collection<String> callersNames) {
    return check(p, callersNames, false);
  }

  /**
   * As {@link #check(Properties, Collection)}; {@code fractional}: the caller's client takes a fraction in
   * {@code maxexecutiontime} (seconds) and in {@code target} (operations per second), as the project's driver
   * does, where YCSB's Client parses whole numbers only.
   */
  public static List<String> check(Properties p, Collection<String> callersNames, boolean fractional) {
    values(p, fractional);
    return unknownNames(p, callersNames);
  }

  /** The value checks of {@link #check}. */
  private static void values(Properties p, boolean fractional) {
    Values v = new Values(p);
    boolean run = !"false".equals(p.getProperty(Client.DO_TRANSACTIONS_PROPERTY, "true"));
    v.integer(Client.THREAD_COUNT_PROPERTY, "1", 1, "");
    if (fractional) {
      v.number(Client.TARGET_PROPERTY, "0", 0, Integer.MAX_VALUE, "a number of operations per second from 0 to "
          + Integer.MAX_VALUE + " (0: no target)");
      v.number(Client.MAX_EXECUTION_TIME, "0", 0, Integer.MAX_VALUE, "a number of seconds from 0 to "
          + Integer.MAX_VALUE + " (0: no limit)");
    } else {
      v.integer(Client.TARGET_PROPERTY, "0", 0, " (operations per second; 0: no target)");
      v.integer(Client.MAX_EXECUTION_TIME, "0", 0, " (seconds; 0: no limit)");
    }
    v.integer("status.interval", "10", 1, " (seconds between status lines)");
    long records = v.integer(Client.RECORD_COUNT_PROPERTY, Client.DEFAULT_RECORD_COUNT, 0, " (records)");
    long inserts = v.integer(Workload.INSERT_COUNT_PROPERTY, null, 0, " (records)");
    long operations = v.integer(Client.OPERATION_COUNT_PROPERTY, null, 0, " (operations)");
    if (run && operations < 1) {
      throw v.refuse(Client.OPERATION_COUNT_PROPERTY, "a whole number from 1 to " + Integer.MAX_VALUE + ": a run"
          + " phase runs that many operations (YCSB starts no client thread for 0)");
    }
    if (!run && (inserts >= 0 ? inserts : records) < 1) {
      throw v.refuse(inserts >= 0 ? Workload.INSERT_COUNT_PROPERTY : Client.RECORD_COUNT_PROPERTY,
          "a whole number from 1 to " + Integer.MAX_VALUE + ": a load inserts that many records (YCSB starts no"
          + " client thread for 0)");
    }
    v.choice("measurementtype", "hdrhistogram", "histogram", "hdrhistogram", "hdrhistogram+histogram",
        "hdrhistogram+raw", "timeseries", "raw");
    v.choice("measurement.interval", "op", "op", "intended", "both");
    v.integer("histogram.buckets", "1000", 1, "");
    v.integer("timeseries.granularity", "1000", 1, " (milliseconds)");
    Class<?> workload = v.loads(Client.WORKLOAD_PROPERTY, null, Workload.class, "a workload class on the class path,"
        + " such as " + CoreWorkload.class.getName());
    String db = p.getProperty(Client.DB_PROPERTY, "site.ycsb.BasicDB");
    v.loads(Client.DB_PROPERTY, "site.ycsb.BasicDB", DB.class, "a DB class on the class path (a binding's client)");
    if (db.equals(NanoTimedDB.class.getName())) {
      v.loads(NanoTimedDB.WRAPPED, null, DB.class, "the DB class " + NanoTimedDB.class.getSimpleName() + " times");
    }
    if (CoreWorkload.class.isAssignableFrom(workload)) {
      coreWorkload(v, run, records, inserts, operations);
    }
  }

  /**
   * The warnings for the names no part of the run reads, or a refusal of them under
   * {@value UnknownProperties#STRICT}; none when the workload or DB class is not one whose names this project knows.
   */
  private static List<String> unknownNames(Properties p, Collection<String> callersNames) {
    boolean strict = UnknownProperties.strict(p);
    String[] engine = {null};
    SortedSet<String> known = knownNames(p, engine);
    if (known == null) {
      return List.of();
    }
    known.addAll(callersNames);
    List<String> unknown = new ArrayList<>();
    for (String name : new TreeSet<>(p.stringPropertyNames())) {
      if (!known.contains(name) && !name.startsWith(CORE_PREFIX) && !anotherEnginesName(name, engine[0])) {
        unknown.add(name);
      }
    }
    if (strict && !unknown.isEmpty()) {
      List<String> said = new ArrayList<>();
      for (String name : unknown) {
        said.add(EngineProperties.refusal(name, p.getProperty(name), "a property some part of this run reads ("
            + name + " is none of them" + UnknownProperties.suggestion(name, known) + ") with "
            + UnknownProperties.STRICT + "=true"));
      }
      throw new EngineProperties.BadPropertyException(String.join("; ", said));
    }
    List<String> warnings = new ArrayList<>();
    for (String name : unknown) {
      if (OncePerJvm.first(UnknownProperties.onceKey(name))) {
        warnings.add(UnknownProperties.warning(name, p.getProperty(name), known));
      }
    }
    return warnings;
  }

  /**
   * Every name some part of the run reads, or null when the workload or DB class is not one whose names this
   * project knows (it may read any); {@code engine[0]} is set to the binding's engine, if the DB is one.
   */
  private static SortedSet<String> knownNames(Properties p, String[] engine) {
    String workload = p.getProperty(Client.WORKLOAD_PROPERTY);
    if (OWN_WORKLOADS.stream().noneMatch(c -> c.getName().equals(workload))) {
      return null;
    }
    SortedSet<String> known = new TreeSet<>(CORE);
    known.addAll(CORE_WORKLOAD);
    known.addAll(LAUNCHER);
    for (String name : EMBEDDED_WORKLOAD) {
      known.add(name);
      known.add("workload." + name); // read through EngineProperties as the engine "workload"
    }
    known.addAll(TRACE_WORKLOAD);
    MixGraphWorkload.PARAMETERS.forEach(name -> known.add(MixGraphWorkload.PREFIX + name));
    String db = p.getProperty(Client.DB_PROPERTY, "site.ycsb.BasicDB");
    if (db.equals(NanoTimedDB.class.getName())) {
      db = p.getProperty(NanoTimedDB.WRAPPED, "");
    }
    if (db.equals("site.ycsb.BasicDB") || db.equals(NothingDB.class.getName())) {
      return known;
    }
    if (db.equals(StallingDB.class.getName())) {
      known.addAll(StallingDB.PROPERTIES);
      return known;
    }
    try {
      Object client = Class.forName(db).getDeclaredConstructor().newInstance();
      if (client instanceof KeyValueDB<?> kv) {
        known.addAll(kv.propertyNames());
        engine[0] = kv.engineName();
        return known;
      }
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      // a DB class that cannot be made: YCSB says so as it starts
    }
    return null;
  }

  /** Whether {@code name} is a property of another of this project's engines than {@code engine}, the run's. */
  private static boolean anotherEnginesName(String name, String engine) {
    for (String e : EngineRegistry.engines()) {
      if (!e.equals(engine) && name.startsWith(e + ".")) {
        return true;
      }
    }
    return false;
  }

  /** What CoreWorkload's init parses, and the rules it enforces by exiting the JVM. */
  private static void coreWorkload(Values v, boolean run, long records, long inserts, long operations) {
    v.integer(CoreWorkload.FIELD_COUNT_PROPERTY, CoreWorkload.FIELD_COUNT_PROPERTY_DEFAULT, 1, "");
    long length = v.integer(CoreWorkload.FIELD_LENGTH_PROPERTY, CoreWorkload.FIELD_LENGTH_PROPERTY_DEFAULT, 0,
        " (bytes)");
    String lengths = v.choice(CoreWorkload.FIELD_LENGTH_DISTRIBUTION_PROPERTY,
        CoreWorkload.FIELD_LENGTH_DISTRIBUTION_PROPERTY_DEFAULT, "constant", "uniform", "zipfian", "histogram");
    long minLength = v.integer(CoreWorkload.MIN_FIELD_LENGTH_PROPERTY, CoreWorkload.MIN_FIELD_LENGTH_PROPERTY_DEFAULT,
        0, " (bytes)");
    if ((lengths.equals("uniform") || lengths.equals("zipfian")) && minLength > length) {
      throw v.rule(CoreWorkload.MIN_FIELD_LENGTH_PROPERTY, "at most", CoreWorkload.FIELD_LENGTH_PROPERTY, length,
          "fieldlengthdistribution=" + lengths + " draws lengths between the two");
    }
    if (lengths.equals("histogram")) {
      v.readableFile(CoreWorkload.FIELD_LENGTH_HISTOGRAM_FILE_PROPERTY,
          CoreWorkload.FIELD_LENGTH_HISTOGRAM_FILE_PROPERTY_DEFAULT);
    }
    for (String name : List.of(CoreWorkload.READ_ALL_FIELDS_PROPERTY, CoreWorkload.WRITE_ALL_FIELDS_PROPERTY,
        "readallfieldsbyname", CoreWorkload.DATA_INTEGRITY_PROPERTY)) {
      v.choice(name, "false", "true", "false"); // YCSB takes anything but "true" as false: a typo would be too
    }
    if ("true".equals(v.value(CoreWorkload.DATA_INTEGRITY_PROPERTY)) && !lengths.equals("constant")) {
      throw v.rule(CoreWorkload.DATA_INTEGRITY_PROPERTY, "false unless constant is the", CoreWorkload
          .FIELD_LENGTH_DISTRIBUTION_PROPERTY, lengths, "the integrity check rebuilds each value at its one length");
    }
    double sum = 0;
    for (int i = 0; i < PROPORTIONS.size(); i++) {
      sum += v.number(PROPORTIONS.get(i), PROPORTION_DEFAULTS.get(i), 0, Double.MAX_VALUE, "a number of at least 0"
          + " (a share of the operations)");
    }
    if (run && sum == 0 && v.value("deleteproportion") == null && v.value("readseqproportion") == null) {
      throw new EngineProperties.BadPropertyException("properties " + String.join(", ", PROPORTIONS) + " are all 0:"
          + " a run phase would have no operation to choose; expected at least one above 0");
    }
    String keys = v.choice(CoreWorkload.REQUEST_DISTRIBUTION_PROPERTY,
        CoreWorkload.REQUEST_DISTRIBUTION_PROPERTY_DEFAULT, "uniform", "zipfian", "latest", "hotspot", "sequential",
        "exponential");
    if (keys.equals("zipfian") && operations < 0) {
      throw v.refuse(Client.OPERATION_COUNT_PROPERTY, "a whole number from 0 to " + Integer.MAX_VALUE
          + ": requestdistribution=zipfian sizes its key space with it, in the load phase too");
    }
    v.number(CoreWorkload.HOTSPOT_DATA_FRACTION, "0.2", 0, 1, "a number from 0 to 1");
    v.number(CoreWorkload.HOTSPOT_OPN_FRACTION, "0.8", 0, 1, "a number from 0 to 1");
    v.number("exponential.percentile", "95", Double.MIN_VALUE, Math.nextDown(100.0), "a number above 0 and below 100");
    v.number("exponential.frac", "0.8571428571", Double.MIN_VALUE, Double.MAX_VALUE, "a number above 0");
    long minScan = v.integer(CoreWorkload.MIN_SCAN_LENGTH_PROPERTY, CoreWorkload.MIN_SCAN_LENGTH_PROPERTY_DEFAULT, 0,
        " (records)");
    long maxScan = v.integer(CoreWorkload.MAX_SCAN_LENGTH_PROPERTY, CoreWorkload.MAX_SCAN_LENGTH_PROPERTY_DEFAULT, 0,
        " (records)");
    if (minScan > maxScan) {
      throw v.rule(CoreWorkload.MIN_SCAN_LENGTH_PROPERTY, "at most", CoreWorkload.MAX_SCAN_LENGTH_PROPERTY, maxScan,
          "scan lengths are drawn between the two");
    }
    v.choice(CoreWorkload.SCAN_LENGTH_DISTRIBUTION_PROPERTY, "uniform", "uniform", "zipfian");
    v.choice(CoreWorkload.INSERT_ORDER_PROPERTY, "hashed", "hashed", "ordered");
    v.integer(CoreWorkload.ZERO_PADDING_PROPERTY, CoreWorkload.ZERO_PADDING_PROPERTY_DEFAULT, 0, " (digits)");
    v.integer(CoreWorkload.INSERTION_RETRY_LIMIT, "0", 0, "");
    v.integer(CoreWorkload.INSERTION_RETRY_INTERVAL, "3", 0, " (seconds)");
    long start = v.whole(Workload.INSERT_START_PROPERTY, "0", 0, Long.MAX_VALUE, "a whole number of at least 0");
    long all = records == 0 ? Integer.MAX_VALUE : records; // CoreWorkload's reading of 0
    if (inserts >= 0 && start + inserts > all) {
      throw new EngineProperties.BadPropertyException("properties insertstart = '" + start + "' and insertcount = '"
          + inserts + "' are not allowed with recordcount = '" + records + "': expected insertstart + insertcount at"
          + " most recordcount (YCSB exits otherwise)");
    }
  }

  /** Reads and refuses values in the one message format, as YCSB parses them (no trimming). */
  private static final class Values {
    private final Properties p;

    Values(Properties p) {
      this.p = p;
    }

    String value(String name) {
      return p.getProperty(name);
    }

    /** A whole number in [min, max] (Integer.MAX_VALUE at most), or -1 when it is not set and {@code def} is null. */
    long integer(String name, String def, long min, String unit) {
      return whole(name, def, min, Integer.MAX_VALUE, String.format(WHOLE_INT, min) + unit);
    }

    long whole(String name, String def, long min, long max, String allowed) {
      String s = p.getProperty(name, def);
      if (s == null) {
        return -1;
      }
      long n;
      try {
        n = Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw refuse(name, allowed);
      }
      if (n < min || n > max) {
        throw refuse(name, allowed);
      }
      return n;
    }

    double number(String name, String def, double min, double max, String allowed) {
      String s = p.getProperty(name, def);
      double d;
      try {
        d = Double.parseDouble(s);
      } catch (NumberFormatException e) {
        throw refuse(name, allowed);
      }
      if (!(d >= min && d <= max)) {
        throw refuse(name, allowed);
      }
      return d;
    }

    /** One of {@code allowed}, spelt exactly so: YCSB compares its choices without case folding or trimming. */
    String choice(String name, String def, String... allowed) {
      String s = p.getProperty(name, def);
      if (!List.of(allowed).contains(s)) {
        throw refuse(name, "one of " + String.join(", ", allowed) + ", spelt so");
      }
      return s;
    }

    /** A class that loads and is a {@code type}; the default when not set, or a refusal when none. */
    Class<?> loads(String name, String def, Class<?> type, String allowed) {
      String s = p.getProperty(name, def);
      if (s == null) {
        throw new EngineProperties.BadPropertyException("property " + name + " is not set: expected " + allowed);
      }
      try {
        Class<?> c = Class.forName(s, false, Preflight.class.getClassLoader());
        if (type.isAssignableFrom(c)) {
          return c;
        }
        throw refuse(name, allowed + " (it is a class, not a " + type.getName() + ")");
      } catch (ClassNotFoundException | LinkageError e) {
        throw refuse(name, allowed + " (no class of that name loads: " + e + ")");
      }
    }

    void readableFile(String name, String def) {
      String s = p.getProperty(name, def);
      try {
        if (Files.isReadable(Path.of(s)) && Files.isRegularFile(Path.of(s))) {
          return;
        }
      } catch (InvalidPathException e) {
        // refused below
      }
      throw refuse(name, "a readable file (of field lengths and their weights)");
    }

    EngineProperties.BadPropertyException refuse(String name, String allowed) {
      String s = p.getProperty(name);
      if (s == null) {
        return new EngineProperties.BadPropertyException("property " + name + " is not set: expected " + allowed);
      }
      return new EngineProperties.BadPropertyException(EngineProperties.refusal(name, s, allowed));
    }

    /** Refuses {@code name} for the value {@code other} has: "expected at most maxscanlength (5)". */
    EngineProperties.BadPropertyException rule(String name, String relation, String other, Object otherValue,
        String why) {
      return refuse(name, relation + " " + other + " (" + otherValue + "); " + why);
    }
  }
}
