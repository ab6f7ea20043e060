package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

class EngineLibraryLoadTest {

  @TempDir
  Path tmp;

  /** Counts the library loads and whether init had run before the first. */
  static class CountingDb extends InMemoryDb {
    int loads;
    boolean initBeforeLoad;
    boolean initDone;
    boolean fail;

    @Override
    protected void loadEngineLibrary() throws Exception {
      loads++;
      initBeforeLoad |= initDone;
      if (fail) {
        throw new UnsatisfiedLinkError("no such library");
      }
    }

    @Override
    public void init() throws site.ycsb.DBException {
      super.init();
      initDone = true;
    }
  }

  private Properties props() {
    Properties p = new Properties();
    p.setProperty("path", tmp.resolve("db").toString());
    return p;
  }

  @Test
  void setPropertiesLoadsTheLibraryBeforeInit() throws Exception {
    CountingDb db = new CountingDb();
    db.setProperties(props());
    assertEquals(1, db.loads, "YCSB calls setProperties in its main thread, before its clock starts");
    db.init();
    db.cleanup();
    assertEquals(1, db.loads);
    assertFalse(db.initBeforeLoad);
  }

  @Test
  void aLoadThatFailsIsLeftToInit() throws Exception {
    CountingDb db = new CountingDb();
    db.fail = true;
    db.setProperties(props()); // does not throw: init reports a library that cannot load
    db.init();
    try {
      Map<String, ByteIterator> rec = new HashMap<>();
      rec.put("field0", new StringByteIterator("v"));
      assertEquals(Status.OK, db.insert("usertable", "k", rec));
      Map<String, ByteIterator> got = new HashMap<>();
      assertEquals(Status.OK, db.read("usertable", "k", null, got));
      assertEquals("v", got.get("field0").toString());
    } finally {
      db.cleanup();
    }
  }
}
