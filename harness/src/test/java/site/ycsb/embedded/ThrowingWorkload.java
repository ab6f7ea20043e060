package site.ycsb.embedded;

import site.ycsb.DB;
import site.ycsb.workloads.CoreWorkload;

/** CoreWorkload whose transactions throw: YCSB's ClientThread then exits the JVM (for the warm-up's test). */
public class ThrowingWorkload extends CoreWorkload {

  @Override
  public boolean doTransaction(DB db, Object threadstate) {
    throw new IllegalStateException("this workload's transactions throw");
  }
}
