/*
 * leveldbjni_sys.c: the LevelDB binding's own thin JNI layer over the system library's C API
 * (leveldb/c.h, Debian libleveldb-dev, LevelDB 1.23). Java side: site.ycsb.embedded.leveldb.LevelDbNative.
 *
 * Rules kept on every path, because a mistake here crashes the JVM or leaks per operation:
 * - Java arrays are only copied (Get/SetByteArrayRegion, NewByteArray): nothing is pinned, so
 *   nothing has to be released, whatever path a function leaves by. A scan writes into a direct
 *   ByteBuffer the Java caller owns (its address, not a pin); a put of a small record reads it from
 *   the calling thread's direct put buffer, at the address Java passes (putAt).
 * - Keys and values are copied into a stack buffer, or a malloc'd one when they are large; the
 *   malloc'd buffer is freed on every path.
 * - Every region leveldb_get / leveldb_property_value returns, and every error string, goes back
 *   through leveldb_free.
 * - An error becomes LevelDbNative.Failure carrying LevelDB's message (UTF-8 bytes).
 * - One native struct per open database owns the DB and every option object; close frees all of
 *   them, open frees them when opening fails. An iterator is made and destroyed by the Java
 *   caller (try/finally).
 */
#include <jni.h>
#include <leveldb/c.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site_ycsb_embedded_leveldb_LevelDbNative.h"

#define JNI_LIBRARY "leveldbjni_sys"
#include "jni_shared.h"

#define J(name) Java_site_ycsb_embedded_leveldb_LevelDbNative_##name
#define C(name) site_ycsb_embedded_leveldb_LevelDbNative_##name

/* The Java constants must be the library's. */
_Static_assert(C(NO_COMPRESSION) == leveldb_no_compression, "NO_COMPRESSION");
_Static_assert(C(SNAPPY_COMPRESSION) == leveldb_snappy_compression, "SNAPPY_COMPRESSION");
_Static_assert(C(LENGTH_BYTES) == FILL_LENGTH_BYTES, "LENGTH_BYTES");

/* An open database and the option objects it was opened with (all owned, all freed by close). */
typedef struct {
  leveldb_t* db;
  leveldb_options_t* options;
  leveldb_cache_t* cache;
  leveldb_filterpolicy_t* filter; /* NULL without a bloom filter */
  leveldb_readoptions_t* read;
  leveldb_writeoptions_t* write;
} database;

#define DBH(h) ((database*)(intptr_t)(h))
#define ITER(h) ((leveldb_iterator_t*)(intptr_t)(h))

/* Each thread's write batch for putAt, reused: leveldb_put builds and frees a batch per call, whose string
 * grows three times on the way to a 16-byte key and a 100-byte value (three mallocs and three frees per put).
 * Made at a thread's first putAt, destroyed when the thread ends (the key's destructor). */
static pthread_key_t put_batch_key;

static void put_batch_destroy(void* batch) {
  leveldb_writebatch_destroy(batch);
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  if (pthread_key_create(&put_batch_key, put_batch_destroy) != 0) {
    return JNI_ERR;
  }
  return library_load(vm, "site/ycsb/embedded/leveldb/LevelDbNative$Failure", "([B)V");
}

/* The JVM unloads this library only with the class loader that loaded it: the batches of threads still
 * alive then are left to the process (their destructor would be code no longer mapped). */
JNIEXPORT void JNICALL JNI_OnUnload(JavaVM* vm, void* reserved) {
  (void)reserved;
  pthread_key_delete(put_batch_key);
  library_unload(vm);
}

/* Throws Failure(message); message may be NULL. */
static void throw_failure(JNIEnv* env, const char* message) {
  throw_library(env, 0, message == NULL ? "(no message)" : message);
}

/* Throws the error LevelDB returned through errptr and frees it; true when there was one. */
static int thrown(JNIEnv* env, char* err) {
  if (err == NULL) {
    return 0;
  }
  throw_failure(env, err);
  leveldb_free(err);
  return 1;
}

/* Frees everything a database struct owns except the DB itself (closed first by the caller). */
static void free_options(database* d) {
  if (d->write != NULL) {
    leveldb_writeoptions_destroy(d->write);
  }
  if (d->read != NULL) {
    leveldb_readoptions_destroy(d->read);
  }
  if (d->options != NULL) {
    leveldb_options_destroy(d->options);
  }
  if (d->filter != NULL) {
    leveldb_filterpolicy_destroy(d->filter);
  }
  if (d->cache != NULL) {
    leveldb_cache_destroy(d->cache);
  }
  free(d);
}

