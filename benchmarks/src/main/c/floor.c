/*
 * The engine floor of the layered benchmark (layer (a)): the 2011 shapes as a plain C loop over
 * the system library of each engine, with the same keys, values, order and tuning as the workload
 * files (benchmarks/README.md). Only the loop is timed, not open or close; read shapes fill first
 * (untimed), close and reopen, like a YCSB load then run.
 * Longer than 500 lines: the one program benchmarks/pom.xml builds with one gcc call (twice, for
 * floor-rocksdbjni) holds the five engines' adapters beside the one timed loop they all go through.
 *
 *   floor <leveldb|rocksdb|sqlite|kyoto|lmdb> <shape> <count> <empty-dir>
 *
 * Prints one line: "floor engine=E shape=S count=N us_per_op=X library=...".
 * Built a second time with -DFLOOR_ROCKSDBJNI as floor-rocksdbjni, RocksDB only, linked against the
 * native library inside the rocksdbjni jar (which exports RocksDB's C API; leveldbjni and
 * sqlite-jdbc hide their engines' C symbols): the same loop over the Java library's RocksDB build.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rocksdb/c.h>
#ifndef FLOOR_ROCKSDBJNI
#include <kclangc.h>
#include <leveldb/c.h>
#include <lmdb.h>
#include <sqlite3.h>
#endif

#define KEY_LEN 16
#define LOAD_SEED 20110727LL
#define MB (1024L * 1024L)

static void die(const char *what, const char *detail) {
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

/* ---- engines ------------------------------------------------------------------------------- */

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

/* LevelDB's and RocksDB's C APIs name the same calls alike (leveldb_put, rocksdb_put, ...): one definition of
 * put, put_batch, get and scan_all for both, as H_put ... over a handle H with db, ro and wo, calling P_put ... */
