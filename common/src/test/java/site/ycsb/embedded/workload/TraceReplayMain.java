package site.ycsb.embedded.workload;

import java.util.Properties;

import site.ycsb.BasicDB;
import site.ycsb.DB;

/**
 * Replays the trace named by args[0] on a DB that does nothing (YCSB's BasicDB, printing nothing), in a JVM of its
 * own (the streaming test).
 */
public final class TraceReplayMain {

  private TraceReplayMain() {
  }

  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    p.setProperty(TraceWorkload.FILE, args[0]);
    p.setProperty(TraceWorkload.FILTER_BYTES, "1m");
    TraceWorkload w = new TraceWorkload();
    w.init(p);
    Properties quiet = new Properties();
    quiet.setProperty("basicdb.verbose", "false");
    DB db = new BasicDB();
    db.setProperties(quiet);
    db.init();
    TraceSamples.replayAll(w, db);
  }
}
