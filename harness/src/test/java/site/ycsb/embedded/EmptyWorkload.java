package site.ycsb.embedded;

import site.ycsb.DB;
import site.ycsb.workloads.CoreWorkload;

/** CoreWorkload that gives no operation, as a trace with no key to load does (for the warm-up's test). */
public class EmptyWorkload extends CoreWorkload {

  @Override
  public boolean doInsert(DB db, Object threadstate) {
    return false;
  }

  @Override
  public boolean doTransaction(DB db, Object threadstate) {
    return false;
  }
}
