package site.ycsb.embedded.sqlite;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.DBException;

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
}
