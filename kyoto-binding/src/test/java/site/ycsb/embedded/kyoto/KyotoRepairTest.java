package site.ycsb.embedded.kyoto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.embedded.ChildJvm;
import site.ycsb.embedded.crash.CrashVerifier;
import site.ycsb.embedded.crash.CrashWriter;

/**
 * kyoto.repair=true on damaged files, each open in a JVM of its own: Kyoto's repair reads through its map
 * past the end of a file cut short (a SIGBUS) and allocates what a garbled record length says (an abort), so
 * on the code before the repair ran in a process of its own these JVMs died with exit status 134.
 */
class KyotoRepairTest {

  private static final int RECORDS = 3000;
  private static final int VALUE_BYTES = 1000;

  @TempDir
  Path tmp;

  /** Writes RECORDS records into {@code dir} in a child JVM; the keys it acknowledged, one a line. */
  private Path write(Path dir, int records) throws Exception {
    String[] written = ChildJvm.run(tmp, "write", Map.of(), CrashWriter.class, "-db", KyotoClient.class.getName(),
        "-p", "path=" + dir, "-valuesize", Integer.toString(VALUE_BYTES), "-records", Integer.toString(records));
    assertEquals("0", written[0], written[2]);
    assertEquals(records, written[1].lines().count());
    return Files.writeString(tmp.resolve("acked.txt"), written[1]);
  }

