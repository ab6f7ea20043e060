package site.ycsb.embedded;

import java.util.List;
import java.util.concurrent.TimeUnit;

import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A do-nothing DB ({@link NothingDB}) that stalls on a schedule: every {@value #EVERY}-th operation of each client
 * thread sleeps {@value #MILLIS} ms before it returns OK. A stall on a known schedule is what the tests of latency
 * at a fixed rate measure: at a rate, the operations scheduled during a stall start late, which the latency from
 * each operation's intended start shows and the service time (from its actual start) does not.
 */
public class StallingDB extends NothingDB {

  /** Every how many operations of a client thread one stalls (0: never). */
  public static final String EVERY = "stallingdb.every";
  /** How long a stall sleeps, in milliseconds. */
  public static final String MILLIS = "stallingdb.millis";
  /** The properties this class reads (for the launcher's check of property names). */
  public static final List<String> PROPERTIES = List.of(EVERY, MILLIS);

  private long every;
  private long millis;
  private long operations;

  @Override
  public void init() throws DBException {
    every = whole(EVERY, "0");
    millis = whole(MILLIS, "20");
  }

  private long whole(String name, String fallback) throws DBException {
    String value = getProperties().getProperty(name, fallback).trim();
    try {
      long n = Long.parseLong(value);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new DBException(EngineProperties.refusal(name, value, "a whole number from 0"));
  }

  @Override
  protected Status nothing() {
    if (every > 0 && ++operations % every == 0) {
      try {
        TimeUnit.MILLISECONDS.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Status.ERROR;
      }
    }
    return Status.OK;
  }
}
