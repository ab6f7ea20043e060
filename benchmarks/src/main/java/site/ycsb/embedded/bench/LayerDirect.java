package site.ycsb.embedded.bench;

/** Layer (b) of the layered benchmark: an engine's Java library called directly, batches too. */
public interface LayerDirect extends BindingOverhead.Direct {

  /** Applies {@code count} entries from {@code from} on as one atomic unit. */
  void putBatch(byte[][] keys, byte[][] values, int from, int count) throws Exception;
}
