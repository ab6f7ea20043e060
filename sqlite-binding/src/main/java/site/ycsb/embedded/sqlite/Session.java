package site.ycsb.embedded.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

import site.ycsb.Status;
import site.ycsb.embedded.WriteGroup;

/**
 * One SQLite connection with its prepared statements and its write transaction.
 *
 * <p>A client thread owns its session (locking_mode=NORMAL), or every client thread shares the
 * one session of the database (EXCLUSIVE); either way a client holds {@link #lock()} for the
 * whole of one YCSB operation, so that the statements of one operation never interleave with
 * another's on the same connection.
 *
 * <p>Statements are prepared on first use and kept, keyed by their SQL text, until the session
 * closes. Writes are grouped: with a batch size above 1 the session keeps a transaction open
 * ({@code BEGIN IMMEDIATE}, so it holds the write lock from the start and never has to upgrade
 * a read snapshot) and commits it every batch-size writes and at {@link #commitPending()}.
 */
final class Session {

  /** Statements kept per connection; YCSB uses a handful, a pathological field mix evicts the oldest. */
  private static final int MAX_STATEMENTS = 256;

  private final SqliteHandle store;
  private final Connection connection;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, PreparedStatement> statements = new LinkedHashMap<>(32, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
      if (size() <= MAX_STATEMENTS) {
        return false;
      }
      closeQuietly(eldest.getValue(), eldest.getKey());
      return true;
    }
  };
  private boolean inTransaction;
  /** Writes in the open transaction. */
  private int pending;
  private boolean closed;

  Session(SqliteHandle store, Connection connection) {
    this.store = store;
    this.connection = connection;
  }

  SqliteHandle store() {
    return store;
  }

  Schema schema() {
    return store.schema();
  }

  void lock() {
    lock.lock();
  }

  void unlock() {
    lock.unlock();
  }

  /** The statement for {@code sql}, prepared on this connection the first time it is asked for. */
  PreparedStatement prepared(String sql) throws SQLException {
    PreparedStatement ps = statements.get(sql);
    if (ps == null) {
      if (closed) {
        throw new SQLException("SQLite session used after it was closed");
      }
      ps = connection.prepareStatement(sql);
      statements.put(sql, ps);
    }
    return ps;
  }

  /** Runs a query; a table locked by a shared-cache neighbour is waited for (see {@link SqliteHandle#backOff}). */
  ResultSet query(PreparedStatement ps) throws SQLException {
    for (int attempt = 0; ; attempt++) {
      try {
        return ps.executeQuery();
      } catch (SQLException e) {
        store.backOff(e, attempt);
      }
    }
  }

  /** Runs a write statement and returns the rows it changed; waits like {@link #query}. */
  int update(PreparedStatement ps) throws SQLException {
    for (int attempt = 0; ; attempt++) {
      try {
        return ps.executeUpdate();
      } catch (SQLException e) {
        store.backOff(e, attempt);
      }
    }
  }

  /**
   * Runs one write under this session's lock and inside the write transaction: begins it when
   * needed, ends it at the batch boundary, rolls it back (saying what is lost) on failure.
   *
   * @param severalStatements the write reads before it writes and must be atomic on its own
   */
  Status write(int batchSize, boolean severalStatements, WriteGroup.Write work) throws Exception {
    lock();
    try {
      beginWrite(batchSize, severalStatements);
      return endWrite(work.run(), batchSize);
    } catch (Exception e) {
      abortWrite(e);
      throw e;
    } finally {
      unlock();
    }
  }

  /**
   * Starts one write: opens the transaction when writes are grouped ({@code batchSize > 1}) or
   * when this write takes several statements (a read-merge-write update) and must be atomic.
   * A single-statement write with batch size 1 runs in SQLite's own autocommit transaction.
   */
  void beginWrite(int batchSize, boolean severalStatements) throws SQLException {
    if (!inTransaction && (batchSize > 1 || severalStatements)) {
      begin();
    }
  }

  /** Opens a transaction that holds the write lock from its start. */
  void begin() throws SQLException {
    update(prepared("BEGIN IMMEDIATE"));
    inTransaction = true;
    pending = 0;
  }

  /**
   * Ends a write that ran: counts it and commits at the batch boundary. Returns what YCSB sees:
   * OK once the write is committed, BATCHED_OK while it waits in the open transaction, and
   * NOT_FOUND (or any other status) as it came.
   */
  Status endWrite(Status status, int batchSize) throws SQLException {
    if (!inTransaction) {
      return status;
    }
    if (status == Status.OK) {
      pending++;
    }
    if (pending >= batchSize || batchSize == 1) {
      commit();
      return status;
    }
    return status == Status.OK ? Status.BATCHED_OK : status;
  }

  /**
   * After a write failed: rolls back the open transaction, saying how many earlier writes that
   * answered BATCHED_OK it takes with it (a batch is atomic: all or nothing).
   */
  void abortWrite(Exception cause) {
    if (!inTransaction) {
      return;
    }
    int lost = pending;
    inTransaction = false;
    pending = 0;
    try {
      update(prepared("ROLLBACK"));
    } catch (SQLException e) {
      // SQLite rolls back by itself after some errors; then there is nothing left to roll back.
      cause.addSuppressed(e);
    }
    if (lost > 0) {
      System.err.printf("[sqlite] a transaction was rolled back after an error (%s): %d earlier writes that"
          + " answered BATCHED_OK are lost with it%n", cause, lost);
    }
  }

  /** Commits the open transaction, if any (a client's cleanup, the database's close). */
  void commitPending() throws SQLException {
    if (inTransaction) {
      try {
        commit();
      } catch (SQLException e) {
        int lost = pending;
        abortWrite(e);
        throw new SQLException("the last transaction (" + lost + " writes) could not be committed: "
            + e.getMessage(), e);
      }
    }
  }

  /** Writes in the open transaction (for tests). */
  int pendingWrites() {
    return pending;
  }

  void commit() throws SQLException {
    update(prepared("COMMIT"));
    inTransaction = false;
    pending = 0;
  }

  /**
   * Runs {@code PRAGMA <text>} on this connection and returns the first column of its first row,
   * or null when it returns none: {@code pragma("journal_mode")}, {@code pragma("cache_size = -4096")}.
   */
  public String pragma(String text) throws SQLException {
    lock();
    try (Statement st = connection.createStatement()) {
      if (!st.execute("PRAGMA " + text)) {
        return null;
      }
      try (ResultSet rs = st.getResultSet()) {
        return rs.next() ? rs.getString(1) : null;
      }
    } finally {
      unlock();
    }
  }

  /** The first column of the first row of {@code sql} with {@code args} bound as strings, or null. */
  String queryString(String sql, String... args) throws SQLException {
    lock();
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    } finally {
      unlock();
    }
  }

  /** Runs one statement that returns nothing (schema set-up). */
  void execute(String sql) throws SQLException {
    lock();
    try (Statement st = connection.createStatement()) {
      st.execute(sql);
    } finally {
      unlock();
    }
  }

  /** The JDBC connection (for tests that check it was closed). */
  Connection connection() {
    return connection;
  }

  boolean isClosed() {
    return closed;
  }

  /**
   * Rolls back what was never committed, closes every statement and then the connection, once.
   * A second call does nothing.
   */
  void close() throws SQLException {
    lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (inTransaction) {
        abortWrite(new SQLException("session closed with an open transaction"));
      }
      List<PreparedStatement> all = new ArrayList<>(statements.values());
      statements.clear();
      SQLException first = null;
      for (PreparedStatement ps : all) {
        try {
          ps.close();
        } catch (SQLException e) {
          first = first == null ? e : first;
        }
      }
      try {
        connection.close();
      } catch (SQLException e) {
        first = first == null ? e : first;
      }
      store.forget(this);
      if (first != null) {
        throw first;
      }
    } finally {
      unlock();
    }
  }

  private static void closeQuietly(PreparedStatement ps, String sql) {
    try {
      ps.close();
    } catch (SQLException e) {
      System.err.printf("[sqlite] closing the statement %s failed: %s%n", sql, e);
    }
  }
}
