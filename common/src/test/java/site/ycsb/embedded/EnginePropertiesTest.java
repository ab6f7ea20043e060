package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

import org.junit.jupiter.api.Test;

class EnginePropertiesTest {

  private static EngineProperties props(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return new EngineProperties(p, "leveldb");
  }

  @Test
  void enginePrefixedPropertyOverridesTheNeutralKnob() {
    assertEquals(2048, props("cachesize", "1024", "leveldb.cachesize", "2048").size("cachesize", 1));
    assertEquals(1024, props("cachesize", "1024", "rocksdb.cachesize", "2048").size("cachesize", 1));
    assertEquals(7, props().size("cachesize", 7));
    EngineProperties e = props("cachesize", "1k");
    e.size("cachesize", 1);
    assertTrue(e.describe().contains("leveldb.cachesize = 1k (from cachesize)"), e.describe());
  }

  @Test
  void namesWithADotAreReadAsWritten() {
    assertEquals(512,
        props("leveldb.blocksize", "512", "blocksize", "9").integer("leveldb.blocksize", 4096, 1, 1 << 20));
  }

  @Test
  void sizesTakeSuffixes() {
    assertEquals(4L << 20, EngineProperties.parseSize("4m"));
    assertEquals(4L << 20, EngineProperties.parseSize("4MB"));
    assertEquals(4L << 20, EngineProperties.parseSize("4 MiB"));
    assertEquals(128L << 10, EngineProperties.parseSize("128k"));
    assertEquals(1L << 30, EngineProperties.parseSize("1g"));
    assertEquals(100, EngineProperties.parseSize("100"));
    assertEquals(-1, EngineProperties.parseSize("-5"));
    assertEquals(-1, EngineProperties.parseSize("lots"));
    assertEquals(-1, EngineProperties.parseSize("4x"));
  }

  /** The grammar's cases, shared with analysis/tests/test_sizes.py: both sides must read every size alike. */
  @Test
  void sizesFollowTheSharedGrammar() throws IOException {
    String cases;
    try (InputStream in = EnginePropertiesTest.class.getResourceAsStream("/size-cases.txt")) {
      cases = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    int checked = 0;
    for (String line : cases.split("\n")) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      String[] c = line.split("\\|", -1);
      long expected = c[1].trim().equals("invalid") ? -1 : Long.parseLong(c[1].trim());
      assertEquals(expected, EngineProperties.parseSize(c[0]), "'" + c[0] + "'");
      checked++;
    }
    assertTrue(checked >= 40, "read " + checked + " cases");
  }

