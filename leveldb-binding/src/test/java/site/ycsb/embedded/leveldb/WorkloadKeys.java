package site.ycsb.embedded.leveldb;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import site.ycsb.Utils;
import site.ycsb.generator.ScrambledZipfianGenerator;

/**
 * Writes the keys upstream's workload C reads, one per line, for the C floor of the library
 * comparison (src/test/c/floor.c): CoreWorkload with insertorder=hashed and
 * requestdistribution=zipfian picks a record number from a scrambled zipfian over the records and
 * names it "user" + the FNV hash of that number (as its buildKeyName does). The sequence is a
 * fresh random one, as each YCSB run's is.
 *
 * <p>Usage: WorkloadKeys RECORDS OPERATIONS FILE
 */
public final class WorkloadKeys {

  private WorkloadKeys() {
  }

  public static void main(String[] args) throws IOException {
    long records = Long.parseLong(args[0]);
    long operations = Long.parseLong(args[1]);
    ScrambledZipfianGenerator chooser = new ScrambledZipfianGenerator(0, records - 1);
    try (BufferedWriter out = Files.newBufferedWriter(Path.of(args[2]), StandardCharsets.US_ASCII)) {
      for (long i = 0; i < operations; i++) {
        out.write("user" + Utils.hash(chooser.nextValue()));
        out.newLine();
      }
    }
  }
}
