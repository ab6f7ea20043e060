package site.ycsb.embedded.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.embedded.HandedOverBytes;

/**
 * The experiment of issue 34 (benchmarks/README.md, "How the harness is built"): layer (c) of the readrandom shape,
 * the binding's {@code read} of keys drawn as {@link LayerStep} draws them, on a database filled and reopened as
 * LayerStep fills it, timed by JMH (its warm-up iterations, its fork, its blackhole) instead of LayerStep's warm-up
 * passes, quiet-compiler wait and chunked clock. Not part of the Maven build: benchmarks/jmh/run.sh compiles it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class BindingReadJmh {

  /** An engine spec as the layered benchmark takes it, e.g. leveldb:leveldb.library=system. */
  @Param("lmdb")
  public String engine;
  @Param("100000")
  public int records;
  /** The workload files' directory (the shape's tuning). */
  @Param("workloads")
  public String workloads;

  private DB db;
  private LayerStep.Data data;
  private Path dir;
  private int next;
  private final Map<String, ByteIterator> result = new HashMap<>();

  @Setup(Level.Trial)
  public void fillAndReopen() throws Exception {
    String name = engine.split(":")[0];
    Properties props = LayerShape.READRANDOM.properties(Path.of(workloads));
    props.setProperty("recordcount", Integer.toString(records));
    dir = Files.createTempDirectory("jmh-read-");
    props.setProperty("path", dir.toString());
    LayerStep.extras(engine).forEach(props::setProperty);
    data = new LayerStep.Data(LayerShape.READRANDOM, records, Long.parseLong(props.getProperty("loadseed", "20110727")));
    props.setProperty("dotransactions", "false");
    DB fill = LayerStep.open(name, props);
    try {
      for (int i = 0; i < records; i++) {
        Map<String, ByteIterator> values = new HashMap<>();
        values.put("field0", new HandedOverBytes(data.values[i]));
        Status s = fill.insert("usertable", data.keyStrings[i], values);
        if (s != Status.OK && s != Status.BATCHED_OK) {
          throw new IllegalStateException("insert returned " + s);
        }
      }
    } finally {
      fill.cleanup();
    }
    props.setProperty("dotransactions", "true");
    db = LayerStep.open(name, props);
  }

  @Benchmark
  public Status read(Blackhole bh) {
    String key = data.readKeyStrings[next];
    next = next + 1 == records ? 0 : next + 1;
    result.clear();
    Status s = db.read("usertable", key, null, result);
    bh.consume(result);
    return s;
  }

  @TearDown(Level.Trial)
  public void close() throws Exception {
    db.cleanup();
    Layers.deleteTree(dir);
  }
}
