package site.ycsb.embedded.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Locale;
import java.util.Properties;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicLong;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.RandomByteIterator;
import site.ycsb.Status;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;
import site.ycsb.embedded.ClientExitStatus;
import site.ycsb.embedded.EngineProperties;

/**
 * Replays a key-value trace file (see {@link TraceFile} for the formats), streamed: one reader shared by all
 * client threads hands out the lines in the file's order under a lock, so memory stays fixed whatever the
 * trace's length. The run ends at the end of the trace or after {@code operationcount} operations
 * (0: the whole trace).
 *
 * <p>Operations: get, gets, read: read. set, add, replace, cas, append, prepend, put, insert, update, incr,
 * decr: a write of the line's value size, an insert when the key was never seen before in the trace (nor
 * loaded), else an update (an update that finds no record, after a delete, becomes an insert). delete: delete.
 * scan (kvtrace only): a scan of valuesize records. Any other operation is skipped and counted.
 *
 * <p>Keys: the engine's key is the trace key's text, unchanged ({@code trace.keys=asis}), one char per byte
 * of the file, so distinct keys stay distinct. {@code trace.keys=padded} appends a newline and filler up to
 * the line's key size column (the Twitter traces' keys are anonymised to other lengths than the originals);
 * still one key per trace key, since a trace key never holds a newline.
 *
 * <p>The load phase ({@code trace.load=keys}) streams the whole trace once and inserts every key whose first
 * operation is not a write (a read, delete or scan of a key the trace never wrote: it existed before the
 * trace began), so that the run finds it; {@code trace.load=none} loads nothing. Both phases print one line
 * {@code [TRACE] ...} on stderr at the end with what the trace was.
 */
public class TraceWorkload extends Workload {

  public static final String FILE = "trace.file";
  public static final String FORMAT = "trace.format";
  public static final String SPEED = "trace.speed";
  public static final String LOAD = "trace.load";
  public static final String KEYS = "trace.keys";
  public static final String FILTER_BYTES = "trace.filterbytes";
  public static final String DEFAULT_VALUE_SIZE = "trace.defaultvaluesize";

  /** The largest value written, so that a corrupt size column cannot ask for gigabytes. */
  static final int MAX_VALUE_SIZE = 1 << 26;

  /** One line as handed to a client thread. */
  private static final class Op {
    final String kind;
    final String key;
    final long size;
    final double time;

    Op(String kind, String key, long size, double time) {
      this.kind = kind;
      this.key = key;
      this.size = size;
      this.time = time;
    }
  }

  private final Object lock = new Object();
  private final TraceFile.Line scratch = new TraceFile.Line();
  private final TraceStats stats = new TraceStats();
  private final AtomicLong loaded = new AtomicLong();
  private final AtomicLong replayed = new AtomicLong();
  private final AtomicLong updatesInserted = new AtomicLong();
  private TraceFile trace;
  private KeySeenFilter seen;
  private PaceClock clock = PaceClock.SYSTEM;
  private String table;
  private String field;
  private double speed;
  private boolean loadKeys;
  private boolean padded;
  private long defaultValueSize;
  private boolean ended;
  private boolean started;
  private long originNanos;
  private double originTime;
  private volatile String phase = "none";

  @Override
  public void init(Properties p) throws WorkloadException {
    EngineProperties props = new EngineProperties(p, "workload");
    try {
      String file = props.string(FILE, "");
      if (file.isBlank()) {
        throw new WorkloadException("property " + FILE + " is not set: the trace file to replay");
      }
      Path path = Paths.get(file);
      if (!Files.isReadable(path) || Files.isDirectory(path)) {
        throw new WorkloadException("property " + FILE + " = '" + file + "': no readable file there");
      }
      String format = props.choice(FORMAT, "auto", "auto", "twitter", "kvtrace");
      speed = props.decimal(SPEED, 0, 0, 1e9);
      loadKeys = props.choice(LOAD, "keys", "keys", "none").equals("keys");
      padded = props.choice(KEYS, "asis", "asis", "padded").equals("padded");
      long filterBytes = props.size(FILTER_BYTES, 64L << 20, 8, 1L << 34);
      defaultValueSize = props.integer(DEFAULT_VALUE_SIZE, 100L, 1L, MAX_VALUE_SIZE);
      table = p.getProperty("table", "usertable");
      field = p.getProperty("fieldnameprefix", "field") + "0";
      try {
        trace = TraceFile.open(path, format);
      } catch (IOException e) {
        throw new WorkloadException("property " + FILE + " = '" + file + "': cannot read it: " + e);
      }
      if (speed > 0 && !trace.timed()) {
        trace.close();
        throw new WorkloadException("property " + SPEED + " = '" + speed + "' paces by the trace's time column,"
            + " and " + file + " has none: add a time column or set " + SPEED + "=0");
      }
      if (!trace.compressed()) {
        // a plain file of s bytes holds at most s/6 lines ("k,get" and a newline): 10 bits each is enough
        filterBytes = Math.min(filterBytes, Math.max(64 << 10, Files.size(path) / 4));
      }
      seen = new KeySeenFilter(filterBytes);
      System.err.printf(Locale.ROOT, "[trace] %s, format %s, speed %s, load %s, keys %s, seen-key filter %d KB%n",
          path.getFileName(), trace.format(), speed == 0 ? "0 (as fast as possible)" : speed + "x the trace's pace",
          loadKeys ? "keys (those read before written)" : "none", padded ? "padded to the key size column" : "as is",
          filterBytes >> 10);
    } catch (IllegalArgumentException | IOException e) {
      throw ClientExitStatus.refusedWorkload(new WorkloadException(e.getMessage()));
    } catch (WorkloadException e) {
      throw ClientExitStatus.refusedWorkload(e);
    }
  }

