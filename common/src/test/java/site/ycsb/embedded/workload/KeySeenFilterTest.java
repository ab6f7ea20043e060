package site.ycsb.embedded.workload;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KeySeenFilterTest {

  @Test
  void neverForgetsAKeyAndErrsAboutAsOftenAsItSays() {
    KeySeenFilter f = new KeySeenFilter(128 << 10); // 1,048,576 bits
    int n = 100_000; // 10.5 bits a key
    for (int i = 0; i < n; i++) {
      f.seenBefore(HyperLogLog.hash("key" + i));
    }
    for (int i = 0; i < n; i++) {
      assertTrue(f.seenBefore(HyperLogLog.hash("key" + i)), "key" + i);
    }
    int wrong = 0;
    int m = 20_000;
    for (int i = 0; i < m; i++) {
      wrong += f.seenBefore(HyperLogLog.hash("other" + i)) ? 1 : 0;
    }
    double measured = wrong / (double) m;
    double estimate = f.falsePositiveRate(n);
    assertTrue(estimate > 0.004 && estimate < 0.012, "estimate " + estimate);
    assertTrue(measured > estimate / 2 && measured < estimate * 2, "measured " + measured + ", estimate " + estimate);
    assertFalse(new KeySeenFilter(64).seenBefore(HyperLogLog.hash("first")));
  }
}
