/*
 * LevelDB's engine floor (floor.h): the calls floor.c's loops make, over the system libleveldb; built
 * with floor.c into target/native/floor (this module's pom.xml).
 */
#include <stdio.h>
#include <stdlib.h>

#include <leveldb/c.h>

#include "floor.h"

/* LevelDB: the workload's 2 MB write buffer + 2 MB block cache (120 MB + 8 MB big), Snappy, 4 KB
 * blocks, 1,000 open files (the binding's settings). */
typedef struct {
  leveldb_t *db;
  leveldb_options_t *options;
  leveldb_cache_t *cache;
  leveldb_readoptions_t *ro;
  leveldb_writeoptions_t *wo;
} ldb;
static void *ldb_open(const char *dir, int big) {
  ldb *h = calloc(1, sizeof *h);
  char *err = NULL;
  h->cache = leveldb_cache_create_lru(big ? 8 * MB : 2 * MB);
  h->options = leveldb_options_create();
  leveldb_options_set_create_if_missing(h->options, 1);
  leveldb_options_set_cache(h->options, h->cache);
  leveldb_options_set_write_buffer_size(h->options, big ? 120 * MB : 2 * MB);
  leveldb_options_set_compression(h->options, leveldb_snappy_compression);
  leveldb_options_set_block_size(h->options, 4096);
  leveldb_options_set_max_open_files(h->options, 1000);
  h->db = leveldb_open(h->options, dir, &err);
  if (err) floor_die("leveldb_open", err);
  h->ro = leveldb_readoptions_create();
  h->wo = leveldb_writeoptions_create();
  return h;
}
LSM_CALLS(leveldb, ldb)
static void ldb_close(void *p) {
  ldb *h = p;
  leveldb_close(h->db);
  leveldb_readoptions_destroy(h->ro);
  leveldb_writeoptions_destroy(h->wo);
  leveldb_options_destroy(h->options);
  leveldb_cache_destroy(h->cache);
  free(h);
}
static void ldb_version(const char *dir, char *out, size_t cap) {
  (void) dir;
  snprintf(out, cap, "LevelDB %d.%d (system libleveldb)", leveldb_major_version(), leveldb_minor_version());
}

const engine FLOOR_ENGINE = {"leveldb", ldb_open, ldb_put, ldb_put_batch, ldb_get, ldb_scan_all, ldb_close,
                             ldb_version};
