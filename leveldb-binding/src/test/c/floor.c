/*
 * floor.c: the C floors of the LevelDB library comparison (bench/compare-libraries.sh), over the
 * system LevelDB with the options the binding passes (leveldb.library=system), on a database the
 * binding loaded (and closed):
 *  - without a key file, the sequential read pass (db_bench's readseq): one iterator from the first
 *    key to the last, touching every key and value, as many passes as asked (like YCSB's readseq
 *    operations); prints entries/s over all passes;
 *  - with a key file (one key per line, as WorkloadKeys writes the keys workload C reads), a point
 *    get of every key in the file, as many passes as asked; prints us per get over all passes.
 * Build and run (not part of the Maven build):
 *   gcc -O2 -o /tmp/floor leveldb-binding/src/test/c/floor.c -lleveldb
 *   /tmp/floor data/leveldb-system 134217728 10 3            # directory, cache bytes, bloom bits, passes
 *   /tmp/floor data/leveldb-system 134217728 10 3 keys.txt   # the same, point gets of keys.txt
 */
#include <leveldb/c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

/* The sequential pass, as often as asked; 0, or 1 after an iterator error. */
static int pass(leveldb_t* db, leveldb_readoptions_t* read, int passes) {
  char* err = NULL;
  double t0 = now();
  long entries = 0;
  uint64_t bytes = 0;
  for (int pass = 0; pass < passes && err == NULL; pass++) {
    leveldb_iterator_t* it = leveldb_create_iterator(db, read);
    for (leveldb_iter_seek_to_first(it); leveldb_iter_valid(it); leveldb_iter_next(it)) {
      size_t klen, vlen;
      const char* k = leveldb_iter_key(it, &klen);
      const char* v = leveldb_iter_value(it, &vlen);
      bytes += klen + vlen + (uint8_t)k[0] + (uint8_t)(vlen ? v[0] : 0); /* touch both */
      entries++;
    }
    leveldb_iter_get_error(it, &err);
    leveldb_iter_destroy(it);
  }
  double seconds = now() - t0;
  if (err != NULL) {
    fprintf(stderr, "iterator: %s\n", err);
    leveldb_free(err);
    return 1;
  }
  printf("readseq: %d passes, %ld entries in %.3f s: %.0f entries/sec (checksum %llu)\n", passes, entries,
         seconds, entries / seconds, (unsigned long long)bytes);
  return 0;
}

/* A get of every key in the file (one per line), as often as asked; 0, or 1 after an error or a
 * missing key (the file's keys are the loaded ones). */
static int point_gets(leveldb_t* db, leveldb_readoptions_t* read, const char* file, int passes) {
  FILE* in = fopen(file, "r");
  if (in == NULL) {
    perror(file);
    return 1;
  }
  size_t n = 0, cap = 1024;
  char** keys = malloc(cap * sizeof *keys);
  char line[1024];
  while (fgets(line, sizeof line, in) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    if (n == cap) {
      cap *= 2;
      keys = realloc(keys, cap * sizeof *keys);
    }
    keys[n++] = strdup(line);
  }
  fclose(in);
  char* err = NULL;
  long found = 0;
  uint64_t bytes = 0;
  double t0 = now();
  for (int p = 0; p < passes && err == NULL; p++) {
    for (size_t i = 0; i < n && err == NULL; i++) {
      size_t vlen;
      char* v = leveldb_get(db, read, keys[i], strlen(keys[i]), &vlen, &err);
      if (v != NULL) {
        found++;
        bytes += vlen + (uint8_t)(vlen ? v[0] : 0); /* touch it */
        leveldb_free(v);
      }
    }
  }
  double seconds = now() - t0;
  for (size_t i = 0; i < n; i++) {
    free(keys[i]);
  }
  free(keys);
  if (err != NULL || found != (long)n * passes) {
    fprintf(stderr, "gets: %s, %ld of %ld found\n", err != NULL ? err : "no error", found, (long)n * passes);
    leveldb_free(err);
    return 1;
  }
  printf("gets: %d passes, %ld gets in %.3f s: %.3f us/get (checksum %llu)\n", passes, found, seconds,
         seconds * 1e6 / found, (unsigned long long)bytes);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: floor directory cache-bytes bloom-bits [passes [key-file]]\n");
    return 2;
  }
  int passes = argc > 4 ? atoi(argv[4]) : 1;
  leveldb_options_t* options = leveldb_options_create();
  leveldb_cache_t* cache = leveldb_cache_create_lru((size_t)atoll(argv[2]));
  int bits = atoi(argv[3]);
  leveldb_filterpolicy_t* filter = bits > 0 ? leveldb_filterpolicy_create_bloom(bits) : NULL;
  leveldb_options_set_cache(options, cache);
  if (filter != NULL) {
    leveldb_options_set_filter_policy(options, filter);
  }
  char* err = NULL;
  leveldb_t* db = leveldb_open(options, argv[1], &err);
  if (err != NULL) {
    fprintf(stderr, "open: %s\n", err);
    leveldb_free(err);
    return 1;
  }
  leveldb_readoptions_t* read = leveldb_readoptions_create();
  int status = argc > 5 ? point_gets(db, read, argv[5], passes) : pass(db, read, passes);
  leveldb_readoptions_destroy(read);
  leveldb_close(db);
  leveldb_options_destroy(options);
  if (filter != NULL) {
    leveldb_filterpolicy_destroy(filter);
  }
  leveldb_cache_destroy(cache);
  return status;
}
