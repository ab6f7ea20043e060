/*
 * The engine floor of the layered benchmark (layer (a)): the 2011 shapes as a plain C loop over
 * an engine's system library, with the same keys, values, order and tuning as the workload files
 * (benchmarks/README.md). Only the loop is timed, not open or close; read shapes fill first
 * (untimed), close and reopen, like a YCSB load then run. This file is the engine-neutral part: each
 * engine's module builds it with its own floor_<engine>.c (the FLOOR_ENGINE of floor.h) into its
 * target/native/floor, linked against that engine's library.
 *
 *   floor <engine> <shape> <count> <empty-dir>
 *
 * Prints one line: "floor engine=E shape=S count=N us_per_op=X library=...".
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "floor.h"

#define LOAD_SEED 20110727LL

void floor_die(const char *what, const char *detail) {
  fprintf(stderr, "floor: %s: %s\n", what, detail ? detail : "(no detail)");
  exit(1);
}

/* ---- the workload class's data, byte for byte ---------------------------------------------- */

/* java.util.Random: the 48-bit LCG and nextInt(bound) of the JDK, so the pool matches Java's. */
static uint64_t jrandom_seed;
static void jrandom_init(int64_t seed) { jrandom_seed = ((uint64_t) seed ^ 0x5DEECE66DULL) & ((1ULL << 48) - 1); }
static int32_t jrandom_next(int bits) {
  jrandom_seed = (jrandom_seed * 0x5DEECE66DULL + 0xBULL) & ((1ULL << 48) - 1);
  return (int32_t) (jrandom_seed >> (48 - bits));
}
static int32_t jrandom_next_int(int32_t bound) {
  int32_t r = jrandom_next(31);
  int32_t m = bound - 1;
  if ((bound & m) == 0) {
    return (int32_t) (((int64_t) bound * r) >> 31);
  }
  for (int64_t u = r; u - (r = (int32_t) (u % bound)) + m > INT32_MAX; u = jrandom_next(31)) {
  }
  return r;
}

/* CompressibleValues: a 1 MB pool of printable bytes; each 100-byte piece repeats its first half. */
#define POOL (1 << 20)
#define PIECE 100
static char pool[POOL];
static int64_t pool_cursor;
static void values_init(void) {
  jrandom_init(LOAD_SEED);
  for (int i = 0; i < POOL; i++) {
    pool[i] = (char) (' ' + jrandom_next_int(95));
  }
}
static void value_next(char *v, size_t length) {
  for (size_t at = 0; at < length; at += PIECE) {
    size_t piece = length - at < PIECE ? length - at : PIECE;
    size_t raw = (piece + 1) / 2; /* ceil(0.5 * piece), at least 1 */
    int64_t from = pool_cursor % (POOL - PIECE);
    pool_cursor += (int64_t) raw;
    memcpy(v + at, pool + from, raw);
    for (size_t filled = raw; filled < piece; filled += raw) {
      memcpy(v + at + filled, v + at, raw < piece - filled ? raw : piece - filled);
    }
  }
}

/* SplitMix64.draw: the workload class's key of insert i drawn with replacement from [0, n). */
static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static uint64_t draw(int64_t seed, uint64_t i, uint64_t n) {
  return mix((uint64_t) seed + (i + 1) * 0x9E3779B97F4A7C15ULL) % n;
}

static void key_of(char *k, uint64_t keynum) {
  for (int i = KEY_LEN - 1; i >= 0; i--) {
    k[i] = (char) ('0' + keynum % 10);
    keynum /= 10;
  }
}

/* ---- shapes -------------------------------------------------------------------------------- */

/* The wall clock (monotonic), as db_bench times. */
static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* Writes count entries (values of vlen bytes) in key order or with keys drawn with replacement,
 * batch entries per atomic unit (1: plain puts); returns the microseconds the loop took. */
