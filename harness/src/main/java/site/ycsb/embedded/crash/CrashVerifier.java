package site.ycsb.embedded.crash;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The checking half of the crash check: reopens what {@link CrashWriter} wrote, with the same
 * properties, and reads back every acknowledged key (the writer's stdout, given as {@code -acked
 * FILE}). Run by {@code bin/ycsb crash-verify <engine>}. Prints one {@code name=value} per line:
 *
 * <pre>
 * acknowledged=N   complete lines of the file (a line cut by the kill was never acknowledged)
 * present=N        read back with exactly the bytes written
 * lost=N           NOT_FOUND
 * wrong=N          found with other bytes
 * errors=N         the read failed
 * open=ok|failed   and open_error=message when the binding refused to open
 * close=ok|failed  and close_error=message
 * lost_keys=...    the first few lost or wrong keys
 * </pre>
 *
 * <p>Exit status: 0 every acknowledged key present; 1 something lost, wrong or unreadable, or the
 * open or close failed; 2 usage.
 */
public final class CrashVerifier {

  /** How many lost or wrong keys are named. */
  private static final int KEYS_NAMED = 10;

  private CrashVerifier() {
  }

  /** The counts of one verification. */
  static final class Counts {
    long acknowledged;
    long present;
    long lost;
    long wrong;
    long errors;
    String openError;
    String closeError;
    final List<String> badKeys = new ArrayList<>();

    boolean clean() {
      return openError == null && closeError == null && present == acknowledged;
    }

    void print(PrintStream out) {
      out.println("acknowledged=" + acknowledged);
      out.println("present=" + present);
      out.println("lost=" + lost);
      out.println("wrong=" + wrong);
      out.println("errors=" + errors);
      out.println("open=" + (openError == null ? "ok" : "failed"));
      if (openError != null) {
        out.println("open_error=" + oneLine(openError));
      }
      out.println("close=" + (closeError == null ? "ok" : "failed"));
      if (closeError != null) {
        out.println("close_error=" + oneLine(closeError));
      }
      out.println("lost_keys=" + String.join(",", badKeys));
      out.flush();
    }
  }

  public static void main(String[] args) throws Exception {
    CrashRecords run;
    try {
      run = CrashRecords.parse(args);
      if (run.ackedFile == null) {
        throw new CrashRecords.UsageException("-acked FILE (the writer's stdout) is required");
      }
    } catch (CrashRecords.UsageException e) {
      System.err.println("crash-verify: " + e.getMessage());
      System.err.println("usage: crash-verify -db CLASS -acked FILE [-P file]... [-p name=value]..."
          + " [-valuesize BYTES]");
      System.exit(2);
      return;
    }
    Counts counts = verify(run, ackedKeys(Files.readAllBytes(Paths.get(run.ackedFile))));
    counts.print(System.out);
    System.exit(counts.clean() ? 0 : 1);
  }

  /** The complete lines of the writer's output: a line the kill cut short was never acknowledged. */
  static List<String> ackedKeys(byte[] written) {
    String text = new String(written, StandardCharsets.ISO_8859_1);
    int end = text.lastIndexOf('\n');
    List<String> keys = new ArrayList<>();
    if (end < 0) {
      return keys;
    }
    for (String line : text.substring(0, end).split("\n")) {
      if (!line.isEmpty()) {
        keys.add(line);
      }
    }
    return keys;
  }

  static Counts verify(CrashRecords run, List<String> keys) throws ReflectiveOperationException {
    Counts counts = new Counts();
    counts.acknowledged = keys.size();
    DB db = run.newBinding();
    try {
      db.init();
    } catch (DBException | RuntimeException | LinkageError e) {
      counts.openError = String.valueOf(e.getMessage());
      return counts;
    }
    for (String key : keys) {
      Map<String, ByteIterator> row = new HashMap<>();
      Status status = db.read(CrashRecords.TABLE, key, null, row);
      if (Status.NOT_FOUND.equals(status)) {
        counts.lost++;
        name(counts, key);
      } else if (!Status.OK.equals(status)) {
        counts.errors++;
        name(counts, key);
      } else {
        ByteIterator field = row.get(CrashRecords.FIELD);
        if (field != null && Arrays.equals(field.toArray(), CrashRecords.value(key, run.valueSize))) {
          counts.present++;
        } else {
          counts.wrong++;
          name(counts, key);
        }
      }
    }
    try {
      db.cleanup();
    } catch (DBException e) {
      counts.closeError = String.valueOf(e.getMessage());
    }
    return counts;
  }

  private static void name(Counts counts, String key) {
    if (counts.badKeys.size() < KEYS_NAMED) {
      counts.badKeys.add(key);
    }
  }

  private static String oneLine(String message) {
    return message.replace('\n', ' ').replace('\r', ' ');
  }
}
