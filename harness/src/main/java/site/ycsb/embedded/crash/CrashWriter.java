package site.ycsb.embedded.crash;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The writing half of the crash check: opens a binding, inserts records whose value is a function
 * of the key, and prints each key on stdout once the binding has acknowledged it, until it is
 * killed (or has written {@code -records} records). Run by {@code bin/ycsb crash-write <engine>}.
 *
 * <p>An acknowledgement is {@code Status.OK} from {@code insert}. {@code BATCHED_OK} only queues the
 * record; the queued keys are printed with the {@code OK} that applies their batch. Each
 * acknowledgement is one {@code write(2)} on stdout, so a key the parent can read was acknowledged,
 * whatever moment the kill comes at.
 *
 * <p>Exit status: 0 all records written and closed; 1 an insert or the close failed; 2 usage;
 * 3 the binding refused to open.
 */
public final class CrashWriter {

  private CrashWriter() {
  }

  public static void main(String[] args) throws Exception {
    CrashRecords run;
    try {
      run = CrashRecords.parse(args);
    } catch (CrashRecords.UsageException e) {
      System.err.println("crash-write: " + e.getMessage());
      System.err.println("usage: crash-write -db CLASS [-P file]... [-p name=value]... [-valuesize BYTES]"
          + " [-records N]");
      System.exit(2);
      return;
    }
    System.exit(write(run, new FileOutputStream(FileDescriptor.out)));
  }

  /** Writes until killed or done; returns the exit status. */
  static int write(CrashRecords run, OutputStream acked) throws ReflectiveOperationException, IOException {
    DB db = run.newBinding();
    try {
      db.init();
    } catch (DBException | RuntimeException e) {
      System.err.println("crash-write: open failed: " + e.getMessage());
      return 3;
    }
    System.err.printf("crash-write: %s open; writing records of %d bytes%n", run.bindingClass, run.valueSize);
    List<String> queued = new ArrayList<>();
    for (long n = 0; n < run.records; n++) {
      String key = CrashRecords.key(n);
      Status status = db.insert(CrashRecords.TABLE, key, CrashRecords.fields(key, run.valueSize));
      if (Status.BATCHED_OK.equals(status)) {
        queued.add(key);
        continue;
      }
      if (!Status.OK.equals(status)) {
        System.err.printf("crash-write: insert of %s returned %s after %d acknowledged%n", key, status, n);
        cleanupQuietly(db);
        return 1;
      }
      queued.add(key);
      acknowledge(acked, queued);
    }
    try {
      db.cleanup();   // applies the last batch: its keys are acknowledged only once this returns
    } catch (DBException e) {
      System.err.println("crash-write: close failed: " + e.getMessage());
      return 1;
    }
    acknowledge(acked, queued);
    System.err.printf("crash-write: wrote and closed all %d records%n", run.records);
    return 0;
  }

  /** One write call for all keys the last OK acknowledged. */
  private static void acknowledge(OutputStream acked, List<String> keys) throws IOException {
    if (keys.isEmpty()) {
      return;
    }
    StringBuilder lines = new StringBuilder();
    for (String k : keys) {
      lines.append(k).append('\n');
    }
    acked.write(lines.toString().getBytes(StandardCharsets.ISO_8859_1));
    acked.flush();
    keys.clear();
  }

  private static void cleanupQuietly(DB db) {
    try {
      db.cleanup();
    } catch (DBException e) {
      System.err.println("crash-write: close failed too: " + e.getMessage());
    }
  }
}
