package site.ycsb.embedded.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import site.ycsb.Utils;
import site.ycsb.measurements.Measurements;

/**
 * A step's progress, on one thread: YCSB's status line (with {@code -s}, every {@code status.interval} seconds on
 * stderr, in YCSB 0.17's format, which the analysis and users' scripts parse) and the step's rate in finer
 * intervals ({@value #INTERVAL_MILLIS} ms by default, {@code intervals.millis}), written as
 * {@code elapsed milliseconds, operations so far} lines to {@code intervals.file} when it is set. The finer
 * record is what the report's steady check reads: YCSB's status line cannot show steadiness finer than a second.
 */
final class Progress extends Thread {

  /** Where the interval records go; none when unset. */
  static final String FILE = "intervals.file";
  /** The interval in milliseconds. */
  static final String MILLIS = "intervals.millis";
  static final long INTERVAL_MILLIS = 100;
  /** No deadline: a record that was not asked for ({@link #awaitNext}). */
  private static final long NONE = Long.MAX_VALUE;

  private final List<ClientLoop> clients;
  private final CountDownLatch done;
  private final Measurements measurements;
  private final boolean status;
  private final boolean standardStatus;
  private final long statusNanos;
  private final String label;
  private final boolean trackJvm;
  private final Path intervalFile;
  private final long intervalNanos;
  private final PrintStream err;
  private final PrintStream out;
  private final StringBuilder intervals = new StringBuilder();
  private int maxThreads = Integer.MIN_VALUE;
  private int minThreads = Integer.MAX_VALUE;
  private long maxUsedMem = Long.MIN_VALUE;
  private long minUsedMem = Long.MAX_VALUE;
  private double maxLoadAvg = -Double.MAX_VALUE;
  private double minLoadAvg = Double.MAX_VALUE;

