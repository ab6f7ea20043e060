package site.ycsb.embedded.bench.lmdb;

import site.ycsb.embedded.bench.BenchRowContract;

/** LMDB's row: what every row does (its floor, LibraryDB over lmdbjava). */
class LmdbBenchTest extends BenchRowContract {

  @Override
  protected String engine() {
    return "lmdb";
  }
}
