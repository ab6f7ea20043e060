/*
 * The engine floor's interface (layer (a) of the layered benchmark, benchmarks/README.md): floor.c is the
 * engine-neutral program (the workload class's data, the clock, the shapes' loops), and each engine's module
 * supplies one FLOOR_ENGINE in its own floor_<engine>.c (<engine>-binding/bench/src/main/c), built together
 * with floor.c into that module's target/native/floor and linked against that engine's C library only.
 */
#ifndef FLOOR_H
#define FLOOR_H

#include <stddef.h>

#define KEY_LEN 16
#define MB (1024L * 1024L)

/* Prints "floor: what: detail" and exits 1: an engine's call that failed ends the step. */
void floor_die(const char *what, const char *detail);

/* An engine's calls, over the handle its open returns. */
typedef struct engine {
  const char *name;
  void *(*open)(const char *dir, int big_memory);
  void (*put)(void *h, const char *k, const char *v, size_t vlen);
  /* Applies n entries as one atomic unit. */
  void (*put_batch)(void *h, char *const *keys, char *const *values, size_t vlen, int n);
  /* The value's length, or -1 when the key is missing. */
  long (*get)(void *h, const char *k);
  /* Reads every entry once in key order; returns how many, adding their value bytes to *bytes. */
  long (*scan_all)(void *h, long *bytes);
  void (*close)(void *h);
  void (*version)(const char *dir, char *out, size_t cap);
} engine;

/* The one engine this floor binary is built with. */
extern const engine FLOOR_ENGINE;

/* A C API in LevelDB's naming (P_put, P_write, P_writebatch_*, P_get, P_free, P_create_iterator, P_iter_*),
 * which LevelDB-derived engines keep: one definition of put, put_batch, get and scan_all, as H_put ... over a
 * handle type H with db, ro and wo, calling P_put ... */
#define LSM_CALLS(P, H)                                                                                  \
  static void H##_put(void *p, const char *k, const char *v, size_t vlen) {                              \
    H *h = p;                                                                                            \
    char *err = NULL;                                                                                    \
    P##_put(h->db, h->wo, k, KEY_LEN, v, vlen, &err);                                                    \
    if (err) floor_die(#P "_put", err);                                                                  \
  }                                                                                                      \
  static void H##_put_batch(void *p, char *const *keys, char *const *values, size_t vlen, int n) {       \
    H *h = p;                                                                                            \
    char *err = NULL;                                                                                    \
    P##_writebatch_t *b = P##_writebatch_create();                                                       \
    for (int i = 0; i < n; i++) {                                                                        \
      P##_writebatch_put(b, keys[i], KEY_LEN, values[i], vlen);                                          \
    }                                                                                                    \
    P##_write(h->db, h->wo, b, &err);                                                                    \
    P##_writebatch_destroy(b);                                                                           \
    if (err) floor_die(#P "_write", err);                                                                \
  }                                                                                                      \
  static long H##_get(void *p, const char *k) {                                                          \
    H *h = p;                                                                                            \
    char *err = NULL;                                                                                    \
    size_t len;                                                                                          \
    char *v = P##_get(h->db, h->ro, k, KEY_LEN, &len, &err);                                             \
    if (err) floor_die(#P "_get", err);                                                                  \
    if (!v) return -1;                                                                                   \
    P##_free(v);                                                                                         \
    return (long) len;                                                                                   \
  }                                                                                                      \
  static long H##_scan_all(void *p, long *bytes) {                                                       \
    H *h = p;                                                                                            \
    long n = 0;                                                                                          \
    P##_iterator_t *it = P##_create_iterator(h->db, h->ro);                                              \
    for (P##_iter_seek_to_first(it); P##_iter_valid(it); P##_iter_next(it), n++) {                       \
      size_t len;                                                                                        \
      P##_iter_value(it, &len);                                                                          \
      *bytes += (long) len;                                                                              \
    }                                                                                                    \
    P##_iter_destroy(it);                                                                                \
    return n;                                                                                            \
  }

#endif
