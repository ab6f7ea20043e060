package site.ycsb.embedded.workload;

import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicLong;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.RandomByteIterator;
import site.ycsb.Status;
import site.ycsb.WorkloadException;
import site.ycsb.embedded.ClientExitStatus;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.HandedOverBytes;
import site.ycsb.generator.ExponentialGenerator;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's CoreWorkload plus what the classic embedded-engine benchmarks need. With none of the
 * properties below set it behaves exactly like CoreWorkload (it hands every call to it).
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>property</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>keyformat</td><td>ycsb</td><td>ycsb (core's "user..." keys), decimal (zero-padded,
 *       keylength bytes: db_bench's 16-byte keys), binary (8-byte big-endian)</td></tr>
 *   <tr><td>keylength</td><td>16</td><td>digits of a decimal key</td></tr>
 *   <tr><td>loadorder</td><td>from insertorder</td><td>sequential (key order), random (every key once,
 *       in a random permutation) or replacement (each insert's key drawn uniformly from [0, recordcount)
 *       with repeats, as db_bench's fillrandom draws: about 63 % of the keys distinct; run-phase reads
 *       then miss about 37 %)</td></tr>
 *   <tr><td>loadrepeats</td><td>insert</td><td>loadorder=replacement: how a load sends a key drawn again
 *       (about 37 % of its inserts): insert (again: an upsert store overwrites it, as db_bench's put does) or
 *       update (a store whose insert refuses a key already there, such as upstream's JDBC binding, gets an
 *       update of it instead, counted as [UPDATE]; the first draw of each key is still an insert). Which draw
 *       is a key's first is fixed by the insert indexes, from 0 (insertstart included), so processes that split
 *       a load by insertstart agree; with several client threads a repeat may reach the store before the
 *       first insert of its key</td></tr>
 *   <tr><td>loadseed</td><td>20110727</td><td>seed of the random load permutation or of the draws</td></tr>
 *   <tr><td>valuecompressionratio</td><td>off</td><td>0 &lt; r &lt;= 1: values a compressor shrinks to about
 *       r of their size (db_bench's compression_ratio); off: YCSB's random printable values</td></tr>
 *   <tr><td>deleteproportion</td><td>0</td><td>share of run operations that delete a chosen key</td></tr>
 *   <tr><td>readseqproportion</td><td>0</td><td>share of run operations that read the whole database
 *       once in key order (one iterator pass); reported as [READSEQ] entries and entries/sec</td></tr>
 * </table>
 */
public class EmbeddedWorkload extends CoreWorkload {

  public static final String KEY_FORMAT = "keyformat";
  public static final String KEY_LENGTH = "keylength";
  public static final String LOAD_ORDER = "loadorder";
  public static final String LOAD_SEED = "loadseed";
  public static final String LOAD_REPEATS = "loadrepeats";
  public static final String VALUE_COMPRESSION_RATIO = "valuecompressionratio";
  public static final String DELETE_PROPORTION = "deleteproportion";
  public static final String READSEQ_PROPORTION = "readseqproportion";
  /** What valuecompressionratio takes, as its refusal says it. */
  static final String COMPRESSION_RATIO_ALLOWED = "a number above 0 and at most 1 (the share of a value's size"
      + " that compression leaves: 0.5 halves it, 1 does not compress), or off";

  /** Operation names as they appear in YCSB's output. */
  public static final String DELETE = "DELETE";
  public static final String READSEQ = "READSEQ";

  private boolean extended;
  private KeyFormat keys;
  private Permutation loadPermutation;
  /** loadorder=replacement: inserts below this index draw their key with {@link SplitMix64#draw}; else 0. */
  private long drawRange;
  private long drawSeed;
  /** loadrepeats=update: bit i set when insert index (drawStart + i) draws its key for the first time; else null. */
  private BitSet firstDraws;
  private long drawStart;
  private CompressibleValues compressible;
  private String fieldPrefix;
  /** fieldPrefix + i for the first fields, made once rather than per operation. */
  private String[] fieldNames;
  private final AtomicLong seqEntries = new AtomicLong();
  private final AtomicLong seqNanos = new AtomicLong();
  private final AtomicLong seqPasses = new AtomicLong();

  /** Under YCSB's client a refusal here exits non-zero (Client itself exits 0 after a WorkloadException). */
  @Override
  public void init(Properties p) throws WorkloadException {
    try {
      start(p);
    } catch (WorkloadException e) {
      throw ClientExitStatus.refusedWorkload(e);
    }
  }

  private void start(Properties p) throws WorkloadException {
    super.init(p);
    EngineProperties props = new EngineProperties(p, "workload");
    try {
      String format = props.choice(KEY_FORMAT, "ycsb", "ycsb", "decimal", "binary");
      boolean coreKeys = format.equals("ycsb");
      String order = props.choice(LOAD_ORDER, orderedinserts ? "sequential" : "random", "sequential", "random",
          "replacement");
      long seed = props.integer(LOAD_SEED, 20110727L, Long.MIN_VALUE, Long.MAX_VALUE);
      double ratio = compressionRatio(props);
      double deletes = props.decimal(DELETE_PROPORTION, 0, 0, 1);
      double readseq = props.decimal(READSEQ_PROPORTION, 0, 0, 1);
      boolean repeatsAsUpdates = props.choice(LOAD_REPEATS, "insert", "insert", "update").equals("update");
      fieldPrefix = p.getProperty(FIELD_NAME_PREFIX, FIELD_NAME_PREFIX_DEFAULT);
      fieldNames = new String[(int) Math.min(fieldcount, 1024)];
      for (int i = 0; i < fieldNames.length; i++) {
        fieldNames[i] = fieldPrefix + i;
      }

      extended = !coreKeys || ratio > 0 || deletes > 0 || readseq > 0 || props.isSet(LOAD_ORDER);
      if (!extended) {
        return;
      }
      if (Boolean.parseBoolean(p.getProperty(DATA_INTEGRITY_PROPERTY, "false"))) {
        throw new WorkloadException("dataintegrity=true checks core's own values and keys; it cannot be combined"
            + " with keyformat, loadorder, valuecompressionratio, deleteproportion or readseqproportion");
      }
      if (format.equals("decimal")) {
        keys = KeyFormat.decimal(props.integer(KEY_LENGTH, 16, 1, 19));
      } else if (format.equals("binary")) {
        keys = KeyFormat.binary();
      } else {
        keys = KeyFormat.ycsb(order.equals("sequential"), zeropadding);
      }
      long records = recordcount;
      if (!coreKeys && order.equals("random")) {
        loadPermutation = new Permutation(Math.max(1, records), seed);
      }
      if (order.equals("replacement")) {
        drawRange = Math.max(1, records);
        drawSeed = seed;
        if (repeatsAsUpdates) {
          markFirstDraws(p);
        }
      } else if (repeatsAsUpdates) {
        throw props.refuse(LOAD_REPEATS, "insert unless loadorder=replacement (only a load that draws its keys"
            + " with replacement draws a key twice)");
      }
      if (!coreKeys) {
        keys.key(Math.max(0, records - 1)); // fails now, not mid-load, when the numbers do not fit
      }
      if (ratio > 0) {
        compressible = new CompressibleValues(ratio, seed);
      }
      if (deletes > 0 || readseq > 0) {
        operationchooser = createOperationGenerator(p);
        if (deletes > 0) {
          operationchooser.addValue(deletes, DELETE);
        }
        if (readseq > 0) {
          operationchooser.addValue(readseq, READSEQ);
        }
      }
      System.err.printf(Locale.ROOT, "[workload] %s, %s load, values %s%n", keys.describe(),
          order.equals("replacement") ? "replacement (keys drawn uniformly with repeats, seed " + seed
              + ": about 63 % distinct" + (firstDraws != null ? "; a key drawn again is sent as an update" : "")
              + ")" : order,
          ratio > 0 ? "compressible to " + ratio : "YCSB random printable");
    } catch (IllegalArgumentException e) {
      throw new WorkloadException(e.getMessage());
    }
  }

  /**
   * loadrepeats=update: which of this client's inserts draw their key for the first time, counting the draws of
   * every index from 0 (those below insertstart belong to another process's part of the load).
   */
  private void markFirstDraws(Properties p) throws WorkloadException {
    long start = Long.parseLong(p.getProperty(INSERT_START_PROPERTY, INSERT_START_PROPERTY_DEFAULT));
    long count = Long.parseLong(p.getProperty(INSERT_COUNT_PROPERTY, Long.toString(recordcount - start)));
    if (drawRange > Integer.MAX_VALUE || start + count > Integer.MAX_VALUE) {
      throw new WorkloadException(LOAD_REPEATS + "=update keeps a bit per key and per insert: at most "
          + Integer.MAX_VALUE + " of each, not recordcount " + recordcount);
    }
    BitSet seen = new BitSet((int) drawRange);
    firstDraws = new BitSet((int) count);
    for (long i = 0; i < start + count; i++) {
      int key = (int) SplitMix64.draw(drawSeed, i, drawRange);
      if (!seen.get(key)) {
        seen.set(key);
        if (i >= start) {
          firstDraws.set((int) (i - start));
        }
      }
    }
    drawStart = start;
  }

  /**
   * valuecompressionratio: 0 for off, else a ratio above 0 and at most 1. The typed reader's bounds would
   * print the smallest double above 0 (4.9E-324) as the lower one, so a refusal says the range in words.
   */
  static double compressionRatio(EngineProperties props) {
    if (props.string(VALUE_COMPRESSION_RATIO, "off").trim().equalsIgnoreCase("off")) {
      return 0;
    }
    double ratio;
    try {
      ratio = props.decimal(VALUE_COMPRESSION_RATIO, 1.0, 0, 1.0);
    } catch (EngineProperties.BadPropertyException e) {
      ratio = 0;
    }
    if (ratio <= 0) {
      throw props.refuse(VALUE_COMPRESSION_RATIO, COMPRESSION_RATIO_ALLOWED);
    }
    return ratio;
  }

  @Override
  public boolean doInsert(DB db, Object threadstate) {
    if (!extended) {
      return super.doInsert(db, threadstate);
    }
    long index = keysequence.nextValue().longValue();
    long keynum = index < drawRange ? SplitMix64.draw(drawSeed, index, drawRange)
        : loadPermutation != null && index < loadPermutation.size() ? loadPermutation.apply(index) : index;
    String key = keys.key(keynum);
    HashMap<String, ByteIterator> values = buildValues(true);
    if (firstDraws != null && index < drawRange && !firstDraws.get((int) (index - drawStart))) {
      Status updated = db.update(table, key, values); // measured by YCSB's DB wrapper as an UPDATE
      return updated != null && updated.isOk();
    }
    Status status;
    int retries = 0;
    while (true) {
      status = db.insert(table, key, values);
      if (status != null && status.isOk()) {
        return true;
      }
      if (++retries > insertionRetryLimit) {
        System.err.println("Error inserting, not retrying any more. number of attempts: " + retries
            + ". Insertion Retry Limit: " + insertionRetryLimit);
        return false;
      }
      System.err.println("Retrying insertion, retry count: " + retries);
      try {
        Thread.sleep((long) (1000 * insertionRetryInterval * (0.8 + 0.4 * Math.random())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      values = buildValues(true);
    }
  }

  @Override
  public boolean doTransaction(DB db, Object threadstate) {
    if (!extended) {
      return super.doTransaction(db, threadstate);
    }
    String op = operationchooser.nextValue();
    if (op == null) {
      return false;
    }
    switch (op) {
      case "READ":
        db.read(table, keys.key(nextKey()), readFields(), new HashMap<>());
        break;
      case "UPDATE":
        db.update(table, keys.key(nextKey()), buildValues(writeallfields));
        break;
      case "INSERT":
        insertNew(db);
        break;
      case "SCAN":
        db.scan(table, keys.key(nextKey()), scanlength.nextValue().intValue(), readFields(), new Vector<>());
        break;
      case DELETE:
        db.delete(table, keys.key(nextKey()));
        break;
      case READSEQ:
        readWholeDatabase(db);
        break;
      default:
        readModifyWrite(db);
    }
    return true;
  }

  @Override
  public void cleanup() throws WorkloadException {
    super.cleanup();
    long passes = seqPasses.get();
    if (passes > 0) {
      // db_bench reports readseq in entries/sec; YCSB counts the whole pass as one SCAN.
      double seconds = seqNanos.get() / 1e9;
      System.out.printf(Locale.ROOT, "[READSEQ], Passes, %d%n[READSEQ], Entries, %d%n[READSEQ], Entries/sec, %.1f%n",
          passes, seqEntries.get(), seconds > 0 ? seqEntries.get() / seconds : 0.0);
    }
  }

  private void insertNew(DB db) {
    long keynum = transactioninsertkeysequence.nextValue();
    try {
      db.insert(table, keys.key(keynum), buildValues(true));
    } finally {
      transactioninsertkeysequence.acknowledge(keynum);
    }
  }

  private void readWholeDatabase(DB db) {
    FullScanSink sink = new FullScanSink();
    long t0 = System.nanoTime();
    db.scan(table, "", Integer.MAX_VALUE, null, sink);
    seqNanos.addAndGet(System.nanoTime() - t0);
    seqEntries.addAndGet(sink.rows());
    seqPasses.incrementAndGet();
  }

  private void readModifyWrite(DB db) {
    String key = keys.key(nextKey());
    HashMap<String, ByteIterator> values = buildValues(writeallfields);
    Measurements m = Measurements.getMeasurements();
    long ist = m.getIntendedtartTimeNs();
    long st = System.nanoTime();
    Status status = db.read(table, key, readFields(), new HashMap<>());
    if (status.isOk()) {
      status = db.update(table, key, values);
    }
    long en = System.nanoTime();
    m.measure("READ-MODIFY-WRITE", (int) ((en - st) / 1000));
    m.measureIntended("READ-MODIFY-WRITE", (int) ((en - ist) / 1000));
    m.reportStatus("READ-MODIFY-WRITE", status);
  }

  /** A key number that has been loaded or acknowledged, drawn by core's request distribution. */
  private long nextKey() {
    long keynum;
    if (keychooser instanceof ExponentialGenerator) {
      do {
        keynum = transactioninsertkeysequence.lastValue() - keychooser.nextValue().intValue();
      } while (keynum < 0);
    } else {
      do {
        keynum = keychooser.nextValue().intValue();
      } while (keynum > transactioninsertkeysequence.lastValue());
    }
    return keynum;
  }

  private Set<String> readFields() {
    if (readallfields) {
      return null;
    }
    Set<String> one = new HashSet<>(2);
    one.add(fieldName(fieldchooser.nextValue().intValue()));
    return one;
  }

  private HashMap<String, ByteIterator> buildValues(boolean allFields) {
    HashMap<String, ByteIterator> values = new HashMap<>();
    if (allFields) {
      for (int i = 0; i < fieldcount; i++) {
        values.put(fieldName(i), value());
      }
    } else {
      values.put(fieldName(fieldchooser.nextValue().intValue()), value());
    }
    return values;
  }

  private String fieldName(int i) {
    return i < fieldNames.length ? fieldNames[i] : fieldPrefix + i;
  }

  private ByteIterator value() {
    int length = fieldlengthgenerator.nextValue().intValue();
    // handed over, not copied: the codec's bare layout stores this very array
    return compressible != null ? new HandedOverBytes(compressible.next(length))
        : new RandomByteIterator(length);
  }
}