JNIEXPORT jint JNICALL J(majorVersion)(JNIEnv* env, jclass cls) {
  (void)env;
  (void)cls;
  return leveldb_major_version();
}

JNIEXPORT jint JNICALL J(minorVersion)(JNIEnv* env, jclass cls) {
  (void)env;
  (void)cls;
  return leveldb_minor_version();
}

JNIEXPORT jlong JNICALL J(open)(JNIEnv* env, jclass cls, jbyteArray path, jboolean create_if_missing,
    jboolean paranoid_checks, jlong write_buffer_size, jint max_open_files, jlong cache_size, jint block_size,
    jlong max_file_size, jint compression, jint bloom_bits, jboolean verify_checksums, jboolean sync) {
  (void)cls;
  char* p = copy_cstring(env, path, "path");
  if (p == NULL) {
    return 0;
  }
  database* d = calloc(1, sizeof(database));
  if (d == NULL) {
    free(p);
    throw_java(env, "java/lang/OutOfMemoryError", "leveldbjni_sys: no memory for the database");
    return 0;
  }
  d->options = leveldb_options_create();
  d->cache = leveldb_cache_create_lru((size_t)cache_size);
  d->filter = bloom_bits > 0 ? leveldb_filterpolicy_create_bloom(bloom_bits) : NULL;
  d->read = leveldb_readoptions_create();
  d->write = leveldb_writeoptions_create();
  leveldb_options_set_create_if_missing(d->options, create_if_missing);
  leveldb_options_set_paranoid_checks(d->options, paranoid_checks);
  leveldb_options_set_write_buffer_size(d->options, (size_t)write_buffer_size);
  leveldb_options_set_max_open_files(d->options, max_open_files);
  leveldb_options_set_cache(d->options, d->cache);
  leveldb_options_set_block_size(d->options, (size_t)block_size);
  leveldb_options_set_max_file_size(d->options, (size_t)max_file_size);
  leveldb_options_set_compression(d->options, compression);
  if (d->filter != NULL) {
    leveldb_options_set_filter_policy(d->options, d->filter);
  }
  leveldb_readoptions_set_verify_checksums(d->read, verify_checksums);
  leveldb_writeoptions_set_sync(d->write, sync);
  char* err = NULL;
  d->db = leveldb_open(d->options, p, &err);
  free(p);
  if (err != NULL || d->db == NULL) {
    if (d->db != NULL) {
      leveldb_close(d->db);
    }
    free_options(d);
    if (!thrown(env, err)) {
      throw_failure(env, "leveldb_open failed without a message");
    }
    return 0;
  }
  return (jlong)(intptr_t)d;
}

JNIEXPORT void JNICALL J(repair)(JNIEnv* env, jclass cls, jbyteArray path, jint compression, jint block_size) {
  (void)cls;
  char* p = copy_cstring(env, path, "path");
  if (p == NULL) {
    return;
  }
  leveldb_options_t* options = leveldb_options_create();
  leveldb_options_set_compression(options, compression);
  leveldb_options_set_block_size(options, (size_t)block_size);
  char* err = NULL;
  leveldb_repair_db(options, p, &err);
  leveldb_options_destroy(options);
  free(p);
  thrown(env, err);
}

JNIEXPORT void JNICALL J(close)(JNIEnv* env, jclass cls, jlong h) {
  (void)env;
  (void)cls;
  database* d = DBH(h);
  leveldb_close(d->db); /* before the cache and filter it uses */
  free_options(d);
}

/* leveldb_get of key: LevelDB's copy of the value (the caller frees it with leveldb_free), or NULL when there is
 * none or when a Java exception is pending (the key could not be read; LevelDB's error, thrown as Failure). */
static char* lookup(JNIEnv* env, database* d, jbyteArray key, size_t* vsiz) {
  buffer b;
  size_t ksiz;
  char* k = copy_key(env, key, &b, &ksiz);
  if (k == NULL) {
    return NULL;
  }
  char* err = NULL;
  char* v = leveldb_get(d->db, d->read, k, ksiz, vsiz, &err);
  buffer_release(&b);
  if (thrown(env, err)) {
    if (v != NULL) {
      leveldb_free(v);
    }
    return NULL;
  }
  return v;
}

