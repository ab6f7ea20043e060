package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.embedded.EngineFiles.Engine;

class DamagedFilesTest {

  @TempDir
  Path tmp;

  /** The damage rules one by one: each finding names the file and what is wrong; healthy files pass. */
  @Test
  void damageIsNamedAndHealthyDirectoriesPass() throws IOException {
    // the others' fixtures have garbage headers
    for (Engine engine : List.of(Engine.named("leveldb"), Engine.named("rocksdb"))) {
      Path dir = tmp.resolve("ok-" + engine.binding);
      EngineFileFixtures.writeFilesOf(engine, dir);
      assertEquals(List.of(), DamagedFiles.damage(dir, false), engine.title);
    }
    assertEquals(List.of(), DamagedFiles.damage(tmp.resolve("missing"), false));

    Path lsm = tmp.resolve("lsm");
    EngineFileFixtures.writeFilesOf(Engine.named("leveldb"), lsm);
    Files.delete(lsm.resolve("CURRENT"));
    assertTrue(only(DamagedFiles.damage(lsm, false))
        .contains("(000003.log, 000005.sst, MANIFEST-000002) but no CURRENT"));
    assertEquals(List.of(), DamagedFiles.damage(lsm, true), "leveldb.repair rebuilds CURRENT");
    assertTrue(only(DamagedFiles.damage(lsm, false)).contains("or run once with leveldb.repair=true: LevelDB's"
        + " RepairDB rebuilds CURRENT and a MANIFEST from the tables and logs (records in a damaged file are lost)"));
    Files.writeString(lsm.resolve("CURRENT"), "MANIFEST-000009\n");
    assertTrue(only(DamagedFiles.damage(lsm, false)).contains("CURRENT names MANIFEST-000009, which is missing"));
    Files.writeString(lsm.resolve("CURRENT"), "");
    assertTrue(only(DamagedFiles.damage(lsm, false)).contains("does not name a MANIFEST"));
    Files.writeString(lsm.resolve("IDENTITY"), "rocksdb");
    Files.delete(lsm.resolve("CURRENT"));
    assertTrue(only(DamagedFiles.damage(lsm, true)).contains("RocksDB files"), "LevelDB's repair is not RocksDB's");
    Files.delete(lsm.resolve("000005.sst"));
    assertEquals(List.of(), DamagedFiles.damage(lsm, false), "no records to lose: an empty log and a MANIFEST");

    Path sqlite = tmp.resolve("sqlite");
    Files.createDirectories(sqlite);
    byte[] db = new byte[4096 * 3];
    System.arraycopy(EngineFiles.SQLITE_HEADER, 0, db, 0, 16);
    db[16] = 0x10; // page size 4096
    db[18] = 1;
    db[19] = 1;
    db[21] = 64;
    db[22] = 32;
    db[23] = 32;
    db[27] = 7; // change counter 7 ...
    db[95] = 7; // ... which the page count is valid for
    db[31] = 3; // 3 pages
    Files.write(sqlite.resolve("ycsb.db"), db);
    assertEquals(List.of(), DamagedFiles.damage(sqlite, false));
    Files.write(sqlite.resolve("ycsb.db"), java.util.Arrays.copyOf(db, 4096 * 2));
    assertTrue(only(DamagedFiles.damage(sqlite, false)).contains("ycsb.db is cut short: its header counts 3 pages"
        + " of 4096 bytes (12288 bytes), the file has 8192"));
    Files.write(sqlite.resolve("ycsb.db-wal"), new byte[] {0x37, 0x7f, 0x06, (byte) 0x82, 0});
    assertEquals(List.of(), DamagedFiles.damage(sqlite, false), "a WAL beside it may hold the missing pages");
    Files.delete(sqlite.resolve("ycsb.db-wal"));
    db[21] = 1;
    Files.write(sqlite.resolve("ycsb.db"), db);
    assertTrue(only(DamagedFiles.damage(sqlite, false)).contains("the header of ycsb.db is damaged"));
    Files.write(sqlite.resolve("ycsb.db"), java.util.Arrays.copyOf(db, 50));
    assertTrue(only(DamagedFiles.damage(sqlite, false)).contains("50 bytes, less than its 100-byte header"));

    Path kyoto = tmp.resolve("kyoto");
    Files.createDirectories(kyoto);
    byte[] kc = new byte[1000];
    System.arraycopy(EngineFiles.KYOTO_HEADER, 0, kc, 0, 4);
    kc[46] = 0x03; // size 1000 = 0x3e8, big-endian at offset 40
    kc[47] = (byte) 0xe8;
    Files.write(kyoto.resolve("ycsb.kct"), kc);
    assertEquals(List.of(), DamagedFiles.damage(kyoto, false));
    Files.write(kyoto.resolve("ycsb.kct"), java.util.Arrays.copyOf(kc, 999));
    assertTrue(only(DamagedFiles.damage(kyoto, false)).contains("ycsb.kct is cut short: its header records 1000"
        + " bytes, the file has 999. Kyoto Cabinet can rebuild it from the records the file holds: run once with -p"
        + " kyoto.repair=true"));
    assertEquals(List.of(), DamagedFiles.damage(kyoto, true), "kyoto.repair rebuilds it");
    // A write the disk cut short under auto-transactions: Kyoto's open undoes it from its log, so not damage.
    Files.write(kyoto.resolve("ycsb.kct.wal"), new byte[] {1});
    assertEquals(List.of(), DamagedFiles.damage(kyoto, false));
    Files.write(kyoto.resolve("ycsb.kct.wal"), new byte[0]); // an empty log undoes nothing
    assertTrue(only(DamagedFiles.damage(kyoto, false)).contains("ycsb.kct is cut short"));

    Path lmdb = tmp.resolve("lmdb");
    EngineFileFixtures.writeFilesOf(Engine.named("lmdb"), lmdb); // lock.mdb is never damage: LMDB rebuilds it
    assertTrue(only(DamagedFiles.damage(lmdb, false)).contains("data.mdb is cut short: its meta page records pages"
        + " up to 5 of 4096 bytes (24576 bytes), the file has 8192"));
    Path data = lmdb.resolve("data.mdb");
    Files.write(data, EngineFileFixtures.lmdbData(4096, 5, 24576));
    assertEquals(List.of(), DamagedFiles.damage(lmdb, false));
    Files.write(data, new byte[0]);
    assertEquals(List.of(), DamagedFiles.damage(lmdb, false), "an empty data.mdb is a new environment to LMDB");
    Files.write(data, EngineFileFixtures.lmdbData(4096, 1, 6000));
    assertTrue(only(DamagedFiles.damage(lmdb, false)).contains("6000 bytes, less than its two meta pages of 4096"));
    Files.write(data, java.util.Arrays.copyOf(EngineFileFixtures.lmdbData(4096, 1, 8192), 100));
    assertTrue(only(DamagedFiles.damage(lmdb, false)).contains("100 bytes, less than its first meta page"));
    byte[] noMagic = EngineFileFixtures.lmdbData(4096, 1, 8192);
    noMagic[16] = 0;
    Files.write(data, noMagic);
    assertTrue(only(DamagedFiles.damage(lmdb, false)).contains("first meta page of the LMDB file data.mdb is damaged"));
  }

