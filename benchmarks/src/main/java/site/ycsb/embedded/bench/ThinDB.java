package site.ycsb.embedded.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * The base of the benchmarks' thin DBs ({@link LibraryDB}, {@link PairedOps}): every operation NOT_IMPLEMENTED until a
 * subclass makes it, so that an operation a layer never makes is refused, not timed as nothing; and the thinnest
 * read's end, shared by both.
 */
abstract class ThinDB extends DB {

  /** The thinnest read's end: the library's stored bytes as the one field's value. */
  static Status found(byte[] stored, String field, Map<String, ByteIterator> result) {
    if (stored == null) {
      return Status.NOT_FOUND;
    }
    result.put(field, new ByteArrayByteIterator(stored));
    return Status.OK;
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    return Status.NOT_IMPLEMENTED;
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return Status.NOT_IMPLEMENTED;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return Status.NOT_IMPLEMENTED;
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return Status.NOT_IMPLEMENTED;
  }

  @Override
  public Status delete(String table, String key) {
    return Status.NOT_IMPLEMENTED;
  }
}
