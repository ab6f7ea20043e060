package site.ycsb.embedded.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.DBException;
import site.ycsb.embedded.EngineFacts;
import site.ycsb.embedded.EngineProperties;

/** Upstream's JDBC binding names its database differently: refused, not ignored. */
class UpstreamNamesTest {

  @TempDir
  Path tmp;

  @Test
  void upstreamJdbcUrlIsRefusedNamingWhatToSetInstead() {
    Path file = tmp.resolve("upstream.db");
    Properties p = new Properties();
    p.setProperty("path", tmp.resolve("ours").toString());
    p.setProperty("db.url", "jdbc:sqlite:" + file);
    SqliteClient client = new SqliteClient();
    client.setProperties(p);
    DBException e = assertThrows(DBException.class, client::init);
    assertTrue(e.getMessage().contains("db.url") && e.getMessage().contains("path=DIR"), e.getMessage());
    assertFalse(Files.exists(tmp.resolve("ours")), "refused before anything was opened");
    assertFalse(Files.exists(file));
  }

  @Test
  void upstreamJdbcNamesAreRefusedAllAtOnceNamingWhatToSetInstead() {
    EngineFacts facts = new SqliteClient().facts();
    assertEquals(Set.of("db.url", "db.batchsize", "jdbc.autocommit", "jdbc.batchupdateapi", "jdbc.fetchsize"),
        facts.upstreamRefused().keySet());
    assertTrue(facts.upstreamAliases().isEmpty(), facts.upstreamAliases().toString());
    assertTrue(new SqliteClient().propertyNames().containsAll(facts.upstreamRefused().keySet()), "known names");
    Properties p = new Properties();
    p.setProperty("db.url", "jdbc:sqlite:/tmp/x.db");
    p.setProperty("db.batchsize", "100");
    var e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> new EngineProperties(p, facts).refuseUpstreamNames());
    assertEquals("property db.batchsize = '100' (upstream YCSB's) is not honoured: upstream's JDBC binding batches"
        + " inserts only; here batchsize groups every write into one transaction: set batchsize=N; property db.url"
        + " = 'jdbc:sqlite:/tmp/x.db' (upstream YCSB's) is not honoured: upstream's JDBC binding names the database"
        + " with a JDBC URL; this binding takes a directory: set path=DIR (and sqlite.file=NAME)", e.getMessage());
    Properties ours = new Properties();
    ours.setProperty("path", "/tmp");
    new EngineProperties(ours, facts).refuseUpstreamNames();
  }
}
