/*
 * setloop.c: the C baseline for the JNI layer's per-call cost (its Java side, KyotoNativeSetBench, is in git history:
 * git show 9048d1c:benchmarks/src/main/java/site/ycsb/embedded/bench/KyotoNativeSetBench.java).
 * Sets n sequential 16-byte keys with 100-byte values into a fresh TreeDB through kclangc and
 * prints sets/s. Build and run (not part of the Maven build):
 *   gcc -O2 -o /tmp/setloop kyoto-binding/src/test/c/setloop.c -lkyotocabinet
 *   /tmp/setloop /tmp/setloop.kct 1000000
 */
#include <kclangc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: setloop file.kct[#tuning] count\n");
    return 2;
  }
  long n = atol(argv[2]);
  char value[100];
  for (int i = 0; i < 100; i++) {
    value[i] = (char)('a' + i % 26);
  }
  KCDB* db = kcdbnew();
  if (!kcdbopen(db, argv[1], KCOWRITER | KCOCREATE | KCOTRUNCATE | KCOTRYLOCK)) {
    fprintf(stderr, "open: %s\n", kcdbemsg(db));
    kcdbdel(db);
    return 1;
  }
  char key[17];
  double t0 = kctime();
  for (long i = 0; i < n; i++) {
    snprintf(key, sizeof key, "%016ld", i);
    if (!kcdbset(db, key, 16, value, sizeof value)) {
      fprintf(stderr, "set: %s\n", kcdbemsg(db));
      return 1;
    }
  }
  double t1 = kctime();
  kcdbclose(db);
  kcdbdel(db);
  printf("C kclangc: %ld sets in %.3f s = %.0f sets/s (close %.3f s)\n", n, t1 - t0, n / (t1 - t0), kctime() - t1);
  return 0;
}