#define LSM_CALLS(P, H)                                                                                  \
  static void H##_put(void *p, const char *k, const char *v, size_t vlen) {                              \
    H *h = p;                                                                                            \
    char *err = NULL;                                                                                    \
    P##_put(h->db, h->wo, k, KEY_LEN, v, vlen, &err);                                                    \
    if (err) die(#P "_put", err);                                                                        \
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
    if (err) die(#P "_write", err);                                                                      \
  }                                                                                                      \
  static long H##_get(void *p, const char *k) {                                                          \
    H *h = p;                                                                                            \
    char *err = NULL;                                                                                    \
    size_t len;                                                                                          \
    char *v = P##_get(h->db, h->ro, k, KEY_LEN, &len, &err);                                             \
    if (err) die(#P "_get", err);                                                                        \
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

#ifndef FLOOR_ROCKSDBJNI
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
  if (err) die("leveldb_open", err);
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

#endif

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
  if (err) die("rocksdb_open", err);
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

#ifndef FLOOR_ROCKSDBJNI
/* SQLite: the binding's kv table (WITHOUT ROWID, its default and db_bench_sqlite3's) and statements with
 * the workload's pragmas (1 KB pages, 4 MB or 128 MB of cache, EXCLUSIVE, WAL, synchronous OFF);
 * autocommit: one transaction per put. */
static long sdb_cache_kib;
typedef struct {
  sqlite3 *db;
  sqlite3_stmt *put, *get, *scan, *begin, *commit;
} sdb;
static void sdb_exec(sdb *h, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(h->db, sql, NULL, NULL, &err) != SQLITE_OK) die(sql, err);
}
static sqlite3_stmt *sdb_prepare(sdb *h, const char *sql) {
  sqlite3_stmt *s;
  if (sqlite3_prepare_v2(h->db, sql, -1, &s, NULL) != SQLITE_OK) die(sql, sqlite3_errmsg(h->db));
  return s;
}
static void sdb_step_done(sdb *h, sqlite3_stmt *s) {
  if (sqlite3_step(s) != SQLITE_DONE) die("sqlite3_step", sqlite3_errmsg(h->db));
  sqlite3_reset(s);
}
static void *sdb_open(const char *dir, int big) {
  sdb *h = calloc(1, sizeof *h);
  char path[4096], pragma[256];
  snprintf(path, sizeof path, "%s/ycsb.db", dir);
  if (sqlite3_open(path, &h->db) != SQLITE_OK) die("sqlite3_open", sqlite3_errmsg(h->db));
  sdb_cache_kib = big ? 128 * 1024L : 4 * 1024L;
  snprintf(pragma, sizeof pragma, "PRAGMA page_size=1024; PRAGMA cache_size=-%ld; PRAGMA locking_mode=EXCLUSIVE;"
           " PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF", sdb_cache_kib);
  sdb_exec(h, pragma);
  sdb_exec(h, "CREATE TABLE IF NOT EXISTS usertable (key BLOB PRIMARY KEY NOT NULL, value BLOB NOT NULL)"
              " WITHOUT ROWID");
  h->put = sdb_prepare(h, "INSERT OR REPLACE INTO usertable (key, value) VALUES (?, ?)");
  h->get = sdb_prepare(h, "SELECT value FROM usertable WHERE key = ?");
  h->scan = sdb_prepare(h, "SELECT value FROM usertable WHERE key >= ? ORDER BY key LIMIT ?");
  h->begin = sdb_prepare(h, "BEGIN IMMEDIATE");
  h->commit = sdb_prepare(h, "COMMIT");
  return h;
}
static void sdb_put(void *p, const char *k, const char *v, size_t vlen) {
  sdb *h = p;
  sqlite3_bind_blob(h->put, 1, k, KEY_LEN, SQLITE_STATIC);
  sqlite3_bind_blob(h->put, 2, v, (int) vlen, SQLITE_STATIC);
  sdb_step_done(h, h->put);
}
static void sdb_put_batch(void *p, char *const *keys, char *const *values, size_t vlen, int n) {
  sdb *h = p;
  sdb_step_done(h, h->begin);
  for (int i = 0; i < n; i++) {
    sdb_put(h, keys[i], values[i], vlen);
  }
  sdb_step_done(h, h->commit);
}
static long sdb_get(void *p, const char *k) {
  sdb *h = p;
  long len = -1;
  sqlite3_bind_blob(h->get, 1, k, KEY_LEN, SQLITE_STATIC);
  int rc = sqlite3_step(h->get);
  if (rc == SQLITE_ROW) {
    sqlite3_column_blob(h->get, 0);
    len = sqlite3_column_bytes(h->get, 0);
  } else if (rc != SQLITE_DONE) {
    die("sqlite3_step get", sqlite3_errmsg(h->db));
  }
  sqlite3_reset(h->get);
  return len;
}
static long sdb_scan_all(void *p, long *bytes) {
  sdb *h = p;
  long n = 0;
  int rc;
  sqlite3_bind_blob(h->scan, 1, "", 0, SQLITE_STATIC);
  sqlite3_bind_int64(h->scan, 2, INT32_MAX);
  while ((rc = sqlite3_step(h->scan)) == SQLITE_ROW) {
    sqlite3_column_blob(h->scan, 0);
    *bytes += sqlite3_column_bytes(h->scan, 0);
    n++;
  }
  if (rc != SQLITE_DONE) die("sqlite3_step scan", sqlite3_errmsg(h->db));
  sqlite3_reset(h->scan);
  return n;
}
static void sdb_close(void *p) {
  sdb *h = p;
  sqlite3_stmt *all[] = {h->put, h->get, h->scan, h->begin, h->commit};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) sqlite3_finalize(all[i]);
  if (sqlite3_close(h->db) != SQLITE_OK) die("sqlite3_close", sqlite3_errmsg(h->db));
  free(h);
}
static void sdb_version(const char *dir, char *out, size_t cap) {
  (void) dir;
  snprintf(out, cap, "SQLite %s (system libsqlite3; WITHOUT ROWID table, 1024-byte pages, cache of the last open"
           " %ld KiB)", sqlite3_libversion(), sdb_cache_kib);
}

/* Kyoto TreeDB: the 2011 tuning string the binding builds from the workload (options small,
 * linear, compress with LZO; 1 KB pages; 4 MB or 128 MB page cache; 256 MB map). */
