package site.ycsb.embedded;

/**
 * Collects one client thread's inserts and applies them atomically, {@code batchSize} at a time.
 *
 * <p>{@link #add} returns false while the insert only waits in the batch (the binding answers
 * {@code Status.BATCHED_OK}) and true once the batch it completed has been applied. What is left
 * is applied by {@link #flush()}, which a binding calls from {@code cleanup()} and before any
 * update or delete, so that writes reach the engine in the order they were made.
 */
public final class WriteBatcher {

  /** Applies {@code count} puts as one atomic unit (a WriteBatch, a transaction). */
  @FunctionalInterface
  public interface Applier {
    void apply(byte[][] keys, byte[][] values, int count) throws Exception;
  }

  private final Applier applier;
  private final byte[][] keys;
  private final byte[][] values;
  private int count;

  public WriteBatcher(int batchSize, Applier applier) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be at least 1, got " + batchSize);
    }
    this.applier = applier;
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

  /** Applies whatever is waiting; does nothing when the batch is empty. */
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
