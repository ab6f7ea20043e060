package site.ycsb.embedded.workload;

import java.util.concurrent.locks.LockSupport;

/** The time source of a workload that paces itself (trace replay, the mixgraph sine rate); tests replace it. */
interface PaceClock {

  long nanoTime();

  /** Returns once {@link #nanoTime()} has reached {@code nanos}. */
  void sleepUntil(long nanos);

  PaceClock SYSTEM = new PaceClock() {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public void sleepUntil(long nanos) {
      long left;
      while ((left = nanos - System.nanoTime()) > 0) {
        LockSupport.parkNanos(left);
      }
    }
  };
}
