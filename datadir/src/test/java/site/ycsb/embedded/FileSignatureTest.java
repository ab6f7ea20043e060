package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.embedded.EngineFiles.Engine;

/** The registry's files.signature and files.claims: read from a registry file of a test's own, and refused bad. */
class FileSignatureTest {

  @TempDir
  Path tmp;

  /** The packaged registry with {@code lines} in a file of its own after it, as YCSB_EMBEDDED_ENGINES adds one. */
  private List<Engine> registeredWith(String lines) throws IOException {
    Path extra = tmp.resolve("engines.properties");
    Files.writeString(extra, lines);
    Properties facts = EngineRegistry.load(extra.toString());
    return Engine.fromRegistry(facts, EngineRegistry.enginesInOrder(facts));
  }

  /** The refusal of a registry file of {@code lines} after the packaged one. */
  private String refusal(List<String> lines) throws IOException {
    Path file = tmp.resolve("bad.properties");
    Files.write(file, lines);
    Properties facts = EngineRegistry.load(file.toString());
    return assertThrows(IllegalArgumentException.class,
        () -> Engine.fromRegistry(facts, EngineRegistry.enginesInOrder(facts)), lines.toString()).getMessage();
  }

  @Test
  void anEngineRegisteredByATestIsRecognisedByItsSignature() throws IOException {
    List<Engine> engines = registeredWith("toy:site.ycsb.embedded.NothingDB\n"
        + "toy.title=Toy Store\n"
        // "TOY1" starts its data files; its index shows it by name; its lock file alone shows nothing
        + "toy.files.signature=header:544f5931, name:[0-9]+[.]toyidx, also:TOYLOCK, fallback:.*[.]toy\n");
    Engine toy = engines.get(engines.size() - 1);
    assertEquals(List.of("leveldb", "rocksdb", "sqlite", "kyoto", "lmdb", "toy"),
        engines.stream().map(e -> e.binding).toList(), "the packaged engines, then the test's, in order");
    assertEquals("Toy Store", toy.title);

    Path dir = Files.createDirectories(tmp.resolve("toy"));
    Files.write(dir.resolve("TOYLOCK"), new byte[0]);
    assertEquals(Map.of(), EngineFiles.identify(dir, engines), "an also: file alone shows no engine");
    Files.write(dir.resolve("records.bin"), "TOY1 and more".getBytes(StandardCharsets.US_ASCII));
    Files.write(dir.resolve("empty.toy"), new byte[0]);
    Files.write(dir.resolve("named.toy"), EngineFiles.SQLITE_HEADER); // a header claims it before a fallback name
    Files.write(dir.resolve("000001.toyidx"), EngineFiles.KYOTO_HEADER); // a name claims it before any header
    Files.write(dir.resolve("TOY"), "TOY".getBytes(StandardCharsets.US_ASCII)); // shorter than the header
    assertEquals(Map.of(toy, List.of("000001.toyidx", "TOYLOCK", "empty.toy", "records.bin"),
        Engine.named("sqlite"), List.of("named.toy")), EngineFiles.identify(dir, engines));
    assertTrue(EngineFiles.identify(dir).keySet().stream().noneMatch(e -> e.binding.equals("toy")),
        "the packaged registry alone does not know it");
  }

  @Test
  void anEngineThatClaimsAnotherIsThereOnlyWhereBothShow() throws IOException {
    List<Engine> engines = registeredWith("toy:site.ycsb.embedded.NothingDB\n"
        + "toy.title=Toy Store\ntoy.files.signature=name:TOYMANIFEST,also:[0-9]+[.]toy\n"
        + "toyplus:site.ycsb.embedded.NothingDB\n"
        + "toyplus.title=Toy Store Plus\ntoyplus.files.signature=name:PLUSOPTIONS\ntoyplus.files.claims=toy\n");
    Engine toy = Engine.fromRegistry(EngineRegistry.load(tmp.resolve("engines.properties").toString()),
        List.of("toy")).get(0);
    Path dir = Files.createDirectories(tmp.resolve("plus"));
    Files.write(dir.resolve("PLUSOPTIONS"), new byte[0]);
    Files.write(dir.resolve("000001.toy"), new byte[0]);
    assertEquals(Map.of(), EngineFiles.identify(dir, engines), "the claimed engine's signature does not show");
    Files.write(dir.resolve("TOYMANIFEST"), new byte[0]);
    Engine plus = engines.get(engines.size() - 1);
    assertEquals(Map.of(plus, List.of("000001.toy", "PLUSOPTIONS", "TOYMANIFEST")),
        EngineFiles.identify(dir, engines));
    Files.delete(dir.resolve("PLUSOPTIONS"));
    assertEquals(Map.of(toy, List.of("000001.toy", "TOYMANIFEST")), EngineFiles.identify(dir, engines));
  }

