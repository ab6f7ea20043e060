package site.ycsb.embedded.bench.leveldb;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.bench.BenchEngine;
import site.ycsb.embedded.bench.LayerDirect;
import site.ycsb.embedded.leveldb.LevelDbClient;
import site.ycsb.embedded.leveldb.LevelDbHandle;
import site.ycsb.embedded.leveldb.LevelDbOptions;

/**
 * LevelDB's row of the benchmarks: leveldbjni, or the system library with leveldb.library=system, through the
 * binding's handle opened with LevelDbOptions; its floor is floor_leveldb.c over the system libleveldb.
 */
public final class LevelDbBench extends BenchEngine {

  public LevelDbBench() {
    super("leveldb", LevelDbClient::new);
  }

  @Override
  public LayerDirect open(Path dir, EngineProperties p, Properties raw) throws IOException {
    LevelDbHandle h = LevelDbHandle.open(dir, LevelDbOptions.read(p));
    LayerDirect.Batch batch = (k, v, from, n) -> h.write(LayerDirect.range(k, from, n),
        LayerDirect.range(v, from, n), n);
    LayerDirect.Pass all = LayerDirect.counting(pass -> h.scan(new byte[0], Integer.MAX_VALUE, pass));
    return LayerDirect.of(h::put, batch, h::get, all, h::close);
  }

  @Override
  public String libraryVersion(Properties raw) throws IOException {
    return LevelDbHandle.libraryVersion(LevelDbOptions.read(new EngineProperties(raw, name())));
  }

}