JNIEXPORT jbyteArray JNICALL J(get)(JNIEnv* env, jclass cls, jlong h, jbyteArray key) {
  (void)cls;
  size_t vsiz = 0;
  char* v = lookup(env, DBH(h), key, &vsiz);
  if (v == NULL) {
    return NULL; /* not found, or an exception is pending */
  }
  jbyteArray out = new_bytes(env, v, vsiz);
  leveldb_free(v);
  return out;
}

/* Whether key holds a value: its copy is freed here, so that no Java array is made for a value that is not read
 * (an update of a one-field record). */
JNIEXPORT jboolean JNICALL J(contains)(JNIEnv* env, jclass cls, jlong h, jbyteArray key) {
  (void)cls;
  size_t vsiz = 0;
  char* v = lookup(env, DBH(h), key, &vsiz);
  if (v == NULL) {
    return JNI_FALSE; /* not found, or an exception is pending */
  }
  leveldb_free(v);
  return JNI_TRUE;
}

JNIEXPORT void JNICALL J(put)(JNIEnv* env, jclass cls, jlong h, jbyteArray key, jbyteArray value) {
  (void)cls;
  database* d = DBH(h);
  buffer b;
  size_t ksiz, vsiz;
  char* p = copy_key_value(env, key, value, &b, &ksiz, &vsiz);
  if (p == NULL) {
    return;
  }
  char* err = NULL;
  leveldb_put(d->db, d->write, p, ksiz, p + ksiz, vsiz, &err);
  buffer_release(&b);
  thrown(env, err);
}

/* The address of a direct buffer (a thread's put buffer, SystemLevelDb.PutBuffer), asked once per buffer so that
 * a put need not ask again. */
JNIEXPORT jlong JNICALL J(address)(JNIEnv* env, jclass cls, jobject buffer) {
  (void)cls;
  void* p = buffer == NULL ? NULL : (*env)->GetDirectBufferAddress(env, buffer);
  if (p == NULL) {
    throw_java(env, "java/lang/IllegalArgumentException", JNI_LIBRARY ": not a direct buffer");
    return 0;
  }
  return (jlong)(intptr_t)p;
}

/* A put whose key and value the Java caller wrote one after the other at address (its thread's direct put
 * buffer, kept reachable across the call): no call back into the JVM and no copy here, the one copy being
 * LevelDB's own into its write batch. put above takes two arrays and asks the JVM four times (two lengths,
 * two copies), each a thread-state transition. */
JNIEXPORT void JNICALL J(putAt)(JNIEnv* env, jclass cls, jlong h, jlong address, jint ksiz, jint vsiz) {
  (void)cls;
  database* d = DBH(h);
  const char* p = (const char*)(intptr_t)address;
  leveldb_writebatch_t* batch = pthread_getspecific(put_batch_key);
  if (batch == NULL) {
    batch = leveldb_writebatch_create();
    if (pthread_setspecific(put_batch_key, batch) != 0) {
      leveldb_writebatch_destroy(batch);
      throw_java(env, "java/lang/OutOfMemoryError", JNI_LIBRARY ": no memory for the thread's put batch");
      return;
    }
  } else {
    leveldb_writebatch_clear(batch); /* keeps its string's capacity */
  }
  leveldb_writebatch_put(batch, p, (size_t)ksiz, p + ksiz, (size_t)vsiz);
  char* err = NULL;
  leveldb_write(d->db, d->write, batch, &err); /* what leveldb_put does, with a batch of its own */
  thrown(env, err);
}

JNIEXPORT void JNICALL J(delete)(JNIEnv* env, jclass cls, jlong h, jbyteArray key) {
  (void)cls;
  database* d = DBH(h);
  buffer b;
  size_t ksiz;
  char* k = copy_key(env, key, &b, &ksiz);
  if (k == NULL) {
    return;
  }
  char* err = NULL;
  leveldb_delete(d->db, d->write, k, ksiz, &err);
  buffer_release(&b);
  thrown(env, err);
}

static int batch_add(void* batch, const char* key, size_t ksiz, const char* value, size_t vsiz) {
  leveldb_writebatch_put(batch, key, ksiz, value, vsiz); /* copies */
  return 1;
}