  Progress(List<ClientLoop> clients, CountDownLatch done, Measurements measurements, java.util.Properties p,
      boolean status) {
    super("ycsb-embedded-progress");
    setDaemon(true);
    this.clients = clients;
    this.done = done;
    this.measurements = measurements;
    this.status = status;
    this.standardStatus = p.getProperty(Measurements.MEASUREMENT_TYPE_PROPERTY, "").equals("timeseries");
    this.statusNanos = TimeUnit.SECONDS.toNanos(Integer.parseInt(p.getProperty("status.interval", "10")));
    this.label = p.getProperty("label", "");
    this.trackJvm = status && p.getProperty(Measurements.MEASUREMENT_TRACK_JVM_PROPERTY,
        Measurements.MEASUREMENT_TRACK_JVM_PROPERTY_DEFAULT).equals("true");
    String file = p.getProperty(FILE);
    this.intervalFile = file == null || file.isBlank() ? null : Path.of(file);
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(p.getProperty(MILLIS,
        Long.toString(INTERVAL_MILLIS)).trim()));
    this.err = System.err;
    this.out = System.out;
  }

  boolean tracksJvm() {
    return trackJvm;
  }

  @Override
  public void run() {
    long startMs = System.currentTimeMillis();
    long startNs = System.nanoTime();
    long nextStatus = startNs + statusNanos;
    long nextInterval = startNs + intervalNanos;
    long lastMs = startMs;
    long lastOps = 0;
    if (status) {
      lastOps = statusLine(startMs, lastMs, System.currentTimeMillis(), lastOps);
      measureJvm();
    }
    boolean finished = false;
    while (!finished) {
      try {
        finished = awaitNext(status ? nextStatus : NONE, intervalFile != null ? nextInterval : NONE);
      } catch (InterruptedException e) {
        finished = true;
      }
      long now = System.nanoTime();
      if (intervalFile != null && (finished || now - nextInterval >= 0)) {
        intervals.append((now - startNs) / 1_000_000).append(',').append(totalOps()).append('\n');
        while (now - nextInterval >= 0) {
          nextInterval += intervalNanos;
        }
      }
      if (status && (finished || now - nextStatus >= 0)) {
        long nowMs = System.currentTimeMillis();
        lastOps = statusLine(startMs, lastMs, nowMs, lastOps);
        measureJvm();
        lastMs = nowMs;
        nextStatus += statusNanos;
      }
    }
  }

  /**
   * Waits until the step is done or the earlier of two deadlines (System.nanoTime, or {@link #NONE}): true when
   * done. Without a deadline it waits for the end alone. Only the deadlines of records asked for count: without -s
   * nothing moves the status line's deadline on, and a wait for it once it passed would return at once, a busy loop
   * taking a core from the client threads for the rest of any step longer than status.interval.
   */
  private boolean awaitNext(long statusAt, long intervalAt) throws InterruptedException {
    if (statusAt == NONE && intervalAt == NONE) {
      done.await();
      return true;
    }
    long next = statusAt == NONE ? intervalAt : intervalAt == NONE ? statusAt : Math.min(statusAt, intervalAt);
    return done.await(Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS);
  }

  /** Writes the interval records; nothing when none was asked. */
  void writeIntervals() throws IOException {
    if (intervalFile == null) {
      return;
    }
    try (Writer w = Files.newBufferedWriter(intervalFile, StandardCharsets.UTF_8)) {
      w.write("# elapsed_ms,operations (every " + intervalNanos / 1_000_000 + " ms of the measured step)\n");
      w.write(intervals.toString());
    }
  }

  private long totalOps() {
    long total = 0;
    for (ClientLoop c : clients) {
      total += c.opsDone();
    }
    return total;
  }

  /** YCSB 0.17's status line, to stderr (and stdout for measurementtype=timeseries); returns the ops so far. */
  private long statusLine(long startMs, long intervalStartMs, long endMs, long lastTotal) {
    long total = 0;
    long todo = 0;
    for (ClientLoop c : clients) {
      total += c.opsDone();
      todo += c.opsTodo();
    }
    long interval = endMs - startMs;
    double throughput = 1000.0 * ((double) total / (double) interval);
    double current = 1000.0 * ((double) (total - lastTotal) / (double) (endMs - intervalStartMs));
    long remaining = (long) Math.ceil(todo / throughput);
    DecimalFormat d = new DecimalFormat("#.##");
    StringBuilder msg = new StringBuilder(label + new SimpleDateFormat("yyyy-MM-dd HH:mm:ss:SSS").format(new Date()))
        .append(' ').append(interval / 1000).append(" sec: ").append(total).append(" operations; ");
    if (total != 0) {
      msg.append(d.format(current)).append(" current ops/sec; ");
    }
    if (todo != 0) {
      msg.append("est completion in ").append(remaining(remaining));
    }
    msg.append(measurements.getSummary());
    err.println(msg);
    if (standardStatus) {
      out.println(msg);
    }
    return total;
  }

  /** YCSB's wording of the time left (days and hours, minutes under a day, seconds under a minute). */
  static String remaining(long seconds) {
    StringBuilder time = new StringBuilder();
    long days = TimeUnit.SECONDS.toDays(seconds);
    if (days > 0) {
      time.append(days).append(days == 1 ? " day " : " days ");
      seconds -= TimeUnit.DAYS.toSeconds(days);
    }
    long hours = TimeUnit.SECONDS.toHours(seconds);
    if (hours > 0) {
      time.append(hours).append(hours == 1 ? " hour " : " hours ");
      seconds -= TimeUnit.HOURS.toSeconds(hours);
    }
    if (days < 1) {
      long minutes = TimeUnit.SECONDS.toMinutes(seconds);
      if (minutes > 0) {
        time.append(minutes).append(minutes == 1 ? " minute " : " minutes ");
        seconds = -1; // as YCSB 0.17: once minutes are said, no seconds follow
      }
    }
    if (time.length() == 0) { // YCSB 0.17 says "second" after a one-digit count, "seconds" after more
      time.append(seconds);
      time.append(time.length() == 1 ? " second " : " seconds ");
    }
    return time.toString();
  }

  private void measureJvm() {
    if (!trackJvm) {
      return;
    }
    int threads = Utils.getActiveThreadCount();
    maxThreads = Math.max(maxThreads, threads);
    minThreads = Math.min(minThreads, threads);
    long used = Utils.getUsedMemoryMegaBytes();
    maxUsedMem = Math.max(maxUsedMem, used);
    minUsedMem = Math.min(minUsedMem, used);
    double load = Utils.getSystemLoadAverage();
    maxLoadAvg = Math.max(maxLoadAvg, load);
    minLoadAvg = Math.min(minLoadAvg, load);
  }

  long maxUsedMem() {
    return maxUsedMem;
  }

  long minUsedMem() {
    return minUsedMem;
  }

  int maxThreads() {
    return maxThreads;
  }

  int minThreads() {
    return minThreads;
  }

  double maxLoadAvg() {
    return maxLoadAvg;
  }

  double minLoadAvg() {
    return minLoadAvg;
  }
}
