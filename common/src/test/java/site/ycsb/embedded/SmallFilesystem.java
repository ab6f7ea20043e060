package site.ycsb.embedded;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A small tmpfs mounted on a test directory, to fill a filesystem for real. Mounting needs root
 * (CI runs as root). Where it is impossible the test fails when the environment variable CI is
 * set, and is skipped with a loud message otherwise.
 */
public final class SmallFilesystem implements AutoCloseable {

  private final Path mountPoint;

  private SmallFilesystem(Path mountPoint) {
    this.mountPoint = mountPoint;
  }

  /** Mounts a tmpfs of {@code megabytes} on {@code mountPoint} (created). */
  public static SmallFilesystem mount(Path mountPoint, int megabytes) throws IOException, InterruptedException {
    Files.createDirectories(mountPoint);
    String[] r = run("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs", mountPoint.toString());
    if (!r[0].equals("0")) {
      String why = "cannot mount a " + megabytes + " MB tmpfs on " + mountPoint + " (needs root): " + r[1].trim();
      if (System.getenv("CI") != null) {
        Assertions.fail("CI is set, so the full-disk test must run: " + why);
      }
      System.err.println("*** SKIPPED: the full-disk test did not run: " + why + " ***");
      Assumptions.abort(why);
    }
    return new SmallFilesystem(mountPoint);
  }

  /** Changes the size, keeping the contents (the disk "freed"). */
  public void resize(int megabytes) throws IOException, InterruptedException {
    String[] r = run("mount", "-o", "remount,size=" + megabytes + "m", mountPoint.toString());
    Assertions.assertEquals("0", r[0], "remount of " + mountPoint + ": " + r[1]);
  }

  /** Writes a file with plain write() calls until the filesystem is full; returns its path. */
  public Path fill(String name) throws IOException {
    Path filler = mountPoint.resolve(name);
    ByteBuffer chunk = ByteBuffer.allocate(64 << 10);
    try (FileChannel ch = FileChannel.open(filler, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      while (true) {
        chunk.clear();
        ch.write(chunk);
      }
    } catch (IOException e) {
      if (!String.valueOf(e.getMessage()).contains("No space left")) {
        throw e;
      }
    }
    return filler;
  }

  @Override
  public void close() throws IOException {
    try {
      String[] r = run("umount", mountPoint.toString());
      if (!r[0].equals("0")) {
        run("umount", "-l", mountPoint.toString()); // never leave a mount behind
        Assertions.fail("umount " + mountPoint + " failed (a file still open?): " + r[1]);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while unmounting " + mountPoint, e);
    }
  }

  private static String[] run(String... command) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(command));
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      return new String[] {"-1", e.toString()};
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new String[] {Integer.toString(p.waitFor()), out};
  }
}
