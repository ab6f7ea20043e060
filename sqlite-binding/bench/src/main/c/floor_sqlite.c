/*
 * SQLite's engine floor (floor.h): the calls floor.c's loops make, over the system libsqlite3; built
 * with floor.c into target/native/floor (this module's pom.xml).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "floor.h"

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
  if (sqlite3_exec(h->db, sql, NULL, NULL, &err) != SQLITE_OK) floor_die(sql, err);
}
static sqlite3_stmt *sdb_prepare(sdb *h, const char *sql) {
  sqlite3_stmt *s;
  if (sqlite3_prepare_v2(h->db, sql, -1, &s, NULL) != SQLITE_OK) floor_die(sql, sqlite3_errmsg(h->db));
  return s;
}
static void sdb_step_done(sdb *h, sqlite3_stmt *s) {
  if (sqlite3_step(s) != SQLITE_DONE) floor_die("sqlite3_step", sqlite3_errmsg(h->db));
  sqlite3_reset(s);
}
static void *sdb_open(const char *dir, int big) {
  sdb *h = calloc(1, sizeof *h);
  char path[4096], pragma[256];
  snprintf(path, sizeof path, "%s/ycsb.db", dir);
  if (sqlite3_open(path, &h->db) != SQLITE_OK) floor_die("sqlite3_open", sqlite3_errmsg(h->db));
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
    floor_die("sqlite3_step get", sqlite3_errmsg(h->db));
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
  if (rc != SQLITE_DONE) floor_die("sqlite3_step scan", sqlite3_errmsg(h->db));
  sqlite3_reset(h->scan);
  return n;
}
static void sdb_close(void *p) {
  sdb *h = p;
  sqlite3_stmt *all[] = {h->put, h->get, h->scan, h->begin, h->commit};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) sqlite3_finalize(all[i]);
  if (sqlite3_close(h->db) != SQLITE_OK) floor_die("sqlite3_close", sqlite3_errmsg(h->db));
  free(h);
}
static void sdb_version(const char *dir, char *out, size_t cap) {
  (void) dir;
  snprintf(out, cap, "SQLite %s (system libsqlite3; WITHOUT ROWID table, 1024-byte pages, cache of the last open"
           " %ld KiB)", sqlite3_libversion(), sdb_cache_kib);
}

const engine FLOOR_ENGINE = {"sqlite", sdb_open, sdb_put, sdb_put_batch, sdb_get, sdb_scan_all, sdb_close,
                             sdb_version};
