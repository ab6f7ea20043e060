/*
 * Kyoto Cabinet's engine floor (floor.h): the calls floor.c's loops make, over the system
 * libkyotocabinet; built with floor.c into target/native/floor (this module's pom.xml).
 */
#include <stdio.h>

#include <kclangc.h>

#include "floor.h"

/* Kyoto TreeDB: the 2011 tuning string the binding builds from the workload (options small,
 * linear, compress with LZO; 1 KB pages; 4 MB or 128 MB page cache; 256 MB map). */
static void *kdb_open(const char *dir, int big) {
  char name[4200];
  KCDB *db = kcdbnew();
  snprintf(name, sizeof name, "%s/ycsb.kct#opts=slc#zcomp=lzo#psiz=1024#pccap=%ld#msiz=%ld", dir,
           big ? 128 * MB : 4 * MB, 256 * MB);
  if (!kcdbopen(db, name, KCOWRITER | KCOCREATE | KCOTRYLOCK)) floor_die("kcdbopen", kcdbemsg(db));
  return db;
}
static void kdb_put(void *p, const char *k, const char *v, size_t vlen) {
  if (!kcdbset(p, k, KEY_LEN, v, vlen)) floor_die("kcdbset", kcdbemsg(p));
}
static void kdb_put_batch(void *p, char *const *keys, char *const *values, size_t vlen, int n) {
  if (!kcdbbegintran(p, 0)) floor_die("kcdbbegintran", kcdbemsg(p));
  for (int i = 0; i < n; i++) {
    kdb_put(p, keys[i], values[i], vlen);
  }
  if (!kcdbendtran(p, 1)) floor_die("kcdbendtran", kcdbemsg(p));
}
static long kdb_get(void *p, const char *k) {
  size_t len;
  char *v = kcdbget(p, k, KEY_LEN, &len);
  if (!v) return -1;
  kcfree(v);
  return (long) len;
}
static long kdb_scan_all(void *p, long *bytes) {
  long n = 0;
  KCCUR *cur = kcdbcursor(p);
  if (kccurjump(cur)) {
    size_t klen, vlen;
    const char *v;
    char *k;
    while ((k = kccurget(cur, &klen, &v, &vlen, 1)) != NULL) {
      *bytes += (long) vlen;
      kcfree(k);
      n++;
    }
  }
  kccurdel(cur);
  return n;
}
static void kdb_close(void *p) {
  if (!kcdbclose(p)) floor_die("kcdbclose", kcdbemsg(p));
  kcdbdel(p);
}
static void kdb_version(const char *dir, char *out, size_t cap) {
  (void) dir;
  snprintf(out, cap, "Kyoto Cabinet %s (system libkyotocabinet)", KCVERSION);
}

const engine FLOOR_ENGINE = {"kyoto", kdb_open, kdb_put, kdb_put_batch, kdb_get, kdb_scan_all, kdb_close,
                             kdb_version};
