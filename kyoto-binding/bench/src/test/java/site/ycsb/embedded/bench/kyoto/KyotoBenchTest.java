package site.ycsb.embedded.bench.kyoto;

import site.ycsb.embedded.bench.BenchRowContract;

/** Kyoto's row: what every row does (its floor, LibraryDB over the Kyoto JNI layer). */
class KyotoBenchTest extends BenchRowContract {

  @Override
  protected String engine() {
    return "kyoto";
  }
}
