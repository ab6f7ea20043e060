package site.ycsb.embedded.bench.lmdb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.bench.BenchEngine;
import site.ycsb.embedded.bench.LayerDirect;
import site.ycsb.embedded.lmdb.LmdbClient;
import site.ycsb.embedded.lmdb.LmdbHandle;
import site.ycsb.embedded.lmdb.LmdbOptions;

/**
 * LMDB's row of the benchmarks: lmdbjava through the binding's handle opened with LmdbOptions and one reader, as a
 * client keeps one (let go before a write); its floor is floor_lmdb.c over the system liblmdb.
 */
public final class LmdbBench extends BenchEngine {

  public LmdbBench() {
    super("lmdb", LmdbClient::new);
  }

  @Override
  public LayerDirect open(Path dir, EngineProperties p, Properties raw) throws IOException {
    LmdbHandle h = LmdbHandle.open(LmdbOptions.read(p), Files.createDirectories(dir));
    LmdbHandle.Reader reader;
    try {
      reader = h.reader();
    } catch (IOException | RuntimeException e) {
      h.close();
      throw e;
    }
    LayerDirect.Put put = (k, v) -> {
      reader.drop();
      h.put(k, v);
    };
    LayerDirect.Batch batch = (k, v, from, n) -> {
      reader.drop();
      h.putAll(LayerDirect.range(k, from, n), LayerDirect.range(v, from, n), n);
    };
    LayerDirect.Pass all = LayerDirect.counting(pass -> h.scan(reader, new byte[0], Integer.MAX_VALUE, pass));
    return LayerDirect.of(put, batch, k -> h.get(reader, k), all, () -> {
      h.release(reader);
      h.close();
    });
  }

  @Override
  public String libraryVersion(Properties raw) {
    return LmdbHandle.libraryVersion();
  }

}
