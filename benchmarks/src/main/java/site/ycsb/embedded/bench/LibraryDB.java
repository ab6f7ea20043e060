package site.ycsb.embedded.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.embedded.Keys;
import site.ycsb.embedded.NothingDB;
import site.ycsb.embedded.SharedHandles;
import site.ycsb.embedded.workload.FullScanSink;

/**
 * Layer (d0) of the layered benchmark: YCSB's client around the thinnest DB there can be, one that makes per call
 * only the Java library call layer (b) makes (the engine's {@link BenchEngine} row, the same tuning): the key's UTF-8
 * bytes and the one value's array to the library's put, the library's get into the result map, the library's own full
 * pass, batches through its atomic batch; no codec, no free-space check. (d0) minus (b) is what YCSB's client, its
 * workload class and a fresh JVM add around the library; (d) minus (d0) what the real binding costs inside YCSB's
 * client.
 *
 * <p>Properties: {@value #ENGINE} (an engine of {@link Engines}; a variant row's binding properties choose the
 * library as they do for (b)), {@code path}, {@code batchsize}, {@code fieldnameprefix}. One handle per path, shared
 * by the clients ({@link SharedHandles}). Every operation it does not make is NOT_IMPLEMENTED ({@link NothingDB}
 * refusing), so that one the layers never make is not timed as nothing.
 */
public final class LibraryDB extends NothingDB {

  /** The engine whose Java library this DB calls. */
  public static final String ENGINE = "librarydb.engine";

  private SharedHandles.Lease<LayerDirect> lease;
  private LayerDirect db;
  private String field;
  private int batchSize;
  private byte[][] batchKeys;
  private byte[][] batchValues;
  private int batched;

  @Override
  protected Status nothing() {
    return Status.NOT_IMPLEMENTED;
  }

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    String engine = p.getProperty(ENGINE);
    if (engine == null) {
      throw new DBException(ENGINE + " must name the engine: " + String.join(", ", Engines.names()));
    }
    field = p.getProperty("fieldnameprefix", "field") + "0";
    batchSize = Integer.parseInt(p.getProperty("batchsize", "1"));
    if (batchSize > 1) {
      batchKeys = new byte[batchSize][];
      batchValues = new byte[batchSize][];
    }
    try {
      Path dir = Files.createDirectories(Path.of(p.getProperty("path"))); // an engine of one file makes only the file
      lease = SharedHandles.acquire(ENGINE, dir, () -> Engines.named(engine).openDirect(dir, p), LayerDirect::close);
      db = lease.get();
    } catch (Exception e) {
      throw new DBException(engine + "'s Java library could not open " + p.getProperty("path") + ": " + e, e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    if (db == null) {
      return;
    }
    try {
      if (batched > 0) {
        db.putBatch(batchKeys, batchValues, 0, batched);
        batched = 0;
      }
    } catch (Exception e) {
      throw new DBException("the last batch could not be applied: " + e, e);
    } finally {
      db = null;
      try {
        lease.close();
      } catch (Exception e) {
        throw new DBException("close failed: " + e, e);
      }
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      byte[] k = Keys.UTF8.bytes(key);
      byte[] v = values.values().iterator().next().toArray(); // EmbeddedWorkload's values hand their array over
      if (batchSize <= 1) {
        db.put(k, v);
        return Status.OK;
      }
      batchKeys[batched] = k;
      batchValues[batched] = v;
      if (++batched < batchSize) {
        return Status.BATCHED_OK;
      }
      db.putBatch(batchKeys, batchValues, 0, batched);
      batched = 0;
      return Status.OK;
    } catch (Exception e) {
      return Status.ERROR;
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      byte[] stored = db.get(Keys.UTF8.bytes(key));
      if (stored == null) {
        return Status.NOT_FOUND;
      }
      result.put(field, new ByteArrayByteIterator(stored));
      return Status.OK;
    } catch (Exception e) {
      return Status.ERROR;
    }
  }

  /** Only the workload's full pass: the library's own pass over every record, counted as rows (bytes not counted). */
  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    if (!(result instanceof FullScanSink rows) || !startkey.isEmpty()) {
      return Status.NOT_IMPLEMENTED;
    }
    try {
      for (long n = db.scanAll(); n > 0 && rows.rows() < recordcount; n--) {
        rows.addRow(0);
      }
      return Status.OK;
    } catch (Exception e) {
      return Status.ERROR;
    }
  }
}
