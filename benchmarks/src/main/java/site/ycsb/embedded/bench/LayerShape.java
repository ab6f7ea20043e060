package site.ycsb.embedded.bench;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import site.ycsb.embedded.workload.SplitMix64;

/** The 2011 shapes of the layered benchmark, each with the workload files that give every layer its data and tuning. */
enum LayerShape {
  /** db_bench fillseq: puts in key order. */
  FILLSEQ("fillseq", List.of("seqwrite"), null, false, 100, 1),
  /** db_bench fillrandom: puts of keys drawn with replacement (randwrite's loadorder=replacement). */
  FILLRANDOM("fillrandom", List.of("randwrite"), null, true, 100, 1),
  /** db_bench readrandom: a random fill (untimed), reopen, then as many reads of keys drawn with replacement. */
  READRANDOM("readrandom", List.of("randwrite"), "randread", true, 100, 1),
  /** db_bench readseq: a random fill (untimed), reopen, then one ordered pass over every entry. */
  READSEQ("readseq", List.of("randwrite"), "seqread", true, 100, 1),
  /** 2011 2A: 100,000-byte values in key order. */
  FILL100K("fill100k", List.of("largevalue-seqwrite"), null, false, 100_000, 1),
  /** 2011 2B: atomic batches of 1,000 entries in key order. */
  FILLBATCH("fillbatch", List.of("batch-seqwrite"), null, false, 100, 1000),
  /** 2011 2E: random fill with 128 MB of memory (the bigwrite-memory option file). */
  FILLRANDOM128M("fillrandom128m", List.of("randwrite", "bigwrite-memory"), null, true, 100, 1);

  final String id;
  /** Workload files of the fill (YCSB's load phase), stacked in this order. */
  final List<String> loadFiles;
  /** The workload file of the measured run phase, or null when the fill itself is measured. */
  final String runFile;
  /** Keys drawn with replacement (the load files' loadorder=replacement); false: key order. */
  final boolean drawsKeys;
  final int valueLength;
  final int batch;

  LayerShape(String id, List<String> loadFiles, String runFile, boolean drawsKeys, int valueLength, int batch) {
    this.id = id;
    this.loadFiles = loadFiles;
    this.runFile = runFile;
    this.drawsKeys = drawsKeys;
    this.valueLength = valueLength;
    this.batch = batch;
  }

  boolean isRead() {
    return runFile != null;
  }

  /** Entries a run of {@code records} uses: 100 KB fills write records/200 values (10 to 1,000, the 2011 count). */
  int count(int records) {
    return valueLength > 100 ? Math.max(10, Math.min(1000, records / 200)) : records;
  }

  /** The key number of insert {@code i} of {@code count}: drawn with the load seed, or i itself. */
  long loadKey(long seed, int i, int count) {
    return drawsKeys ? SplitMix64.draw(seed, i, count) : i;
  }

  /** The keys a fill of {@code count} inserts leaves: every one in key order, about 63 % of them when drawn. */
  BitSet loadedKeys(long seed, int count) {
    if (drawsKeys) {
      return SplitMix64.drawn(seed, count, count);
    }
    BitSet all = new BitSet(count);
    all.set(0, count);
    return all;
  }

  /** The properties of the measured phase: the load files, then the run file over them. */
  Properties properties(Path workloads) throws IOException {
    Properties p = new Properties();
    for (String f : runFile == null ? loadFiles : Stream.concat(loadFiles.stream(), Stream.of(runFile)).toList()) {
      try (Reader r = Files.newBufferedReader(workloads.resolve(f))) {
        p.load(r);
      }
    }
    return p;
  }

  static LayerShape named(String id) {
    for (LayerShape s : values()) {
      if (s.id.equals(id)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown shape " + id + "; known: "
        + Arrays.stream(values()).map(s -> s.id).collect(Collectors.joining(", ")));
  }
}