static void *kdb_open(const char *dir, int big) {
  char name[4200];
  KCDB *db = kcdbnew();
  snprintf(name, sizeof name, "%s/ycsb.kct#opts=slc#zcomp=lzo#psiz=1024#pccap=%ld#msiz=%ld", dir,
           big ? 128 * MB : 4 * MB, 256 * MB);
  if (!kcdbopen(db, name, KCOWRITER | KCOCREATE | KCOTRYLOCK)) die("kcdbopen", kcdbemsg(db));
  return db;
}
static void kdb_put(void *p, const char *k, const char *v, size_t vlen) {
  if (!kcdbset(p, k, KEY_LEN, v, vlen)) die("kcdbset", kcdbemsg(p));
}
static void kdb_put_batch(void *p, char *const *keys, char *const *values, size_t vlen, int n) {
  if (!kcdbbegintran(p, 0)) die("kcdbbegintran", kcdbemsg(p));
  for (int i = 0; i < n; i++) {
    kdb_put(p, keys[i], values[i], vlen);
  }
  if (!kcdbendtran(p, 1)) die("kcdbendtran", kcdbemsg(p));
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
  if (!kcdbclose(p)) die("kcdbclose", kcdbemsg(p));
  kcdbdel(p);
}
static void kdb_version(const char *dir, char *out, size_t cap) {
  (void) dir;
  snprintf(out, cap, "Kyoto Cabinet %s (system libkyotocabinet)", KCVERSION);
}

/* LMDB: the binding's defaults (lmdb-binding's LmdbOptions): a 64 GB map, MDB_NOSYNC (sync=false)
 * and MDB_NOTLS, one unnamed database; a write transaction per put or per batch; one read
 * transaction renewed for each get and reset after it (lmdb.readsnapshot=operation). */
typedef struct {
  MDB_env *env;
  MDB_dbi dbi;
  MDB_txn *reader;
} mdb;
static void mdb_check(int rc, const char *what) {
  if (rc != MDB_SUCCESS) die(what, mdb_strerror(rc));
}
static void *mdb_floor_open(const char *dir, int big) {
  (void) big; /* LMDB has no cache of its own: the 128 MB shape runs the same environment */
  mdb *h = calloc(1, sizeof *h);
  MDB_txn *txn;
  if (!h) die("mdb_open", "out of memory");
  mdb_check(mdb_env_create(&h->env), "mdb_env_create");
  mdb_check(mdb_env_set_mapsize(h->env, (size_t) 64 << 30), "mdb_env_set_mapsize");
  mdb_check(mdb_env_set_maxdbs(h->env, 1), "mdb_env_set_maxdbs");
  mdb_check(mdb_env_open(h->env, dir, MDB_NOSYNC | MDB_NOTLS, 0664), "mdb_env_open");
  mdb_check(mdb_txn_begin(h->env, NULL, 0, &txn), "mdb_txn_begin");
  mdb_check(mdb_dbi_open(txn, NULL, MDB_CREATE, &h->dbi), "mdb_dbi_open");
  mdb_check(mdb_txn_commit(txn), "mdb_txn_commit");
  mdb_check(mdb_txn_begin(h->env, NULL, MDB_RDONLY, &h->reader), "mdb_txn_begin reader");
  mdb_txn_reset(h->reader);
  return h;
}
static void mdb_floor_put_batch(void *p, char *const *keys, char *const *values, size_t vlen, int n) {
  mdb *h = p;
  MDB_txn *txn;
  mdb_check(mdb_txn_begin(h->env, NULL, 0, &txn), "mdb_txn_begin");
  for (int i = 0; i < n; i++) {
    MDB_val key = {KEY_LEN, keys[i]}, val = {vlen, values[i]};
    mdb_check(mdb_put(txn, h->dbi, &key, &val, 0), "mdb_put");
  }
  mdb_check(mdb_txn_commit(txn), "mdb_txn_commit");
}
static void mdb_floor_put(void *p, const char *k, const char *v, size_t vlen) {
  char *key = (char *) k, *value = (char *) v;
  mdb_floor_put_batch(p, &key, &value, vlen, 1);
}
static long mdb_floor_get(void *p, const char *k) {
  mdb *h = p;
  MDB_val key = {KEY_LEN, (void *) k}, val;
  mdb_check(mdb_txn_renew(h->reader), "mdb_txn_renew");
  int rc = mdb_get(h->reader, h->dbi, &key, &val);
  mdb_txn_reset(h->reader);
  if (rc == MDB_NOTFOUND) return -1;
  mdb_check(rc, "mdb_get");
  return (long) val.mv_size;
}
static long mdb_floor_scan_all(void *p, long *bytes) {
  mdb *h = p;
  MDB_cursor *cur;
  MDB_val key, val;
  long n = 0;
  int rc;
  mdb_check(mdb_txn_renew(h->reader), "mdb_txn_renew");
  mdb_check(mdb_cursor_open(h->reader, h->dbi, &cur), "mdb_cursor_open");
  for (rc = mdb_cursor_get(cur, &key, &val, MDB_FIRST); rc == MDB_SUCCESS;
       rc = mdb_cursor_get(cur, &key, &val, MDB_NEXT)) {
    *bytes += (long) val.mv_size;
    n++;
  }
  if (rc != MDB_NOTFOUND) die("mdb_cursor_get", mdb_strerror(rc));
  mdb_cursor_close(cur);
  mdb_txn_reset(h->reader);
  return n;
}
static void mdb_floor_close(void *p) {
  mdb *h = p;
  mdb_txn_abort(h->reader);
  mdb_check(mdb_env_sync(h->env, 1), "mdb_env_sync"); /* the binding's clean close with sync=false */
  mdb_dbi_close(h->env, h->dbi);
  mdb_env_close(h->env);
  free(h);
}
static void mdb_floor_version(const char *dir, char *out, size_t cap) {
  (void) dir;
  int major, minor, patch;
  mdb_version(&major, &minor, &patch);
  snprintf(out, cap, "LMDB %d.%d.%d (system liblmdb)", major, minor, patch);
}

