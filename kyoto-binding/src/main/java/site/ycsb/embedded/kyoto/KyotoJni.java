package site.ycsb.embedded.kyoto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The binding's JNI layer with nothing of the binding around it, for measurements that set the two
 * side by side (benchmarks/): one database opened with the given tuning, its calls as KyotoClient
 * makes them. Not for YCSB runs; {@link KyotoClient} is the binding.
 */
public final class KyotoJni implements AutoCloseable {

  private long db;

  private KyotoJni(long db) {
    this.db = db;
  }

  /**
   * Opens (creating it when missing) the database file with Kyoto's tuning suffix ("#pccap=...#msiz=...").
   *
   * @param truncate start from an empty database
   */
  public static KyotoJni open(Path file, String tuning, boolean truncate) throws IOException {
    KyotoNative.ensureLoaded();
    int mode = KyotoNative.OWRITER | KyotoNative.OCREATE | KyotoNative.OTRYLOCK
        | (truncate ? KyotoNative.OTRUNCATE : 0);
    String name = file.toAbsolutePath() + tuning;
    return new KyotoJni(KyotoNative.open(name.getBytes(StandardCharsets.UTF_8), mode));
  }

  public void set(byte[] key, byte[] value) throws KyotoException {
    KyotoNative.set(db, key, value, false, false);
  }

  /** Applies the pairs in one transaction, as the binding applies a batch. */
  public void setInTransaction(byte[][] keys, byte[][] values, int count) throws KyotoException {
    KyotoNative.setInTransaction(db, keys, values, count, false);
  }

  /** The version of the Kyoto Cabinet library the JNI layer is linked against. */
  public static String libraryVersion() throws IOException {
    KyotoNative.ensureLoaded();
    return KyotoNative.version();
  }

  /** The value under {@code key}, or null. */
  public byte[] get(byte[] key) throws KyotoException {
    return KyotoNative.get(db, key);
  }

  /** Feeds every value to {@code sink} in key order through one cursor; returns how many. */
  public long scanAll(Consumer<byte[]> sink) throws KyotoException {
    long cursor = KyotoNative.cursor(db);
    try {
      long n = 0;
      if (KyotoNative.jump(cursor, new byte[0])) {
        for (byte[] v; (v = KyotoNative.next(cursor)) != null; n++) {
          sink.accept(v);
        }
      }
      return n;
    } finally {
      KyotoNative.destroy(cursor);
    }
  }

  /** Closes the database once; later calls do nothing. */
  @Override
  public void close() throws KyotoException {
    long p = db;
    if (p != 0) {
      db = 0;
      KyotoNative.close(p);
    }
  }
}
