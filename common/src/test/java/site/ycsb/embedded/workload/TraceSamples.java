package site.ycsb.embedded.workload;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.WorkloadException;

/** A small synthetic trace and what it must become, shared by the workload's tests and every engine's contract. */
public final class TraceSamples {

  private TraceSamples() {
  }

  /** Ten requests in the Twitter traces' column order: timestamp,key,key size,value size,client,op,TTL. */
  public static final String TWITTER_TEN = String.join("\n",
      "0,nz:u:a1,20,100,7,get,0",
      "0,nz:u:b2,20,200,7,set,3600",
      "1,nz:u:a1,20,110,7,set,3600",
      "1,nz:u:b2,20,200,9,gets,0",
      "2,nz:u:c3,21,0,9,delete,0",
      "3,nz:u:d4,22,8,7,incr,0",
      "4,nz:u:b2,20,50,7,append,0",
      "5,nz:u:e5,20,300,7,add,600",
      "6,nz:u:a1,20,110,9,get,0",
      "9,nz:u:e5,20,40,7,replace,0") + "\n";

  /** What the load of those ten lines inserts: the keys read or deleted before any write (a1 and c3). */
  public static final List<String> TWITTER_TEN_LOAD = List.of("INSERT nz:u:a1 100", "INSERT nz:u:c3 100");

  /** What those ten lines become after that load, in order (writes with the value size they write). */
  public static final List<String> TWITTER_TEN_OPS = List.of(
      "READ nz:u:a1",
      "INSERT nz:u:b2 200",
      "UPDATE nz:u:a1 110",
      "READ nz:u:b2",
      "DELETE nz:u:c3",
      "INSERT nz:u:d4 8",
      "UPDATE nz:u:b2 50",
      "INSERT nz:u:e5 300",
      "READ nz:u:a1",
      "UPDATE nz:u:e5 40");

  /** The value size each key holds after the load and the ten operations; c3 was deleted. */
  public static final Map<String, Integer> TWITTER_TEN_STORED = Map.of(
      "nz:u:a1", 110, "nz:u:b2", 50, "nz:u:d4", 8, "nz:u:e5", 40);

  /** Runs {@code w}'s load phase on one thread to its end on {@code db}, then cleans {@code w} up. */
  public static void loadAll(TraceWorkload w, DB db) throws WorkloadException {
    while (w.doInsert(db, null)) {
      continue;
    }
    w.cleanup();
  }

  /** Replays {@code w}'s trace on one thread to its end on {@code db}, then cleans {@code w} up. */
  public static void replayAll(TraceWorkload w, DB db) throws WorkloadException {
    while (w.doTransaction(db, null)) {
      continue;
    }
    w.cleanup();
  }

  /**
   * {@code inner} with every call written to {@code log} in the form of {@link #TWITTER_TEN_OPS}, and every
   * status it returned to {@code statuses}.
   */
  public static DB logging(DB inner, List<String> log, List<Status> statuses) {
    return new DB() {
      @Override
      public Status read(String t, String key, Set<String> f, Map<String, ByteIterator> r) {
        log.add("READ " + key);
        return note(inner.read(t, key, f, r));
      }

      @Override
      public Status scan(String t, String start, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
        log.add("SCAN " + start + " " + n);
        return note(inner.scan(t, start, n, f, r));
      }

      @Override
      public Status update(String t, String key, Map<String, ByteIterator> v) {
        log.add("UPDATE " + key + " " + size(v));
        return note(inner.update(t, key, v));
      }

      @Override
      public Status insert(String t, String key, Map<String, ByteIterator> v) {
        log.add("INSERT " + key + " " + size(v));
        return note(inner.insert(t, key, v));
      }

      @Override
      public Status delete(String t, String key) {
        log.add("DELETE " + key);
        return note(inner.delete(t, key));
      }

      private Status note(Status s) {
        statuses.add(s);
        return s;
      }
    };
  }

  /** The size of the one value a trace write carries (a map of one field). */
  public static long size(Map<String, ByteIterator> v) {
    if (v.size() != 1) {
      throw new AssertionError("a trace write carries one field, got " + v.keySet());
    }
    return v.values().iterator().next().bytesLeft();
  }
}