static double fill(const engine *e, void *h, long count, int random, size_t vlen, int batch) {
  char **keys = malloc(sizeof(char *) * (size_t) count);
  char **values = malloc(sizeof(char *) * (size_t) count);
  if (!keys || !values) floor_die("fill", "out of memory");
  for (long i = 0; i < count; i++) {
    keys[i] = malloc(KEY_LEN);
    values[i] = malloc(vlen);
    if (!keys[i] || !values[i]) floor_die("fill", "out of memory");
    key_of(keys[i], random ? draw(LOAD_SEED, (uint64_t) i, (uint64_t) count) : (uint64_t) i);
    value_next(values[i], vlen);
  }
  double t0 = now_us();
  if (batch > 1) {
    for (long i = 0; i < count; i += batch) {
      e->put_batch(h, keys + i, values + i, vlen, (int) (count - i < batch ? count - i : batch));
    }
  } else {
    for (long i = 0; i < count; i++) {
      e->put(h, keys[i], values[i], vlen);
    }
  }
  double t1 = now_us();
  for (long i = 0; i < count; i++) {
    free(keys[i]);
    free(values[i]);
  }
  free(keys);
  free(values);
  return t1 - t0;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: floor %s <fillseq|fillrandom|readrandom|readseq|fill100k|fillbatch|fillrandom128m>"
                    " <count> <empty-dir>\n", FLOOR_ENGINE.name);
    return 2;
  }
  const engine *e = &FLOOR_ENGINE;
  if (strcmp(e->name, argv[1]) != 0) floor_die("unknown engine", argv[1]);
  const char *shape = argv[2];
  char *end;
  long count = strtol(argv[3], &end, 10);
  if (*end || count < 1) floor_die("count must be a positive number, got", argv[3]);
  const char *dir = argv[4];
  values_init();

  double us;
  long entries = count; /* per entry: a pass reads the distinct keys the fill left */
  int big = strcmp(shape, "fillrandom128m") == 0;
  void *h = e->open(dir, big);
  if (strcmp(shape, "fillseq") == 0) {
    us = fill(e, h, count, 0, 100, 1);
  } else if (strcmp(shape, "fillrandom") == 0 || big) {
    us = fill(e, h, count, 1, 100, 1);
  } else if (strcmp(shape, "fill100k") == 0) {
    us = fill(e, h, count, 0, 100000, 1);
  } else if (strcmp(shape, "fillbatch") == 0) {
    us = fill(e, h, count, 0, 100, 1000);
  } else if (strcmp(shape, "readrandom") == 0 || strcmp(shape, "readseq") == 0) {
    fill(e, h, count, 1, 100, 1);
    e->close(h);
    h = e->open(dir, 0);
    /* What the reads must find: the distinct keys of the fill (readseq), or the reads whose key the
     * fill drew (readrandom), counted untimed from the same draws. */
    int readrandom = strcmp(shape, "readrandom") == 0;
    unsigned char *loaded = calloc((size_t) count / 8 + 1, 1);
    if (!loaded) floor_die("read", "out of memory");
    long expected = 0;
    for (long i = 0; i < count; i++) {
      uint64_t x = draw(LOAD_SEED, (uint64_t) i, (uint64_t) count);
      expected += !(loaded[x / 8] & (1u << (x % 8)));
      loaded[x / 8] |= (unsigned char) (1u << (x % 8));
    }
    if (readrandom) {
      expected = 0;
      for (long i = 0; i < count; i++) {
        uint64_t x = draw(LOAD_SEED + 1, (uint64_t) i, (uint64_t) count);
        expected += (loaded[x / 8] >> (x % 8)) & 1;
      }
    }
    free(loaded);
    long found = 0, bytes = 0;
    double t0 = now_us();
    if (readrandom) {
      char k[KEY_LEN];
      for (long i = 0; i < count; i++) {
        key_of(k, draw(LOAD_SEED + 1, (uint64_t) i, (uint64_t) count));
        long len = e->get(h, k);
        if (len >= 0) {
          found++;
          bytes += len;
        }
      }
    } else {
      found = e->scan_all(h, &bytes);
    }
    us = now_us() - t0;
    if (!readrandom) entries = found;
    if (found != expected || bytes != 100 * expected) {
      fprintf(stderr, "floor: %s %s found %ld entries (expected %ld of %ld), %ld value bytes\n", e->name, shape, found,
              expected, count, bytes);
      return 1;
    }
  } else {
    floor_die("unknown shape", shape);
  }
  e->close(h);
  char version[256];
  e->version(dir, version, sizeof version);
  printf("floor engine=%s shape=%s count=%ld us_per_op=%.4f library=%s\n", e->name, shape, count,
         us / (double) entries, version);
  return 0;
}
