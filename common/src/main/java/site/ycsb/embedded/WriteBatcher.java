package site.ycsb.embedded;

import site.ycsb.Status;

/**
 * The default {@link WriteGroup}: collects one client thread's inserts and applies them atomically,
 * {@code batchSize} at a time; every other write runs at once, after the waiting inserts.
 *
 * <p>{@link #add} returns false while the insert only waits in the batch (the binding answers
 * {@code Status.BATCHED_OK}) and true once the batch it completed has been applied. What is left
 * is applied by {@link #flush()}, which runs at {@code cleanup()} and before any update or delete,
 * so that writes reach the engine in the order they were made.
 */
public final class WriteBatcher implements WriteGroup {

  /** Applies {@code count} puts as one atomic unit (a WriteBatch, a transaction). */
  @FunctionalInterface
  public interface Applier {
    void apply(byte[][] keys, byte[][] values, int count) throws Exception;
  }

  private final Applier applier;
  private final KeyStripes.Writer writer;
  private final byte[][] keys;
  private final byte[][] values;
  private int count;

  /**
   * A write group of the client that joined its handle's stripes as {@code writer}: the stripes keep this
   * client's read-merge-write updates apart from the other clients' writes of the same keys.
   */
  public WriteBatcher(int batchSize, Applier applier, KeyStripes.Writer writer) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be at least 1, got " + batchSize);
    }
    this.applier = applier;
    this.writer = writer;
    this.keys = new byte[batchSize][];
    this.values = new byte[batchSize][];
  }

  public int batchSize() {
    return keys.length;
  }

  /** Inserts not yet applied. */
  public int pending() {
    return count;
  }

  /**
   * Adds one put; applies the batch when it is full.
   *
   * @return true when this call applied the batch, false when the put is waiting in it
   * @throws Exception from the engine; the failed batch is dropped, not retried
   */
  public boolean add(byte[] key, byte[] value) throws Exception {
    keys[count] = key;
    values[count] = value;
    if (++count < keys.length) {
      return false;
    }
    flush();
    return true;
  }

  /**
   * An insert joins the batch (batch size above 1); any other write, and an insert with batch size 1,
   * runs at once after the waiting inserts, holding its key's stripe ({@link KeyStripes}) unless it overwrites
   * without reading.
   */
  @Override
  public Status write(Kind kind, byte[] key, byte[] value, Write write) throws Exception {
    if (kind == Kind.INSERT && keys.length > 1) {
      return add(key, value) ? Status.OK : Status.BATCHED_OK;
    }
    flush();
    if (kind == Kind.OVERWRITE) {
      return write.run();
    }
    return writer.exclusive(key, write);
  }

  /** Inserts wait in the batch when it holds more than one. */
  @Override
  public boolean keeps(Kind kind) {
    return kind == Kind.INSERT && keys.length > 1;
  }

  /** Applies whatever is waiting; does nothing when the batch is empty. */
  @Override
  public void flush() throws Exception {
    if (count == 0) {
      return;
    }
    int n = count;
    count = 0;
    try {
      applier.apply(keys, values, n);
    } finally {
      java.util.Arrays.fill(keys, 0, n, null);
      java.util.Arrays.fill(values, 0, n, null);
    }
  }
}
