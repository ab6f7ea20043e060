package site.ycsb.embedded.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import site.ycsb.measurements.Measurements;

/**
 * The progress thread sleeps between the records it was asked for: without -s its status deadline, which only a
 * status line moves on, must not wake it (status.interval=0 puts that deadline in the past from the start).
 */
class ProgressTest {

  private static final int SAMPLES = 50;

  @Test
  void withoutStatusOrIntervalsItWaitsForTheEndAlone() throws Exception {
    Properties p = new Properties();
    p.setProperty("status.interval", "0");
    CountDownLatch done = new CountDownLatch(1);
    Progress progress = new Progress(List.of(), done, new Measurements(p), p, false);
    progress.start();
    try {
      assertTrue(reaches(progress, Thread.State.WAITING), "the thread never waited: it is " + progress.getState());
      assertEquals(SAMPLES, count(progress, Thread.State.WAITING), "every look finds it waiting for the end");
    } finally {
      done.countDown();
      progress.join(5000);
    }
    assertEquals(Thread.State.TERMINATED, progress.getState());
  }

  @Test
  void withIntervalsAloneItSleepsUntilTheNextOne(@TempDir Path dir) throws Exception {
    Properties p = new Properties();
    p.setProperty("status.interval", "0");
    Path file = dir.resolve("intervals.csv");
    p.setProperty(Progress.FILE, file.toString());
    p.setProperty(Progress.MILLIS, "50");
    CountDownLatch done = new CountDownLatch(1);
    Progress progress = new Progress(List.of(), done, new Measurements(p), p, false);
    progress.start();
    int sleeping;
    try {
      assertTrue(reaches(progress, Thread.State.TIMED_WAITING), "the thread never slept: " + progress.getState());
      sleeping = count(progress, Thread.State.TIMED_WAITING);
    } finally {
      done.countDown();
      progress.join(5000);
    }
    // it wakes every 50 ms for a record and is caught awake at most now and then (a spinning thread: never asleep)
    assertTrue(sleeping >= SAMPLES * 4 / 5, "asleep at " + sleeping + " of " + SAMPLES + " looks");
    progress.writeIntervals();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertEquals("# elapsed_ms,operations (every 50 ms of the measured step)", lines.get(0));
    assertTrue(lines.size() >= 3, "records of each 50 ms: " + lines);
    assertTrue(lines.get(1).matches("\\d+,0"), lines.get(1));
  }

  /** Whether the thread is seen in {@code state} within 5 s. */
  private static boolean reaches(Thread t, Thread.State state) throws InterruptedException {
    for (int i = 0; i < 5000; i++) {
      if (t.getState() == state) {
        return true;
      }
      Thread.sleep(1);
    }
    return false;
  }

  /** In how many of {@link #SAMPLES} looks, 2 ms apart, the thread is in {@code state}. */
  private static int count(Thread t, Thread.State state) throws InterruptedException {
    int n = 0;
    for (int i = 0; i < SAMPLES; i++) {
      if (t.getState() == state) {
        n++;
      }
      Thread.sleep(2);
    }
    return n;
  }
}
