package site.ycsb.embedded.workload;

import java.util.Collection;
import java.util.HashMap;
import java.util.Vector;

import site.ycsb.ByteIterator;

/**
 * A scan result that counts the rows a binding adds and keeps none of them, so that one scan can
 * walk a whole database (db_bench's readseq) in constant memory through the ordinary
 * {@code DB.scan} of any binding (EmbeddedWorkload's full pass, the benchmarks' binding side).
 *
 * <p>{@link #rows()} counts the records the scan returned; {@link #bytes()} the bytes of the values of
 * the fields the scan asked for (all fields when null), names and lengths not included: in the bare
 * layout, the stored value bytes. A binding that knows the sink may count each row through
 * {@link #addRow} instead of building it ({@code KeyValueDB.scan} does); both ways count the same.
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

  /** Counts one row whose requested field values hold {@code valueBytes} bytes, without building it. */
  public void addRow(long valueBytes) {
    rows++;
    bytes += valueBytes;
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
