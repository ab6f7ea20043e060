/*
 * readseq.c: the C floor for the sequential read pass (db_bench's readseq) over the system
 * LevelDB, with the options the binding passes (leveldb.library=system): one iterator from the
 * first key to the last, touching every key and value, as many passes as asked (like YCSB's
 * readseq operations), then prints entries/s over all passes. Run it on a database the binding
 * loaded (and closed). Build and run (not part of the Maven build):
 *   gcc -O2 -o /tmp/readseq leveldb-binding/src/test/c/readseq.c -lleveldb
 *   /tmp/readseq data/leveldb-system 134217728 10 3   # directory, cache bytes, bloom bits, passes
 */
#include <leveldb/c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: readseq directory cache-bytes bloom-bits [passes]\n");
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
  int status = 0;
  if (err != NULL) {
    fprintf(stderr, "iterator: %s\n", err);
    leveldb_free(err);
    status = 1;
  }
  printf("readseq: %d passes, %ld entries in %.3f s: %.0f entries/sec (checksum %llu)\n", passes, entries,
         seconds, entries / seconds, (unsigned long long)bytes);
  leveldb_readoptions_destroy(read);
  leveldb_close(db);
  leveldb_options_destroy(options);
  if (filter != NULL) {
    leveldb_filterpolicy_destroy(filter);
  }
  leveldb_cache_destroy(cache);
  return status;
}