#endif

static const engine ENGINES[] = {
    {"rocksdb", rdb_open, rdb_put, rdb_put_batch, rdb_get, rdb_scan_all, rdb_close, rdb_version},
#ifndef FLOOR_ROCKSDBJNI
    {"leveldb", ldb_open, ldb_put, ldb_put_batch, ldb_get, ldb_scan_all, ldb_close, ldb_version},
    {"sqlite", sdb_open, sdb_put, sdb_put_batch, sdb_get, sdb_scan_all, sdb_close, sdb_version},
    {"kyoto", kdb_open, kdb_put, kdb_put_batch, kdb_get, kdb_scan_all, kdb_close, kdb_version},
    {"lmdb", mdb_floor_open, mdb_floor_put, mdb_floor_put_batch, mdb_floor_get, mdb_floor_scan_all, mdb_floor_close,
     mdb_floor_version},
#endif
};

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
  if (!keys || !values) die("fill", "out of memory");
  for (long i = 0; i < count; i++) {
    keys[i] = malloc(KEY_LEN);
    values[i] = malloc(vlen);
    if (!keys[i] || !values[i]) die("fill", "out of memory");
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
    fprintf(stderr, "usage: floor <leveldb|rocksdb|sqlite|kyoto|lmdb> <fillseq|fillrandom|readrandom|readseq|"
                    "fill100k|fillbatch|fillrandom128m> <count> <empty-dir>\n");
    return 2;
  }
  const engine *e = NULL;
  for (size_t i = 0; i < sizeof ENGINES / sizeof ENGINES[0]; i++) {
    if (strcmp(ENGINES[i].name, argv[1]) == 0) e = &ENGINES[i];
  }
  if (!e) die("unknown engine", argv[1]);
  const char *shape = argv[2];
  char *end;
  long count = strtol(argv[3], &end, 10);
  if (*end || count < 1) die("count must be a positive number, got", argv[3]);
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
    if (!loaded) die("read", "out of memory");
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
    die("unknown shape", shape);
  }
  e->close(h);
  char version[256];
  e->version(dir, version, sizeof version);
  printf("floor engine=%s shape=%s count=%ld us_per_op=%.4f library=%s\n", e->name, shape, count,
         us / (double) entries, version);
  return 0;
}
