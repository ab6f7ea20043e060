package site.ycsb.embedded.kyoto;

import java.nio.charset.StandardCharsets;

/**
 * The Java side of src/test/c/setloop.c: the same n sequential 16-byte keys with 100-byte values
 * into a fresh TreeDB, through the JNI layer directly. Not a test; run after a build with
 *   java -Djava.library.path=kyoto-binding/target/native \
 *     -cp kyoto-binding/target/classes:kyoto-binding/target/test-classes \
 *     site.ycsb.embedded.kyoto.NativeSetBench /tmp/bench.kct 1000000
 */
public final class NativeSetBench {

  private NativeSetBench() {
  }

  public static void main(String[] args) throws Exception {
    KyotoNative.ensureLoaded();
    long n = Long.parseLong(args[1]);
    byte[] value = new byte[100];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) ('a' + i % 26);
    }
    long db = KyotoNative.open(args[0].getBytes(StandardCharsets.UTF_8),
        KyotoNative.OWRITER | KyotoNative.OCREATE | KyotoNative.OTRUNCATE | KyotoNative.OTRYLOCK);
    byte[] key = new byte[16];
    long t0 = System.nanoTime();
    for (long i = 0; i < n; i++) {
      long x = i;
      for (int d = 15; d >= 0; d--) { // "%016d" without a String per call
        key[d] = (byte) ('0' + x % 10);
        x /= 10;
      }
      KyotoNative.set(db, key, value);
    }
    long t1 = System.nanoTime();
    KyotoNative.close(db);
    double s = (t1 - t0) / 1e9;
    System.out.printf("JNI kyotojni: %d sets in %.3f s = %.0f sets/s (close %.3f s)%n", n, s, n / s,
        (System.nanoTime() - t1) / 1e9);
  }
}
