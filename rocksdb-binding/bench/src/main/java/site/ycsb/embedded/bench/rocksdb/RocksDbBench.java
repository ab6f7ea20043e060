package site.ycsb.embedded.bench.rocksdb;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.bench.BenchEngine;
import site.ycsb.embedded.bench.BindingOverhead;
import site.ycsb.embedded.bench.LayerDirect;
import site.ycsb.embedded.rocksdb.RocksDbClient;
import site.ycsb.embedded.rocksdb.RocksDbHandle;
import site.ycsb.embedded.rocksdb.RocksDbOptions;

/**
 * RocksDB's row of the benchmarks: rocksdbjni through the binding's handle opened with RocksDbOptions (it closes its
 * native objects) and its read and write options; its floors are floor_rocksdb.c over the system librocksdb (layer
 * (a)) and over the native library inside the rocksdbjni jar, which exports RocksDB's C API (layer (a')).
 */
public final class RocksDbBench extends BenchEngine {

  public RocksDbBench() {
    super("rocksdb", RocksDbClient::new);
  }

  /** Layer (a'): floor_rocksdb.c linked against rocksdbjni's own native library (this module's pom.xml). */
  static final String JAVA_LIBRARY_FLOOR = "floor-rocksdbjni";

  @Override
  public LayerDirect open(Path dir, EngineProperties p, Properties raw) throws IOException {
    RocksDB.loadLibrary();
    RocksDbHandle h = RocksDbHandle.open(new RocksDbOptions(p, raw), dir);
    RocksDB db = h.db();
    LayerDirect.Batch batch = (k, v, from, n) -> {
      try (WriteBatch b = new WriteBatch()) {
        for (int i = from; i < from + n; i++) {
          b.put(k[i], v[i]);
        }
        db.write(h.writeOptions(), b);
      }
    };
    LayerDirect.Pass all = () -> {
      long n = 0;
      try (RocksIterator it = db.newIterator(h.readOptions())) {
        for (it.seekToFirst(); it.isValid(); it.next(), n++) {
          BindingOverhead.touch(it.value());
        }
      }
      return n;
    };
    return LayerDirect.of((k, v) -> db.put(h.writeOptions(), k, v), batch, k -> db.get(h.readOptions(), k), all,
        h::close);
  }

  @Override
  public String libraryVersion(Properties raw) {
    return "RocksDB " + RocksDB.rocksdbVersion() + " (rocksdbjni)";
  }

  /** No statistics on either side of the side-by-side benchmark. */
  @Override
  public void sideBySide(Properties p) {
    p.setProperty("rocksdb.stats", "false");
  }

  @Override
  public Optional<String> javaLibraryFloor() {
    return Optional.of(JAVA_LIBRARY_FLOOR);
  }
}
