package site.ycsb.embedded.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.embedded.HandedOverBytes;

/**
 * The binding-cost figure is only the binding's code if the calls really run the whole shared path:
 * every insert reaches the engine's put with the encoded key and the 100 stored bytes, every read
 * hands back the stored record through the codec, and the timing loops make and check every call.
 */
class BindingCodeCostTest {

  @Test
  void insertsAndReadsRunTheBindingsPathDownToTheEnginePrimitives(@TempDir Path dir) throws Exception {
    byte[] stored = new byte[100];
    stored[7] = 42;
    BindingCodeCost.NullEngineDB db = BindingCodeCost.open(dir, stored);
    try {
      assertEquals(Status.OK, db.insert("usertable", "user000000000001", Map.of("field0",
          new HandedOverBytes(new byte[100]))));
      assertEquals(16 + 100, db.bytesSeen(), "the put got the 16-byte key and the bare 100-byte value");
      Map<String, ByteIterator> row = new HashMap<>();
      assertEquals(Status.OK, db.read("usertable", "user000000000001", null, row));
      assertArrayEquals(stored, row.get("field0").toArray(), "the read decodes the stored record");

      String[] keys = {"user000000000002", "user000000000003", "user000000000004"};
      byte[][] values = {new byte[100], new byte[100], new byte[100]};
      long before = db.bytesSeen();
      assertTrue(BindingCodeCost.timeInserts(db, keys, values) > 0);
      assertEquals(before + 3 * 116, db.bytesSeen(), "three inserts reached the engine");
      assertTrue(BindingCodeCost.timeReads(db, keys) > 0);
      assertEquals(before + 3 * 116 + 3 * 16, db.bytesSeen(), "three reads reached the engine");
    } finally {
      db.cleanup();
    }
  }
}
