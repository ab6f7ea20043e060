package site.ycsb.embedded.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;
import site.ycsb.embedded.EngineFacts;
import site.ycsb.embedded.EngineProperties;

/** A pipeline that swaps upstream YCSB's RocksDB binding for ours keeps its -p rocksdb.dir. */
class UpstreamNamesTest {

  @TempDir
  Path tmp;

  /** The properties as the binding reads them, through its facts. */
  private static EngineProperties read(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return new EngineProperties(p, new RocksDbClient().facts());
  }

  @Test
  void theFactsHonourRocksDbDirAsRocksDbPathAndRefuseNothing() {
    EngineFacts facts = new RocksDbClient().facts();
    assertEquals(Map.of("rocksdb.dir", "rocksdb.path"), facts.upstreamAliases());
    assertTrue(facts.upstreamRefused().isEmpty(), facts.upstreamRefused().toString());
    assertTrue(new RocksDbClient().propertyNames().contains("rocksdb.dir"), "known to the launcher");
  }

  @Test
  void rocksDbDirIsReadAsTheDataDirectory() {
    EngineProperties e = read("rocksdb.dir", "/data/x", "path", "/data/x");
    assertEquals("/data/x", e.string(EngineProperties.PATH, "data/rocksdb"));
    assertTrue(e.describe().contains("rocksdb.path = /data/x (from rocksdb.dir, upstream YCSB's name)"), e.describe());
    assertTrue(e.unread().isEmpty(), "rocksdb.dir is read, so no typo warning: " + e.unread());
    assertEquals("/data/x", read("rocksdb.dir", "/data/x", "rocksdb.path", "/data/x")
        .string(EngineProperties.PATH, "data/rocksdb"), "the same value under both names is fine");
  }

  @Test
  void rocksDbDirAndRocksDbPathDisagreeingIsRefused() {
    var e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> read("rocksdb.dir", "/a", "rocksdb.path", "/b").string(EngineProperties.PATH, "d"));
    assertTrue(e.getMessage().contains("rocksdb.path = '/b'") && e.getMessage().contains("rocksdb.dir = '/a'"),
        e.getMessage());
    var neutral = assertThrows(EngineProperties.BadPropertyException.class,
        () -> read("rocksdb.dir", "/a", "path", "/b").string(EngineProperties.PATH, "d"));
    assertEquals("properties path = '/b' and rocksdb.dir = '/a' (upstream YCSB's name for rocksdb.path) disagree:"
        + " set one of them", neutral.getMessage());
  }

  @Test
  void upstreamsRocksDbDirHoldsTheData() throws Exception {
    Path dir = tmp.resolve("upstream-dir");
    Properties p = new Properties();
    p.setProperty("rocksdb.dir", dir.toString());
    RocksDbClient writer = new RocksDbClient();
    writer.setProperties(p);
    writer.init();
    assertEquals(Status.OK, writer.insert("usertable", "k1", StringByteIterator.getByteIteratorMap(
        Map.of("field0", "value one"))));
    writer.cleanup();
    assertTrue(Files.isRegularFile(dir.resolve("CURRENT")), "RocksDB's files are in rocksdb.dir");

    Properties again = new Properties();
    again.setProperty("path", dir.toString()); // our own name reads the same database back
    RocksDbClient reader = new RocksDbClient();
    reader.setProperties(again);
    reader.init();
    Map<String, ByteIterator> out = new HashMap<>();
    assertEquals(Status.OK, reader.read("usertable", "k1", Set.of("field0"), out));
    assertEquals("value one", out.get("field0").toString());
    reader.cleanup();
  }

  @Test
  void rocksDbDirAndPathDisagreeingIsRefusedAndNothingIsCreated() throws Exception {
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    Properties p = new Properties();
    p.setProperty("rocksdb.dir", a.toString());
    p.setProperty("path", b.toString());
    RocksDbClient client = new RocksDbClient();
    client.setProperties(p);
    DBException e = assertThrows(DBException.class, client::init, "rocksdb.dir and path name two directories");
    assertTrue(e.getMessage().contains("properties path = '" + b + "' and rocksdb.dir = '" + a + "'")
        && e.getMessage().contains("disagree"), e.getMessage());
    assertFalse(Files.exists(a), "nothing created in rocksdb.dir");
    assertFalse(Files.exists(b), "nothing created in path");

    p.setProperty("path", a.toString()); // the same directory under both names is one
    RocksDbClient same = new RocksDbClient();
    same.setProperties(p);
    same.init();
    assertEquals(Status.OK, same.insert("usertable", "k", StringByteIterator.getByteIteratorMap(Map.of("f", "v"))));
    same.cleanup();
    assertTrue(Files.isRegularFile(a.resolve("CURRENT")), "RocksDB's files are in the one directory");
  }
}
