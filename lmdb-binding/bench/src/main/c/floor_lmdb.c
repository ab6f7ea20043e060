/*
 * LMDB's engine floor (floor.h): the calls floor.c's loops make, over the system liblmdb; built with
 * floor.c into target/native/floor (this module's pom.xml).
 */
#include <stdio.h>
#include <stdlib.h>

#include <lmdb.h>

#include "floor.h"

/* LMDB: the binding's defaults (lmdb-binding's LmdbOptions): a 64 GB map, MDB_NOSYNC (sync=false)
 * and MDB_NOTLS, one unnamed database; a write transaction per put or per batch; one read
 * transaction renewed for each get and reset after it (lmdb.readsnapshot=operation). */
typedef struct {
  MDB_env *env;
  MDB_dbi dbi;
  MDB_txn *reader;
} mdb;
static void mdb_check(int rc, const char *what) {
  if (rc != MDB_SUCCESS) floor_die(what, mdb_strerror(rc));
}
static void *mdb_floor_open(const char *dir, int big) {
  (void) big; /* LMDB has no cache of its own: the 128 MB shape runs the same environment */
  mdb *h = calloc(1, sizeof *h);
  MDB_txn *txn;
  if (!h) floor_die("mdb_open", "out of memory");
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
  if (rc != MDB_NOTFOUND) floor_die("mdb_cursor_get", mdb_strerror(rc));
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

const engine FLOOR_ENGINE = {"lmdb", mdb_floor_open, mdb_floor_put, mdb_floor_put_batch, mdb_floor_get,
                             mdb_floor_scan_all, mdb_floor_close, mdb_floor_version};
