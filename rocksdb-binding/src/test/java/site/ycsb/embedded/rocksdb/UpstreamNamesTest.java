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

/** A pipeline that swaps upstream YCSB's RocksDB binding for ours keeps its -p rocksdb.dir. */
class UpstreamNamesTest {

  @TempDir
  Path tmp;

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