  @Test
  void onlyFilesNoEngineClaimsAreUnclaimed() throws IOException {
    Files.write(tmp.resolve(DirectoryLock.FILE), new byte[] {1});
    Files.writeString(tmp.resolve(".ycsb-embedded.layout"), "the project's own record");
    Files.write(tmp.resolve("empty"), new byte[0]);
    Files.writeString(tmp.resolve("LOG.old"), "LevelDB's");
    Files.writeString(tmp.resolve("ycsb.db-shm"), "SQLite's");
    Files.writeString(tmp.resolve("ycsb.kct.wal"), "Kyoto's");
    Files.createDirectory(tmp.resolve("lost"));
    assertEquals(List.of(), DamagedFiles.damage(tmp, false));
    Files.writeString(tmp.resolve("ycsb.db"), "garbage where a header was");
    Files.writeString(tmp.resolve("a.txt"), "a user's notes");
    IOException e = assertThrows(IOException.class, () -> DamagedFiles.refuseDamaged(tmp, "rocksdb", false));
    assertTrue(e.getMessage().contains("it holds " + tmp.resolve("a.txt").toAbsolutePath() + ", "
        + tmp.resolve("ycsb.db").toAbsolutePath() + ", which no engine here claims")
        && e.getMessage().contains(tmp.toAbsolutePath() + " is damaged, so rocksdb refuses"), e.getMessage());
  }

  private static String only(List<String> findings) {
    assertEquals(1, findings.size(), findings.toString());
    return findings.get(0);
  }
}
