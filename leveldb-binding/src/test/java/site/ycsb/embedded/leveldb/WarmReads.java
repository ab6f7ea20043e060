package site.ycsb.embedded.leveldb;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * Both libraries' steady read speed through the binding, in one warm JVM: the keys of a
 * WorkloadKeys file read through {@link LevelDbClient} on the comparison's two databases
 * (db-leveldbjni, db-system under one directory, loaded by compare-libraries.sh), alternating a
 * full pass of the keys per library, as many rounds as asked. Prints us per read per round; the
 * first round is the JIT's warm-up.
 *
 * <p>Usage: WarmReads COMPARISON_DIR KEY_FILE ROUNDS
 */
public final class WarmReads {

  private WarmReads() {
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    List<String> keys = Files.readAllLines(Path.of(args[1]), StandardCharsets.US_ASCII);
    int rounds = Integer.parseInt(args[2]);
    String[] libraries = {LevelDbOptions.LIBRARY_LEVELDBJNI, "system"};
    DB[] dbs = new DB[libraries.length];
    for (int i = 0; i < libraries.length; i++) {
      dbs[i] = open(dir.resolve("db-" + libraries[i]), libraries[i]);
    }
    try {
      for (int round = 1; round <= rounds; round++) {
        StringBuilder line = new StringBuilder("round " + round + ":");
        for (int i = 0; i < libraries.length; i++) {
          long t0 = System.nanoTime();
          for (String key : keys) {
            HashMap<String, ByteIterator> row = new HashMap<>();
            if (dbs[i].read("usertable", key, null, row) != Status.OK || row.isEmpty()) {
              throw new IllegalStateException(libraries[i] + " has no record " + key);
            }
          }
          double us = (System.nanoTime() - t0) / 1e3 / keys.size();
          line.append(String.format(Locale.ROOT, " %s %.3f us/read", libraries[i], us));
        }
        System.out.println(line);
      }
    } finally {
      for (DB db : dbs) {
        db.cleanup();
      }
    }
  }

  /** The binding with the comparison script's settings for that library. */
  private static DB open(Path path, String library) throws DBException {
    Properties p = new Properties();
    p.setProperty("path", path.toString());
    p.setProperty(LevelDbOptions.LIBRARY, library);
    p.setProperty("fieldcount", "1");
    p.setProperty("leveldb.cachesize", "128m");
    p.setProperty("leveldb.writebuffersize", "64m");
    if (library.equals("system")) {
      p.setProperty("leveldb.bloombits", "10");
    }
    DB db = new LevelDbClient();
    db.setProperties(p);
    db.init();
    return db;
  }
}
