package site.ycsb.embedded.bench;

import java.nio.file.Path;
import java.util.Arrays;

import site.ycsb.embedded.kyoto.KyotoJni;

/**
 * Layer (b) of the layered benchmark for Kyoto: the side-by-side benchmark's direct side, opened
 * with a given tuning string, with transactions for batches.
 */
final class KyotoLayerDirect extends KyotoDirect implements LayerDirect {

  private KyotoLayerDirect(KyotoJni db) {
    super(db);
  }

  /** Opens (creating) the TreeDB {@code file} with Kyoto's tuning suffix ("#opts=...#pccap=..."). */
  static KyotoLayerDirect open(Path file, String tuning) throws Exception {
    return new KyotoLayerDirect(KyotoJni.open(file, tuning, false));
  }

  @Override
  public void putBatch(byte[][] keys, byte[][] values, int from, int count) throws Exception {
    db.setInTransaction(Arrays.copyOfRange(keys, from, from + count), Arrays.copyOfRange(values, from, from + count),
        count);
  }
}