  @Test
  void aMalformedSignatureIsRefusedNamingTheFactAndTheItem() throws IOException {
    String head = "toy:site.ycsb.embedded.NothingDB";
    String msg = refusal(List.of(head, "toy.title=Toy", "toy.files.signature=header:54Z9"));
    assertTrue(msg.contains("toy.files.signature holds \"header:54Z9\"") && msg.contains("two hex digits a byte"), msg);
    msg = refusal(List.of(head, "toy.title=Toy", "toy.files.signature=header:544"));
    assertTrue(msg.contains("\"header:544\"") && msg.contains("hex digits"), "an odd count of digits: " + msg);
    msg = refusal(List.of(head, "toy.title=Toy", "toy.files.signature=glob:*.toy"));
    assertTrue(msg.contains("\"glob:*.toy\"") && msg.contains("not one of name, also, header, fallback"), msg);
    msg = refusal(List.of(head, "toy.title=Toy", "toy.files.signature=name:[0-9+.toy"));
    assertTrue(msg.contains("\"name:[0-9+.toy\"") && msg.contains("not a Java regular expression"), msg);
    msg = refusal(List.of(head, "toy.title=Toy", "toy.files.signature=name:TOY,"));
    assertTrue(msg.contains("holds \"\"") && msg.contains("KIND:PATTERN"), "a trailing comma: " + msg);
    msg = refusal(List.of(head, "toy.title=Toy", "toy.files.signature=also:TOYLOCK"));
    assertTrue(msg.contains("must show the engine"), msg);
    msg = refusal(List.of(head, "toy.files.signature=name:TOY"));
    assertTrue(msg.contains("needs a title") && msg.contains("toy.title"), msg);
    msg = refusal(List.of(head, "toy.title=Toy", "toy.files.signature=name:TOY", "toy.files.claims=nosuchengine"));
    assertTrue(msg.contains("toy.files.claims holds \"nosuchengine\"") && msg.contains("another engine"), msg);
  }

  @Test
  void thePackagedRegistryGivesTheEnginesWithFilesTheirTitles() throws IOException {
    assertEquals(List.of("leveldb", "rocksdb", "sqlite", "kyoto", "lmdb"),
        java.util.Arrays.stream(Engine.values()).map(e -> e.binding).toList(), "sqlite-columns shares sqlite's files");
    assertEquals(List.of("LevelDB", "RocksDB", "SQLite", "Kyoto Cabinet", "LMDB"),
        java.util.Arrays.stream(Engine.values()).map(e -> e.title).toList());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Engine.named("sqlite-columns"));
    assertTrue(e.getMessage().contains("gives sqlite-columns no files.signature"), e.getMessage());
    Path wal = tmp.resolve("x-wal");
    Files.write(wal, new byte[] {0x37, 0x7f, 0x06, (byte) 0x82});
    assertEquals(Engine.named("sqlite"), EngineFiles.byHeader(wal), "the WAL's magic with either last bit");
    Files.write(wal, new byte[] {0x37, 0x7f, 0x06, (byte) 0x84});
    assertEquals(null, EngineFiles.byHeader(wal));
    assertEquals(Engine.named("leveldb"), EngineFiles.byName("000009.ldb"));
    assertEquals(Engine.named("rocksdb"), EngineFiles.byName("OPTIONS-000012"));
  }
}
