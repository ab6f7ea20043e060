package site.ycsb.embedded;

import site.ycsb.Status;

/**
 * The write-grouping hook of {@link KeyValueDB}: how one client's inserts, updates and deletes reach the
 * engine. The default, {@link WriteBatcher}, applies {@code batchsize} inserts at a time as one atomic
 * batch and runs every other write at once, after them; an engine with transactions (SQLite) runs every
 * write at once inside a transaction that it commits every {@code batchsize} writes.
 */
public interface WriteGroup {

  /** What a write does, so that the group knows what it must keep apart. */
  enum Kind {
    /** Stores a new record. */
    INSERT,
    /** Reads the stored record, merges the fields into it and writes it back. */
    UPDATE,
    /** Overwrites the record without reading it (a blind update). */
    OVERWRITE,
    /** Removes the record. */
    DELETE
  }

  /** One write's engine calls; returns its status (NOT_FOUND when there was no record). */
  @FunctionalInterface
  interface Write {
    Status run() throws Exception;
  }

  /**
   * Runs one write of this client, or keeps it for its group.
   *
   * @param key the record's key
   * @param value the encoded record of an insert or overwrite (what a batch of puts needs), else null
   * @param write the engine calls that apply the write on its own
   * @return the write's status: OK once it is applied, BATCHED_OK while it waits for its group
   */
  Status write(Kind kind, byte[] key, byte[] value, Write write) throws Exception;

  /**
   * Whether a write of this kind may still wait in the group after {@link #write} returned (BATCHED_OK), holding
   * its key, its value or its {@code Write}: then KeyValueDB gives it arrays and a {@code Write} of its own, not the
   * ones its client reuses for the next operation. False by default: every write runs before write returns.
   */
  default boolean keeps(Kind kind) {
    return false;
  }

  /** Applies whatever waits; {@link KeyValueDB#cleanup()} calls it before the client leaves. */
  void flush() throws Exception;
}
