package site.ycsb.embedded;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import site.ycsb.Status;

/**
 * Per-key mutual exclusion for the read-merge-write updates of one engine handle: a key maps to one of
 * {@value #STRIPES} stripes, and a client holds its stripe from the update's get to its put, so that no other
 * write of the key comes between them. {@link SharedHandles} keeps one per handle; each client that writes
 * through it {@link #join}s it and gets its {@link Writer}.
 *
 * <p><b>One writer takes no stripe.</b> While a handle has one writer, no other write can come between its get
 * and its put, and its writes run without a stripe: each marks itself as running with one compare-and-set on
 * the writer's own state, which stays in its CPU's cache. When a second writer joins, it moves every writer's
 * state from idle to striped, waiting for a write that runs to end first; a striped writer takes its key's
 * stripe for every write from then on. So the joiner's first write starts after the last write without a
 * stripe has ended. A handle stays striped until it closes. A YCSB run with one client thread thus takes no
 * stripe; with more, every update takes its key's stripe.
 *
 * <p><b>The stripes</b> are one 1 KB int array, so that a write touches one cache line rather than a lock object
 * and its synchronizer somewhere in the heap, lines that the engine's own memory traffic evicts between two
 * writes on a large database: 256 {@code ReentrantLock}s cost 63 ns per update at 2^18 records and 92 ns at
 * 2^22 (docs/performance.md). A stripe is free (0), held (1), or held with threads waiting (2), the classic futex
 * mutex: taking a free stripe is one compare-and-set, giving it back one exchange. A thread that finds its
 * stripe held spins briefly, then waits on the stripe's monitor; the holder notifies it only when the state says
 * someone waits, under that monitor, so no wake-up is lost.
 */
public final class KeyStripes {

  private static final int STRIPE_BITS = 8;
  static final int STRIPES = 1 << STRIPE_BITS;

  /** An odd constant with well-spread bits (2^64 over the golden ratio) for the key's multiplicative hash. */
  private static final long MIX = 0x9E3779B97F4A7C15L;
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(int[].class);
  private static final VarHandle MODE;

  static {
    try {
      MODE = MethodHandles.lookup().findVarHandle(Writer.class, "mode", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Tries before a waiting thread sleeps: a short critical section (one engine get and put) ends within it. */
  private static final int SPINS = 64;

  private static final int FREE = 0;
  private static final int HELD = 1;
  private static final int WAITED_FOR = 2;

  private final int[] state = new int[STRIPES];
  private final Object[] monitors = new Object[STRIPES];
  /** The writers that have joined and not left; guarded by this. */
  private final List<Writer> writers = new ArrayList<>();
  /** Set once a second writer joined; guarded by this. */
  private boolean striped;

  public KeyStripes() {
    for (int i = 0; i < STRIPES; i++) {
      monitors[i] = new Object();
    }
  }

  /**
   * A new writer of this handle. When it is not the only one, every writer takes stripes from now on: this
   * waits for a write that another writer runs without a stripe to end, then marks that writer as striped.
   */
  public synchronized Writer join() {
    Writer w = new Writer(striped ? Writer.STRIPED : Writer.IDLE);
    writers.add(w);
    if (!striped && writers.size() > 1) {
      striped = true;
      for (Writer other : writers) {
        other.stripe();
      }
    }
    return w;
  }

  /** Whether writes take their key's stripe now (for tests). */
  synchronized boolean isStriped() {
    return striped;
  }

  /** One client's writes through the handle. */
  public final class Writer {
    private static final int IDLE = 0;
    private static final int RUNNING = 1;
    private static final int STRIPED = 2;

    /**
     * IDLE, or RUNNING while a write without a stripe runs, both only while the handle has one writer; then
     * STRIPED for good. The writer alone goes from IDLE to RUNNING and back; a joiner alone from IDLE to STRIPED.
     */
    private volatile int mode;
    private boolean left;

    private Writer(int mode) {
      this.mode = mode;
    }

    /** Waits for a write without a stripe to end, and makes every later write of this writer take one. */
    private void stripe() {
      while (mode != STRIPED && !MODE.compareAndSet(this, IDLE, STRIPED)) {
        Thread.onSpinWait();
        Thread.yield();
      }
    }

    /**
     * Runs {@code write}, a read-merge-write or any write that must not come between another's get and put,
     * with no other write of its key running at the same time.
     */
    public Status exclusive(byte[] key, WriteGroup.Write write) throws Exception {
      // The one atomic instruction a lone writer pays: on this writer's own cache line.
      if (mode != STRIPED && MODE.compareAndSet(this, IDLE, RUNNING)) {
        try {
          return write.run();
        } finally {
          MODE.setRelease(this, IDLE); // what the write did is seen by the joiner that reads IDLE
        }
      }
      int stripe = of(key);
      lock(stripe);
      try {
        return write.run();
      } finally {
        unlock(stripe);
      }
    }

    /** This client writes no more (its cleanup); a second call does nothing. */
    public void leave() {
      synchronized (KeyStripes.this) {
        if (!left) {
          left = true;
          writers.remove(this);
        }
      }
    }
  }

  /**
   * The key's stripe: equal keys always share one. The key is mixed eight bytes at a time (the last eight
   * overlapping the ones before when its length is not a multiple of eight) and the stripe is the product's top
   * bits, where a multiplication mixes best: a few multiplications for a YCSB key, where {@code Arrays.hashCode}
   * makes a chain of one per byte (22 of the binding's 323 profile samples on a put, docs/performance.md).
   */
  static int of(byte[] key) {
    int n = key.length;
    long h = n;
    if (n >= Long.BYTES) {
      int i = 0;
      for (; i + Long.BYTES < n; i += Long.BYTES) {
        h = (h ^ (long) LONGS.get(key, i)) * MIX;
      }
      h = (h ^ (long) LONGS.get(key, n - Long.BYTES)) * MIX;
    } else {
      for (int i = 0; i < n; i++) {
        h = (h ^ key[i]) * MIX;
      }
    }
    h = (h ^ (h >>> 29)) * MIX;
    return (int) (h >>> (Long.SIZE - STRIPE_BITS));
  }

  /** Takes the stripe, waiting as long as another thread holds it. Not reentrant. */
  void lock(int stripe) {
    if (!SLOT.compareAndSet(state, stripe, FREE, HELD)) {
      lockContended(stripe);
    }
  }

  private void lockContended(int stripe) {
    for (int i = 0; i < SPINS; i++) {
      Thread.onSpinWait();
      if ((int) SLOT.getVolatile(state, stripe) == FREE && SLOT.compareAndSet(state, stripe, FREE, HELD)) {
        return;
      }
    }
    boolean interrupted = false;
    Object monitor = monitors[stripe];
    synchronized (monitor) {
      // Marking the stripe as waited-for before sleeping makes its holder notify this monitor on unlock;
      // the holder needs the monitor for that, which wait() gives up only once this thread sleeps.
      while ((int) SLOT.getAndSet(state, stripe, WAITED_FOR) != FREE) {
        try {
          monitor.wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Gives the stripe back; the calling thread must hold it. */
  void unlock(int stripe) {
    if ((int) SLOT.getAndSet(state, stripe, FREE) == WAITED_FOR) {
      Object monitor = monitors[stripe];
      synchronized (monitor) {
        monitor.notify();
      }
    }
  }

  /** Whether any thread holds the stripe (for tests). */
  boolean isHeld(int stripe) {
    return (int) SLOT.getVolatile(state, stripe) != FREE;
  }
}
