package site.ycsb.embedded.harness;

import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import site.ycsb.DB;
import site.ycsb.Workload;
import site.ycsb.embedded.Warmup;
import site.ycsb.measurements.Measurements;

/**
 * The driver's classes, given to the warm-up ({@link Warmup#measuredBy}): each scratch DB wrapped in the
 * {@link MeasuredDB} the measured steps wrap theirs in, and run by the {@link ClientLoop} their client threads run.
 * The workload's call sites and the loop are then compiled for the very classes the clock will see.
 */
final class WarmupClasses implements Warmup.Wrapper {

  @Override
  public DB wrap(DB db, Measurements m, AtomicLong errors, Workload workload) {
    return MeasuredDB.forWarmup(db, m, errors, workload);
  }

  @Override
  public Warmup.Client client(DB db, boolean transactions, Workload workload, Properties p, int ops, int id,
      int count, CountDownLatch done) {
    ClientLoop.Gate open = new ClientLoop.Gate(1);
    open.go(true);
    ClientLoop loop = new ClientLoop(db, transactions, workload, p, ops, -1, null, null, id, count, open, done);
    return new Warmup.Client() {
      @Override
      public void run() {
        loop.run();
      }

      @Override
      public int opsDone() {
        return loop.opsDone();
      }
    };
  }
}
