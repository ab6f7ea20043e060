package site.ycsb.embedded.bench;

import java.nio.file.Path;

import site.ycsb.embedded.kyoto.KyotoJni;

/**
 * The Java side of kyoto-binding/src/test/c/setloop.c: the same n sequential 16-byte keys with 100-byte
 * values into a fresh TreeDB, through the JNI layer directly. Run after a build with
 *   java -Djava.library.path=kyoto-binding/target/native \
 *     -cp "benchmarks/target/classes:benchmarks/target/lib/*" \
 *     site.ycsb.embedded.bench.KyotoNativeSetBench /tmp/bench.kct 1000000
 */
public final class KyotoNativeSetBench {

  private KyotoNativeSetBench() {
  }

  public static void main(String[] args) throws Exception {
    long n = Long.parseLong(args[1]);
    byte[] value = new byte[100];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) ('a' + i % 26);
    }
    KyotoJni db = KyotoJni.open(Path.of(args[0]), "", true);
    byte[] key = new byte[16];
    long t0 = System.nanoTime();
    for (long i = 0; i < n; i++) {
      long x = i;
      for (int d = 15; d >= 0; d--) { // "%016d" without a String per call
        key[d] = (byte) ('0' + x % 10);
        x /= 10;
      }
      db.set(key, value);
    }
    long t1 = System.nanoTime();
    db.close();
    double s = (t1 - t0) / 1e9;
    System.out.printf("JNI kyotojni: %d sets in %.3f s = %.0f sets/s (close %.3f s)%n", n, s, n / s,
        (System.nanoTime() - t1) / 1e9);
  }
}
