/*
 * RocksDB's engine floor (floor.h): the calls floor.c's loops make, over the system librocksdb
 * (target/native/floor), and, built again with -DFLOOR_ROCKSDBJNI, over the native library inside
 * the rocksdbjni jar, which exports RocksDB's C API (target/native/floor-rocksdbjni, layer (a')):
 * the same loop over the Java library's own RocksDB build (this module's pom.xml).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rocksdb/c.h>

#include "floor.h"

/* RocksDB: the binding's defaults as the workload overrides them (2 MB memtable, 2 MB LRU cache,
 * or 120 MB + 8 MB), Snappy, 4 KB blocks, no Bloom filter, the binding's level shape. */
typedef struct {
  rocksdb_t *db;
  rocksdb_options_t *options;
  rocksdb_block_based_table_options_t *table;
  rocksdb_cache_t *cache;
  rocksdb_readoptions_t *ro;
  rocksdb_writeoptions_t *wo;
} rdb;
static void *rdb_open(const char *dir, int big) {
  rdb *h = calloc(1, sizeof *h);
  char *err = NULL;
  h->cache = rocksdb_cache_create_lru(big ? 8 * MB : 2 * MB);
  h->table = rocksdb_block_based_options_create();
  rocksdb_block_based_options_set_block_cache(h->table, h->cache);
  rocksdb_block_based_options_set_block_size(h->table, 4096);
  h->options = rocksdb_options_create();
  rocksdb_options_set_create_if_missing(h->options, 1);
  rocksdb_options_set_block_based_table_factory(h->options, h->table);
  rocksdb_options_set_write_buffer_size(h->options, big ? 120 * MB : 2 * MB);
  rocksdb_options_set_max_write_buffer_number(h->options, 2);
  rocksdb_options_set_level0_file_num_compaction_trigger(h->options, 4);
  rocksdb_options_set_level0_slowdown_writes_trigger(h->options, 20);
  rocksdb_options_set_level0_stop_writes_trigger(h->options, 36);
  rocksdb_options_set_target_file_size_base(h->options, 64 * MB);
  rocksdb_options_set_max_bytes_for_level_base(h->options, 256 * MB);
  rocksdb_options_set_level_compaction_dynamic_level_bytes(h->options, 1);
  rocksdb_options_set_max_background_jobs(h->options, 2);
  rocksdb_options_set_max_open_files(h->options, -1);
  rocksdb_options_set_compression(h->options, rocksdb_snappy_compression);
  h->db = rocksdb_open(h->options, dir, &err);
  if (err) floor_die("rocksdb_open", err);
  h->ro = rocksdb_readoptions_create();
  h->wo = rocksdb_writeoptions_create();
  return h;
}
LSM_CALLS(rocksdb, rdb)
static void rdb_close(void *p) {
  rdb *h = p;
  rocksdb_close(h->db);
  rocksdb_readoptions_destroy(h->ro);
  rocksdb_writeoptions_destroy(h->wo);
  rocksdb_options_destroy(h->options);
  rocksdb_block_based_options_destroy(h->table);
  rocksdb_cache_destroy(h->cache);
  free(h);
}
#ifdef FLOOR_ROCKSDBJNI
#define ROCKSDB_FLOOR_LIBRARY "rocksdbjni's native library, release build"
#else
#define ROCKSDB_FLOOR_LIBRARY "system librocksdb, built with assertions on: not a fair floor"
#endif
/* The C API has no version call (version.h is C++): the engine writes it at the top of its LOG. */
static void rdb_version(const char *dir, char *out, size_t cap) {
  char path[4096], line[512];
  snprintf(out, cap, "RocksDB (%s; version not found in LOG)", ROCKSDB_FLOOR_LIBRARY);
  snprintf(path, sizeof path, "%s/LOG", dir);
  FILE *f = fopen(path, "r");
  if (!f) return;
  while (fgets(line, sizeof line, f)) {
    char *at = strstr(line, "RocksDB version: ");
    if (at) {
      at += strlen("RocksDB version: ");
      at[strcspn(at, "\r\n")] = 0;
      snprintf(out, cap, "RocksDB %s (%s)", at, ROCKSDB_FLOOR_LIBRARY);
      break;
    }
  }
  fclose(f);
}

const engine FLOOR_ENGINE = {"rocksdb", rdb_open, rdb_put, rdb_put_batch, rdb_get, rdb_scan_all, rdb_close,
                             rdb_version};
