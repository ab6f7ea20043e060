package site.ycsb.embedded.harness;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;

/**
 * One client thread of a step, as YCSB 0.17's {@code ClientThread} runs it: the thread's share of the operations
 * through the workload ({@code doInsert} in a load, {@code doTransaction} in a run) until its count, the workload's
 * stop request or the workload's end, then the DB's cleanup; with {@code -target}, each operation waits for its
 * tick and the tick is its intended start (late operations are issued at once, keeping the schedule). One
 * difference: the DB opens and the thread's workload state is made before the step's clock starts ({@link #open}),
 * and the loop starts when the driver opens the gate, so that a refused open refuses the step before anything is
 * measured and the warm-up runs after the refusals.
 */
final class ClientLoop implements Runnable {

  private static final VarHandle DONE;
  /** The JVM's per-thread allocation counter (HotSpot's: {@code com.sun.management}). */
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  static {
    try {
      DONE = MethodHandles.lookup().findVarHandle(ClientLoop.class, "opsdone", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final DB db;
  private final boolean transactions;
  private final Workload workload;
  private final Properties props;
  private final int opcount;
  private final double targetOpsPerMs;
  private final long targetOpsTickNs;
  private final boolean spinSleep;
  private final Measurements measurements;
  /** YCSB's singleton, which CoreWorkload's read-modify-write measures into: told the intended start too. */
  private final Measurements workloadMeasurements;
  private final int threadId;
  private final int threadCount;
  private final Gate gate;
  private final CountDownLatch done;
  /** Written with an opaque store by this thread alone, read by the status and interval threads. */
  @SuppressWarnings("unused")
  private int opsdone;
  private Object state;
  /** The bytes this thread allocated in its loop (the operations alone), or -1 when unknown. */
  private volatile long allocated = -1;
  /** Why the open or the thread's workload state failed, or null. */
  private volatile Exception refused;
  /** What the workload or the DB threw out of an operation, or null: the step fails with it. */
  private volatile Throwable failure;

  /** Opens before the clock, then waits for the gate; see the class comment. */
  static final class Gate {
    final CountDownLatch opened;
    final CountDownLatch start = new CountDownLatch(1);
    volatile boolean abort;

    Gate(int threads) {
      opened = new CountDownLatch(threads);
    }

    void go(boolean run) {
      abort = !run;
      start.countDown();
    }
  }

  ClientLoop(DB db, boolean transactions, Workload workload, Properties props, int opcount, double targetPerThreadPerMs,
      Measurements measurements, Measurements workloadMeasurements, int threadId, int threadCount, Gate gate,
      CountDownLatch done) {
    this.db = db;
    this.transactions = transactions;
    this.workload = workload;
    this.props = props;
    this.opcount = opcount;
    this.targetOpsPerMs = targetPerThreadPerMs;
    this.targetOpsTickNs = tickNanos(targetPerThreadPerMs);
    this.spinSleep = Boolean.parseBoolean(props.getProperty("spin.sleep", "false"));
    this.measurements = measurements;
    this.workloadMeasurements = workloadMeasurements;
    this.threadId = threadId;
    this.threadCount = threadCount;
    this.gate = gate;
    this.done = done;
  }

  /** The time between a thread's scheduled operations, in nanoseconds, as YCSB's ClientThread computes it; 0: none. */
  static long tickNanos(double targetPerThreadPerMs) {
    return targetPerThreadPerMs > 0 ? (long) (1000000 / targetPerThreadPerMs) : 0;
  }

  int opsDone() {
    return (int) DONE.getOpaque(this);
  }

  /** How many operations are left, as YCSB's status line counts them (0 when the count is unbounded). */
  int opsTodo() {
    int todo = opcount - opsDone();
    return todo < 0 ? 0 : todo;
  }

  Exception refused() {
    return refused;
  }

  /** The bytes this thread allocated in its loop, from its first operation to its last; -1 when not known. */
  long allocatedBytes() {
    return allocated;
  }

  Throwable failure() {
    return failure;
  }

  @Override
  public void run() {
    boolean open = open();
    gate.opened.countDown();
    try {
      gate.start.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      gate.abort = true;
    }
    try {
      if (open && !gate.abort) {
        long before = allocatedSoFar();
        loop();
        long after = allocatedSoFar();
        allocated = before < 0 || after < 0 ? -1 : after - before;
      }
    } catch (RuntimeException | Error e) { // YCSB's thread exits the JVM with status 0 here
      failure = e;
      e.printStackTrace();
      e.printStackTrace(System.out);
    } finally {
      try {
        if (open) {
          if (measurements != null) { // null in the warm-up, which never throttles
            measurements.setIntendedStartTimeNs(0);
          }
          db.cleanup();
        }
      } catch (DBException e) {
        e.printStackTrace();
        e.printStackTrace(System.out);
      } finally {
        done.countDown();
      }
    }
  }

  /** This thread's allocated bytes since it started, or -1 when the JVM does not count them. */
  private static long allocatedSoFar() {
    return THREADS.isThreadAllocatedMemorySupported() && THREADS.isThreadAllocatedMemoryEnabled()
        ? THREADS.getCurrentThreadAllocatedBytes() : -1;
  }

  private boolean open() {
    // The thread's random probe is set at its first use; set here, the first operation does not take the set-up
    // branch, which code the warm-up compiled on its own threads has never seen (a deoptimisation at the clock).
    ThreadLocalRandom.current();
    try {
      db.init();
    } catch (DBException e) {
      refused = e;
      e.printStackTrace();
      e.printStackTrace(System.out);
      return false;
    }
    try {
      state = workload.initThread(props, threadId, threadCount);
      return true;
    } catch (WorkloadException e) {
      refused = e;
      e.printStackTrace();
      e.printStackTrace(System.out);
      try {
        db.cleanup();
      } catch (DBException closing) {
        e.addSuppressed(closing);
      }
      return false;
    }
  }

  private void loop() {
    if (targetOpsPerMs > 0 && targetOpsPerMs <= 1.0) { // spread the threads' first operations over one tick
      sleepUntil(System.nanoTime() + ThreadLocalRandom.current().nextInt((int) targetOpsTickNs));
    }
    int ops = 0;
    long start = System.nanoTime();
    if (transactions) {
      while ((opcount == 0 || ops < opcount) && !workload.isStopRequested()) {
        if (!workload.doTransaction(db, state)) {
          break;
        }
        DONE.setOpaque(this, ++ops);
        throttle(start, ops);
      }
    } else {
      while ((opcount == 0 || ops < opcount) && !workload.isStopRequested()) {
        if (!workload.doInsert(db, state)) {
          break;
        }
        DONE.setOpaque(this, ++ops);
        throttle(start, ops);
      }
    }
  }

  private void throttle(long start, int ops) {
    if (targetOpsPerMs > 0) {
      long deadline = start + ops * targetOpsTickNs;
      sleepUntil(deadline);
      measurements.setIntendedStartTimeNs(deadline);
      if (workloadMeasurements != null) {
        workloadMeasurements.setIntendedStartTimeNs(deadline);
      }
    }
  }

  private void sleepUntil(long deadline) {
    while (System.nanoTime() < deadline) {
      if (!spinSleep) {
        LockSupport.parkNanos(deadline - System.nanoTime());
      }
    }
  }
}
