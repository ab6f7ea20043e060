package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/** The join/leave hook: a per-client handle opened after the shared one, closed before it. */
class KeyValueDbJoinTest {

  @TempDir
  Path tmp;

  /** The shared "engine" and the per-client handles it hands out, with an event log. */
  static final class Engine {
    final List<String> events;
    final String name;

    Engine(List<String> events, String name) {
      this.events = events;
      this.name = name;
    }
  }

  static class PerClientDb extends KeyValueDB<Engine> {
    final List<String> events;
    final String clientName;
    final boolean failJoin;

    PerClientDb(List<String> events, String clientName, boolean failJoin) {
      this.events = events;
      this.clientName = clientName;
      this.failJoin = failJoin;
    }

    @Override
    protected EngineFacts facts() {
      return EngineFacts.of("jointest", null); // its property names: this class's
    }

    @Override
    protected EngineOpener<Engine> configure(EngineProperties props, Path dir) {
      return new EngineOpener<Engine>() {
        @Override
        public Engine open() {
          events.add("open shared");
          return new Engine(events, "shared");
        }

        @Override
        public void close(Engine handle) {
          events.add("close " + handle.name);
        }

        @Override
        public String describe(Engine handle) {
          return "join test engine";
        }
      };
    }

    @Override
    protected Engine join(Engine shared) {
      if (failJoin) {
        throw new IllegalStateException("join refused");
      }
      events.add("join " + clientName);
      return new Engine(events, clientName);
    }

    @Override
    protected void leave(Engine mine) {
      events.add("leave " + mine.name);
    }

    @Override
    protected byte[] get(Engine db, byte[] key) {
      return null;
    }

    @Override
    protected void put(Engine db, byte[] key, byte[] value) {
      events.add("put via " + db.name);
    }

    @Override
    protected boolean remove(Engine db, byte[] key) {
      return false;
    }

    @Override
    protected void scan(Engine db, byte[] start, int count, ValueSink sink) {
    }

    @Override
    protected void applyBatch(Engine db, byte[][] keys, byte[][] values, int count) {
      events.add("batch of " + count + " via " + db.name);
    }
  }

  private PerClientDb client(List<String> events, String name, boolean failJoin, String batchSize) {
    PerClientDb db = new PerClientDb(events, name, failJoin);
    Properties p = new Properties();
    p.setProperty("path", tmp.resolve("db").toString());
    p.setProperty("batchsize", batchSize);
    db.setProperties(p);
    return db;
  }

  @Test
  void primitivesGetThePerClientHandleWhichLeavesBeforeTheSharedOneCloses() throws Exception {
    List<String> events = new ArrayList<>();
    PerClientDb a = client(events, "a", false, "2");
    PerClientDb b = client(events, "b", false, "1");
    a.init();
    b.init();
    assertNotSame(a.handle(), b.handle());
    assertEquals("a", a.handle().name);
    assertEquals(Status.BATCHED_OK, a.insert("t", "k1", java.util.Map.of("f", new StringByteIterator("v"))));
    assertEquals(Status.OK, b.insert("t", "k2", java.util.Map.of("f", new StringByteIterator("v"))));
    b.cleanup();
    a.cleanup();
    a.cleanup();
    assertEquals(List.of("open shared", "join a", "join b", "put via b", "leave b",
        "batch of 1 via a", "leave a", "close shared"), events,
        "the last batch goes through the client's handle, then it leaves, then the shared handle closes");
    assertEquals(0, SharedHandles.openCount());
  }

  @Test
  void everyWriteGoesThroughTheWriteGroupHook() throws Exception {
    List<String> events = new ArrayList<>();
    PerClientDb a = new PerClientDb(events, "a", false) {
      @Override
      protected WriteGroup writeGroup(Engine mine, int batchSize) {
        return new WriteGroup() {
          @Override
          public Status write(Kind kind, byte[] key, byte[] value, Write write) throws Exception {
            events.add(kind + " " + new String(key) + " of " + batchSize + " via " + mine.name);
            return write.run();
          }

          @Override
          public void flush() {
            events.add("flush");
          }
        };
      }
    };
    Properties p = new Properties();
    p.setProperty("path", tmp.resolve("db").toString());
    p.setProperty("batchsize", "7");
    a.setProperties(p);
    a.init();
    assertEquals(Status.OK, a.insert("t", "k1", java.util.Map.of("f", new StringByteIterator("v"))));
    assertEquals(Status.NOT_FOUND, a.update("t", "k2", java.util.Map.of("f", new StringByteIterator("v"))));
    assertEquals(Status.NOT_FOUND, a.delete("t", "k3"));
    a.cleanup();
    assertEquals(List.of("open shared", "join a", "INSERT k1 of 7 via a", "put via a", "UPDATE k2 of 7 via a",
        "DELETE k3 of 7 via a", "flush", "leave a", "close shared"), events);
  }

  @Test
  void aFailedJoinReleasesTheSharedHandle() {
    List<String> events = new ArrayList<>();
    PerClientDb a = client(events, "a", true, "1");
    DBException e = assertThrows(DBException.class, a::init);
    assertEquals(true, e.getMessage().contains("join refused"), e.getMessage());
    assertEquals(List.of("open shared", "close shared"), events);
    assertEquals(0, SharedHandles.openCount());
  }

  @Test
  void byDefaultEveryClientUsesTheSharedHandle() throws Exception {
    KeyValueDB<Object> plain = new KeyValueDB<Object>() {
      @Override
      protected EngineFacts facts() {
        return EngineFacts.of("jointest", null); // its property names: this class's
      }

      @Override
      protected EngineOpener<Object> configure(EngineProperties props, Path dir) {
        Object shared = new Object();
        return new EngineOpener<Object>() {
          @Override
          public Object open() {
            return shared;
          }

          @Override
          public void close(Object handle) {
          }

          @Override
          public String describe(Object handle) {
            return "plain";
          }
        };
      }

      @Override
      protected byte[] get(Object db, byte[] key) {
        return null;
      }

      @Override
      protected void put(Object db, byte[] key, byte[] value) {
      }

      @Override
      protected boolean remove(Object db, byte[] key) {
        return false;
      }

      @Override
      protected void scan(Object db, byte[] start, int count, ValueSink sink) {
      }

      @Override
      protected void applyBatch(Object db, byte[][] keys, byte[][] values, int count) {
      }
    };
    Properties p = new Properties();
    p.setProperty("path", tmp.resolve("db").toString());
    plain.setProperties(p);
    plain.init();
    Object h = plain.handle();
    assertSame(h, plain.join(h));
    plain.cleanup();
  }
}
