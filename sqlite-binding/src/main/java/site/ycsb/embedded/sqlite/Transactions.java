package site.ycsb.embedded.sqlite;

import site.ycsb.Status;
import site.ycsb.embedded.WriteGroup;

/**
 * SQLite's write grouping: every write (insert, update, delete), not only inserts, runs at once in
 * the client's open transaction, which commits every {@code batchsize} writes (see
 * {@link Session#write}); a read-merge-write update is a transaction of its own even with batch size 1.
 */
final class Transactions implements WriteGroup {

  private final Session session;
  private final int batchSize;

  Transactions(Session session, int batchSize) {
    this.session = session;
    this.batchSize = batchSize;
  }

  @Override
  public Status write(Kind kind, byte[] key, byte[] value, Write write) throws Exception {
    return session.write(batchSize, kind == Kind.UPDATE, write);
  }

  /** Commits the open transaction. */
  @Override
  public void flush() throws Exception {
    session.lock();
    try {
      session.commitPending();
    } finally {
      session.unlock();
    }
  }
}