JNIEXPORT void JNICALL J(write)(JNIEnv* env, jclass cls, jlong h, jobjectArray keys, jobjectArray values,
    jint count) {
  (void)cls;
  database* d = DBH(h);
  leveldb_writebatch_t* batch = leveldb_writebatch_create();
  int stopped;
  if (!batch_each(env, keys, values, count, batch_add, batch, &stopped)) {
    leveldb_writebatch_destroy(batch); /* the exception is pending */
    return;
  }
  char* err = NULL;
  leveldb_write(d->db, d->write, batch, &err);
  leveldb_writebatch_destroy(batch);
  thrown(env, err);
}

JNIEXPORT jbyteArray JNICALL J(property)(JNIEnv* env, jclass cls, jlong h, jbyteArray name) {
  (void)cls;
  char* n = copy_cstring(env, name, "name");
  if (n == NULL) {
    return NULL;
  }
  char* v = leveldb_property_value(DBH(h)->db, n);
  free(n);
  if (v == NULL) {
    return NULL; /* LevelDB does not know the property */
  }
  jbyteArray out = new_bytes(env, v, strlen(v));
  leveldb_free(v);
  return out;
}

JNIEXPORT void JNICALL J(compactRange)(JNIEnv* env, jclass cls, jlong h, jbyteArray from, jbyteArray to) {
  (void)cls;
  /* A null bound is open; an empty one is the empty key (CompactRange("", "") only flushes the
   * memtable). */
  buffer fb, tb;
  size_t fsiz = 0, tsiz = 0;
  char* f = NULL;
  char* t = NULL;
  if (from != NULL && (f = copy_key(env, from, &fb, &fsiz)) == NULL) {
    return;
  }
  if (to != NULL && (t = copy_key(env, to, &tb, &tsiz)) == NULL) {
    if (f != NULL) {
      buffer_release(&fb);
    }
    return;
  }
  leveldb_compact_range(DBH(h)->db, f, fsiz, t, tsiz);
  if (f != NULL) {
    buffer_release(&fb);
  }
  if (t != NULL) {
    buffer_release(&tb);
  }
}

JNIEXPORT jlong JNICALL J(iterator)(JNIEnv* env, jclass cls, jlong h, jbyteArray start) {
  (void)cls;
  database* d = DBH(h);
  buffer b;
  size_t ksiz;
  char* k = copy_key(env, start, &b, &ksiz);
  if (k == NULL) {
    return 0;
  }
  leveldb_iterator_t* it = leveldb_create_iterator(d->db, d->read);
  leveldb_iter_seek(it, k, ksiz);
  buffer_release(&b);
  if (!leveldb_iter_valid(it)) {
    char* err = NULL;
    leveldb_iter_get_error(it, &err);
    if (err != NULL) {
      leveldb_iter_destroy(it);
      thrown(env, err);
      return 0;
    }
  }
  return (jlong)(intptr_t)it;
}

JNIEXPORT jlong JNICALL J(fill)(JNIEnv* env, jclass cls, jlong ih, jobject out, jint max_entries) {
  (void)cls;
  leveldb_iterator_t* it = ITER(ih);
  fill_buffer f;
  if (!fill_start(env, out, &f)) {
    return 0;
  }
  jint count = 0;
  while (count < max_entries && leveldb_iter_valid(it)) {
    size_t vsiz;
    const char* v = leveldb_iter_value(it, &vsiz);
    if (vsiz > (size_t)INT32_MAX - FILL_LENGTH_BYTES) {
      throw_java(env, "java/lang/OutOfMemoryError", "leveldbjni_sys: a value larger than 2 GB");
      return 0;
    }
    if (!fill_fits(&f, vsiz)) {
      if (count == 0) {
        return -(jlong)fill_need(vsiz); /* the caller grows its buffer and calls again */
      }
      break;
    }
    fill_put(&f, v, vsiz);
    count++;
    leveldb_iter_next(it);
  }
  int ended = !leveldb_iter_valid(it);
  if (ended) {
    char* err = NULL;
    leveldb_iter_get_error(it, &err);
    if (thrown(env, err)) {
      return 0;
    }
  }
  return fill_result(&f, ended);
}

JNIEXPORT void JNICALL J(destroyIterator)(JNIEnv* env, jclass cls, jlong ih) {
  (void)env;
  (void)cls;
  leveldb_iter_destroy(ITER(ih));
}