  /**
   * Whether a run phase reads records a load wrote ({@code KeyValueDB.RUN_READS_RECORDS}, which decides the
   * bindings' refusal of a run on an empty database): no. A trace writes a key before it reads it, or its load
   * inserted it (trace.load=keys), so a trace whose every key is written first loads nothing and its run starts
   * from the empty database; a read of a key the load did not insert is the trace's own miss.
   */
  public static boolean runReadsRecords(Properties p) {
    return false;
  }

  /** Replaces the pacing's clock (tests). */
  void useClock(PaceClock c) {
    clock = c;
  }

  @Override
  public boolean doInsert(DB db, Object threadstate) {
    phase = "load";
    if (!loadKeys) {
      return false;
    }
    Op op;
    do {
      op = next();
      if (op == null) {
        return false;
      }
    } while (!op.kind.startsWith("load-"));
    Status s = db.insert(table, op.key, value(op.size));
    if (s != null && s.isOk()) {
      loaded.incrementAndGet();
    }
    return true;
  }

  @Override
  public boolean doTransaction(DB db, Object threadstate) {
    phase = "run";
    Op op = next();
    if (op == null) {
      return false;
    }
    if (speed > 0) {
      clock.sleepUntil(originNanos + (long) ((op.time - originTime) * 1e9 / speed));
    }
    String kind = op.kind.startsWith("load-") ? op.kind.substring(5) : op.kind;
    switch (kind) {
      case "read":
        db.read(table, op.key, null, new HashMap<>());
        break;
      case "scan":
        db.scan(table, op.key, (int) Math.max(1, Math.min(op.size, Integer.MAX_VALUE)), null, new Vector<>());
        break;
      case "delete":
        db.delete(table, op.key);
        break;
      case "insert":
        db.insert(table, op.key, value(op.size));
        break;
      case "update":
        if (db.update(table, op.key, value(op.size)) == Status.NOT_FOUND) {
          updatesInserted.incrementAndGet();
          db.insert(table, op.key, value(op.size));
        }
        break;
      default: // skipped: an operation the replay does not know
        return true;
    }
    replayed.incrementAndGet();
    return true;
  }

  /**
   * The next line, classified in the trace's order: read, scan or delete of a key seen before; "load-" and that
   * for the first sight of a key the trace did not write first; insert or update for a write; skip.
   */
  private Op next() {
    synchronized (lock) {
      if (ended) {
        return null;
      }
      TraceFile.Line line;
      try {
        line = trace.next(scratch);
      } catch (IOException e) {
        System.err.println("[trace] reading the trace failed after line " + stats.lines() + ": " + e);
        ClientExitStatus.operationFailed();
        line = null;
      }
      if (line == null) {
        ended = true;
        return null;
      }
      long hash = HyperLogLog.hash(line.key);
      String kind = kind(line.op);
      boolean before = seen.seenBefore(hash);
      if (kind.equals("write")) {
        kind = before ? "update" : "insert";
      } else if (!before && !kind.equals("skip")) {
        kind = "load-" + kind;
      }
      stats.add(line, hash, kind.startsWith("load-") ? kind.substring(5) : kind);
      if (!started) {
        started = true;
        originNanos = clock.nanoTime();
        originTime = line.time;
      }
      long size = kind.endsWith("scan") ? line.valueSize : line.valueSize > 0 ? line.valueSize : defaultValueSize;
      return new Op(kind, padded ? pad(line.key, line.keySize) : line.key, size, line.time);
    }
  }

  /** What a trace operation becomes: read, write, delete, scan or skip. */
  static String kind(String op) {
    switch (op) {
      case "get": case "gets": case "read":
        return "read";
      case "set": case "add": case "replace": case "cas": case "append": case "prepend": case "put":
      case "insert": case "update": case "incr": case "decr":
        return "write";
      case "delete":
        return "delete";
      case "scan":
        return "scan";
      default:
        return "skip";
    }
  }

  /**
   * The padded key: the trace key, a newline, and filler up to {@code size} chars. A trace key never holds a
   * newline (one line, one operation), so the part before the first newline gives the trace key back: two
   * trace keys never share an engine key.
   */
  static String pad(String key, long size) {
    if (size <= key.length() + 1) {
      return key;
    }
    StringBuilder sb = new StringBuilder((int) Math.min(size, 1 << 16)).append(key).append('\n');
    while (sb.length() < size && sb.length() < 1 << 16) {
      sb.append('.');
    }
    return sb.toString();
  }

  private HashMap<String, ByteIterator> value(long size) {
    HashMap<String, ByteIterator> v = new HashMap<>(2);
    v.put(field, new RandomByteIterator(Math.max(1, Math.min(size, MAX_VALUE_SIZE))));
    return v;
  }

  @Override
  public void cleanup() throws WorkloadException {
    String line;
    synchronized (lock) {
      long keys = stats.distinctKeys();
      String extra = String.format(Locale.ROOT, "loaded=%d, replayed=%d, updates_inserted=%d, seen_filter_fp~=%.4f",
          loaded.get(), replayed.get(), updatesInserted.get(), seen == null ? 0.0 : seen.falsePositiveRate(keys));
      line = stats.describe(phase, trace == null ? "none" : trace.format(),
          trace == null ? 0 : trace.malformed(), extra);
      try {
        if (trace != null) {
          trace.close();
        }
      } catch (IOException e) {
        System.err.println("[trace] closing the trace: " + e);
      }
    }
    System.err.println(line);
  }
}