  @Test
  void rulesBetweenTwoPropertiesNameBothAsRead() {
    EngineProperties p = props("leveldb.a", "30", "b", "20");
    long a = p.integer("leveldb.a", 4, 1, 100);
    long b = p.integer("b", 20, 1, 100);
    p.require(b >= 10, "leveldb.a", "at most", "b", null);
    var e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> p.require(a <= b, "leveldb.a", "at most", "b", "a above b is raised quietly"));
    assertEquals("property leveldb.a = '30' is not allowed: expected at most b (20); a above b is raised quietly",
        e.getMessage());
    e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> p.require(false, "b", "less than", "leveldb.c", null));
    assertEquals("property b (read as leveldb.b) = '20' is not allowed: expected less than leveldb.c (not set)",
        e.getMessage());
    assertEquals("property leveldb.a = '30' is not allowed: expected even", p.refuse("leveldb.a", "even").getMessage());
    e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> p.require(false, "leveldb.a", "blob with", "keyformat", null));
    assertEquals("property leveldb.a = '30' is not allowed: expected blob with keyformat (not set)", e.getMessage());
    EngineProperties q = props("keyformat", "ycsb");
    e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> q.require(false, "keyformat", "decimal", "leveldb.a", null));
    assertEquals("property keyformat = 'ycsb' is not allowed: expected decimal leveldb.a (not set)", e.getMessage(),
        "a name never read is shown as set, not as an engine override");
  }

  @Test
  void badValuesNameThePropertyTheValueAndTheChoices() {
    var e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> props("leveldb.compression", "zip").choice("compression", "snappy", "snappy", "none"));
    assertEquals("property leveldb.compression = 'zip' is not allowed: expected one of snappy, none", e.getMessage());
    e = assertThrows(EngineProperties.BadPropertyException.class, () -> props("cachesize", "big").size("cachesize", 1));
    assertTrue(e.getMessage().contains("cachesize (read as leveldb.cachesize) = 'big'"), e.getMessage());
    e = assertThrows(EngineProperties.BadPropertyException.class, () -> props("sync", "maybe").bool("sync", false));
    assertTrue(e.getMessage().contains("'maybe'") && e.getMessage().contains("true or false"), e.getMessage());
    e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> props("batchsize", "0").integer("batchsize", 1, 1, 100));
    assertTrue(e.getMessage().contains("from 1 to 100"), e.getMessage());
    assertThrows(EngineProperties.BadPropertyException.class, () -> props("x.y", "1.5").integer("x.y", 1, 0, 9));
    assertThrows(EngineProperties.BadPropertyException.class, () -> props("x.r", "2").decimal("x.r", 1, 0, 1));
  }

  @Test
  void booleansAreStrict() {
    assertTrue(props("sync", "true").bool("sync", false));
    assertFalse(props("sync", "off").bool("sync", true));
    assertThrows(EngineProperties.BadPropertyException.class, () -> props("sync", "ture").bool("sync", false));
  }

  /**
   * An engine whose facts honour one upstream YCSB name and refuse two: the mechanism, apart from any binding's
   * (each binding that gives such names tests its own, in its module).
   */
  private static final EngineFacts UPSTREAM = EngineFacts.of("eng", null)
      .withUpstreamAliases(java.util.Map.of("eng.dir", "eng.path"))
      .withUpstreamRefused(java.util.Map.of("db.url", "it names a file: set path=DIR", "db.batchsize",
          "it batches inserts only: set batchsize=N"));

  private static EngineProperties upstream(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return new EngineProperties(p, UPSTREAM);
  }

  @Test
  void anUpstreamNameTheFactsHonourIsReadAsOurs() {
    EngineProperties e = upstream("eng.dir", "/data/x", "path", "/data/x");
    assertEquals("/data/x", e.string(EngineProperties.PATH, "data/eng"));
    assertTrue(e.describe().contains("eng.path = /data/x (from eng.dir, upstream YCSB's name)"), e.describe());
    assertTrue(e.unread().isEmpty(), "eng.dir is read, so no typo warning: " + e.unread());
    assertEquals("/data/x", upstream("eng.dir", "/data/x", "eng.path", "/data/x").string(EngineProperties.PATH,
        "data/eng"), "the same value under both names is fine");
    assertEquals("/data/x", upstream("eng.dir", "/data/x").string(EngineProperties.PATH, "data/eng"));
  }

  @Test
  void upstreamNameAndOursDisagreeingIsRefused() {
    var e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> upstream("eng.dir", "/a", "eng.path", "/b").string(EngineProperties.PATH, "d"));
    assertEquals("properties eng.path = '/b' and eng.dir = '/a' (upstream YCSB's name for it) disagree: set one of"
        + " them", e.getMessage());
  }

  @Test
  void upstreamNameAndTheNeutralOneDisagreeingIsRefused() {
    var e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> upstream("eng.dir", "/a", "path", "/b").string(EngineProperties.PATH, "d"));
    assertEquals("properties path = '/b' and eng.dir = '/a' (upstream YCSB's name for eng.path) disagree:"
        + " set one of them", e.getMessage());
  }

  @Test
  void upstreamNamesBelongToTheFactsThatGiveThem() {
    Properties p = new Properties();
    p.setProperty("eng.dir", "/data/x");
    p.setProperty("db.url", "jdbc:sqlite:/tmp/x.db");
    EngineProperties byName = new EngineProperties(p, "eng"); // a name alone: no upstream name honoured or refused
    assertEquals("data/eng", byName.string(EngineProperties.PATH, "data/eng"));
    byName.refuseUpstreamNames();
    assertEquals(java.util.Set.of("eng.dir"), byName.unread(), "an upstream name no facts give is not read");
    assertTrue(UPSTREAM.propertyNames(Object.class).containsAll(java.util.List.of("eng.dir", "db.url",
        "db.batchsize")), "known to the launcher: " + UPSTREAM.propertyNames(Object.class));
    assertFalse(EngineFacts.of("eng", null).propertyNames(Object.class).contains("eng.dir"));
  }

  @Test
  void upstreamNamesThatMeanSomethingElseAreRefusedAllAtOnce() {
    EngineProperties e = upstream("db.url", "jdbc:sqlite:/tmp/x.db", "db.batchsize", "100");
    var thrown = assertThrows(EngineProperties.BadPropertyException.class, e::refuseUpstreamNames);
    assertEquals("property db.batchsize = '100' (upstream YCSB's) is not honoured: it batches inserts only: set"
        + " batchsize=N; property db.url = 'jdbc:sqlite:/tmp/x.db' (upstream YCSB's) is not honoured: it names a"
        + " file: set path=DIR", thrown.getMessage());
    upstream("path", "/tmp").refuseUpstreamNames();
  }
}
