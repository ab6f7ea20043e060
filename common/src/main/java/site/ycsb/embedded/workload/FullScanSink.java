package site.ycsb.embedded.workload;

import java.util.Collection;
import java.util.HashMap;
import java.util.Vector;

import site.ycsb.ByteIterator;

/**
 * A scan result that counts the rows a binding adds and keeps none of them, so that one scan can
 * walk a whole database (db_bench's readseq) in constant memory through the ordinary
 * {@code DB.scan} of any binding (EmbeddedWorkload's full pass, the benchmarks' binding side).
 */
public final class FullScanSink extends Vector<HashMap<String, ByteIterator>> {
  private static final long serialVersionUID = 1L;

  private long rows;
  private long bytes;

  /** Rows added so far. */
  public long rows() {
    return rows;
  }

  /** Value bytes of the rows added so far. */
  public long bytes() {
    return bytes;
  }

  @Override
  public boolean add(HashMap<String, ByteIterator> row) {
    rows++;
    for (ByteIterator v : row.values()) {
      bytes += v.bytesLeft();
    }
    return true;
  }

  @Override
  public void addElement(HashMap<String, ByteIterator> row) {
    add(row);
  }

  @Override
  public void add(int index, HashMap<String, ByteIterator> row) {
    add(row);
  }

  @Override
  public boolean addAll(Collection<? extends HashMap<String, ByteIterator>> rows) {
    for (HashMap<String, ByteIterator> row : rows) {
      add(row);
    }
    return true;
  }
}
