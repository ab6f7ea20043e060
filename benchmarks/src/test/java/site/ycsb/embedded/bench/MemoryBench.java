package site.ycsb.embedded.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.InMemoryDb;

/**
 * A row of the benchmarks' own tests (its META-INF/services file is in test resources, left out of the test jar): a
 * sorted map in memory as the direct side and common's {@link InMemoryDb} as the binding, so that the harness's
 * questions run without any engine's row on the class path. A directory's map outlives its close, as a database's
 * files would, within the JVM. It has no floor.
 */
public final class MemoryBench extends BenchEngine {

  /** Each directory's records. */
  private static final Map<Path, Map<byte[], byte[]>> DATABASES = new ConcurrentHashMap<>();

  /** Its name: no engine of the registry. */
  static final String NAME = "memory";

  public MemoryBench() {
    super(NAME, InMemoryDb::new);
  }

  @Override
  public LayerDirect open(Path dir, EngineProperties p, Properties raw) {
    Map<byte[], byte[]> db = DATABASES.computeIfAbsent(dir.toAbsolutePath(),
        d -> Collections.synchronizedMap(new TreeMap<>(Arrays::compare)));
    LayerDirect.Batch batch = (k, v, from, n) -> {
      for (int i = from; i < from + n; i++) {
        db.put(k[i], v[i]);
      }
    };
    LayerDirect.Pass all = LayerDirect.counting(pass -> {
      synchronized (db) {
        db.values().forEach(pass::accept);
      }
    });
    return LayerDirect.of(db::put, batch, db::get, all, () -> { });
  }

  @Override
  public String libraryVersion(Properties raw) {
    return "a map in memory";
  }
}
