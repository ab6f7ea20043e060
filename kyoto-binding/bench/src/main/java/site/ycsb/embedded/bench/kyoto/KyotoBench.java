package site.ycsb.embedded.bench.kyoto;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.NativeScanBuffer;
import site.ycsb.embedded.bench.BenchEngine;
import site.ycsb.embedded.bench.LayerDirect;
import site.ycsb.embedded.kyoto.KyotoClient;
import site.ycsb.embedded.kyoto.KyotoHandle;
import site.ycsb.embedded.kyoto.KyotoJni;
import site.ycsb.embedded.kyoto.KyotoOptions;

/**
 * Kyoto's row of the benchmarks: the project's Kyoto JNI layer through the binding's handle opened with KyotoOptions
 * (tuning, open mode), a transaction per batch; its floor is floor_kyoto.c over the system libkyotocabinet.
 */
public final class KyotoBench extends BenchEngine {

  public KyotoBench() {
    super("kyoto", KyotoClient::new);
  }

  @Override
  public LayerDirect open(Path dir, EngineProperties p, Properties raw) throws IOException {
    KyotoHandle h = KyotoHandle.open(KyotoOptions.read(p, dir));
    LayerDirect.Batch batch = (k, v, from, n) -> h.putInTransaction(LayerDirect.range(k, from, n),
        LayerDirect.range(v, from, n), n);
    LayerDirect.Pass all = LayerDirect.counting(pass -> h.withCursor(new byte[0], Integer.MAX_VALUE,
        fill -> NativeScanBuffer.feed(fill, Integer.MAX_VALUE, pass)));
    return LayerDirect.of(h::put, batch, h::get, all, h::close);
  }

  @Override
  public String libraryVersion(Properties raw) throws IOException {
    return "Kyoto Cabinet " + KyotoJni.libraryVersion() + " (system library, project JNI)";
  }

  /** Both sides open without auto-transaction (the binding's default adds one per write: a mode, not a cost). */
  @Override
  public void sideBySide(Properties p) {
    p.setProperty(KyotoOptions.AUTOTRAN, "false");
  }
}