  /** Reads every acknowledged key back in a child JVM: {exit status, its counts, its stderr}. */
  private String[] verify(String name, Path dir, Path acked, String... properties) throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of("-db", KyotoClient.class.getName(), "-p", "path=" + dir,
        "-valuesize", Integer.toString(VALUE_BYTES), "-acked", acked.toString()));
    for (String p : properties) {
      args.addAll(List.of("-p", p));
    }
    return ChildJvm.run(tmp, name, Map.of(), CrashVerifier.class, args.toArray(new String[0]));
  }

  private static long count(String verified, String name) {
    return verified.lines().filter(l -> l.startsWith(name + "=")).mapToLong(l -> Long.parseLong(
        l.substring(name.length() + 1))).findFirst().orElse(-1);
  }

  private static String grouped(long n) {
    return String.format(java.util.Locale.ROOT, "%,d", n);
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * A file cut short by 4 KB, 128 KB and 1 MB (Kyoto's repair died of SIGBUS on each): the start succeeds, every
   * record it kept reads back with its exact bytes, the line says how many of the file's own count it kept, the
   * file as it was stays beside it byte for byte, no working file is left, the next start without the property
   * opens the repaired file while a second repair is refused, and destroy deletes the file as it was.
   */
  @Test
  void aFileCutShortIsRepairedOnACopyAndTheLineSaysWhatItKept() throws Exception {
    Path loaded = tmp.resolve("loaded");
    Path acked = write(loaded, RECORDS);
    for (long cut : new long[] {4 << 10, 128 << 10, 1 << 20}) {
      Path dir = tmp.resolve("cut" + cut);
      Files.createDirectories(dir);
      for (String n : names(loaded)) {
        Files.copy(loaded.resolve(n), dir.resolve(n));
      }
      Path file = dir.resolve("ycsb.kct");
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        ch.truncate(ch.size() - cut);
      }
      byte[] cutBytes = Files.readAllBytes(file);

      String[] repaired = verify("repair" + cut, dir, acked, "kyoto.repair=true");
      assertEquals("1", repaired[0], "1: the reads miss what the cut took; " + ChildJvm.CRASHED + " was the"
          + " SIGBUS:\n" + repaired[1] + repaired[2]);
      String out = repaired[1];
      long present = count(out, "present");
      assertTrue(out.contains("open=ok") && out.contains("\nwrong=0\nerrors=0\n") && out.contains("close=ok"),
          out + repaired[2]);
      assertEquals(RECORDS, present + count(out, "lost"), out);
      assertTrue(present > RECORDS / 2 && present < RECORDS, "the records before the cut are back: " + out);
      assertTrue(repaired[2].contains("it kept " + grouped(present) + " of the "
          + grouped(RECORDS) + " records the file's own count held ("
          + grouped(RECORDS - present) + " lost)"), repaired[2]);
      Path backup = dir.resolve("ycsb.kct.before-repair");
      assertTrue(repaired[2].contains("The file as it was is kept as " + backup.toAbsolutePath()), repaired[2]);
      assertArrayEquals(cutBytes, Files.readAllBytes(backup), "the file as it was, untouched");
      assertEquals(List.of(".ycsb-embedded.layout.ycsb.kct", ".ycsb-embedded.lock", "ycsb.kct",
          "ycsb.kct.before-repair"), names(dir), "no working copy or Kyoto temporary file is left");
    }
    Path dir = tmp.resolve("cut" + (1 << 20));
    String[] plain = verify("plain", dir, acked);
    long present = count(plain[1], "present");
    assertTrue(plain[1].contains("open=ok") && plain[1].contains("\nwrong=0\nerrors=0\n") && present > 0,
        "the repaired file opens without the property, its backup beside it:\n" + plain[1] + plain[2]);
    String[] again = verify("again", dir, acked, "kyoto.repair=true");
    assertTrue(again[1].contains("open=failed") && again[1].contains("ycsb.kct.before-repair is still there"),
        again[1] + again[2]);
    assertEquals(present, count(verify("after", dir, acked)[1], "present"), "the refused repair changed nothing");
    assertTrue(verify("destroy", dir, acked, "destroy=true")[1].contains("open=ok"));
    assertEquals(List.of(".ycsb-embedded.layout.ycsb.kct", ".ycsb-embedded.lock", "ycsb.kct"), names(dir),
        "destroy deletes the file as it was with the database");
  }

  /**
   * A record whose value length a damaged page garbled into 2^56 bytes: Kyoto's repair allocates that much and
   * aborts (std::bad_alloc). The start is refused with what happened, the file and the directory are untouched,
   * and the JVM lives.
   */
  @Test
  void aRepairThatDiesFailsTheStartAndLeavesTheFileUntouched() throws Exception {
    Path dir = tmp.resolve("garbled");
    Path acked = write(dir, 200);
    Path file = dir.resolve("ycsb.kct");
    garbleFirstRecord(file);
    byte[] damaged = Files.readAllBytes(file);
    List<String> before = names(dir);

    String[] repaired = verify("repair", dir, acked, "kyoto.repair=true");
    assertEquals("1", repaired[0], "the open failed, the JVM lived (" + ChildJvm.CRASHED + " was the abort):\n"
        + repaired[1] + repaired[2]);
    assertTrue(repaired[1].contains("open=failed") && repaired[1].contains("repair of a copy of " + file)
        && repaired[1].contains("died of signal 6 (abort)") && repaired[1].contains("the file was not changed"),
        repaired[1]);
    assertArrayEquals(damaged, Files.readAllBytes(file));
    assertEquals(before, names(dir));
  }

  /**
   * Writes over the first record of a Kyoto file (kchashdb.h's layout) a header that reads as a 1-byte key and
   * a 2^56-byte value.
   */
  private static void garbleFirstRecord(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer head = ByteBuffer.allocate(64);
      ch.read(head, 0);
      int apow = head.get(9);
      int fpow = head.get(10);
      int opts = head.get(11);
      long buckets = head.getLong(16);
      int width = (opts & 1) != 0 ? 4 : 6; // TSMALL: 32-bit offsets
      boolean linear = (opts & 2) != 0;     // TLINEAR: no right child
      long freeBlockPool = fpow > 0 ? 1L << fpow : 0;
      long bucketsAt = 64 + 6 * freeBlockPool + (freeBlockPool > 0 ? width * 2 + 2 : 0);
      long align = 1L << apow;
      long first = (bucketsAt + width * buckets + align - 1) / align * align;
      ByteBuffer garbled = ByteBuffer.allocate(2 + width * (linear ? 1 : 2) + 1 + 9);
      garbled.put((byte) 0xcc).put((byte) 0); // RECMAGIC, no padding
      garbled.position(garbled.position() + width * (linear ? 1 : 2)); // the chain offsets: zeros
      garbled.put((byte) 1); // key length 1
      garbled.put((byte) 0x81); // value length 2^56: 0x81 then 0x80 x 7 then 0x00 (7 bits a byte)
      for (int i = 0; i < 7; i++) {
        garbled.put((byte) 0x80);
      }
      garbled.put((byte) 0).flip();
      ch.write(garbled, first);
    }
  }
}
