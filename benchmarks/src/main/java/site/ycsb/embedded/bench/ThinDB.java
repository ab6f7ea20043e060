package site.ycsb.embedded.bench;

import java.util.Map;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.embedded.NothingDB;

/**
 * The base of the benchmarks' thin DBs ({@link LibraryDB}, {@link PairedOps}): common's {@link NothingDB} with every
 * operation NOT_IMPLEMENTED until a subclass makes it, so that an operation a layer never makes is refused, not
 * timed as nothing; and the thinnest read's end, shared by both.
 */
abstract class ThinDB extends NothingDB {

  @Override
  protected final Status nothing() {
    return Status.NOT_IMPLEMENTED;
  }

  /** The thinnest read's end: the library's stored bytes as the one field's value. */
  static Status found(byte[] stored, String field, Map<String, ByteIterator> result) {
    if (stored == null) {
      return Status.NOT_FOUND;
    }
    result.put(field, new ByteArrayByteIterator(stored));
    return Status.OK;
  }
}
