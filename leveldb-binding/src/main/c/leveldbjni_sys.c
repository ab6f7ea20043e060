/*
 * leveldbjni_sys.c: the LevelDB binding's own thin JNI layer over the system library's C API
 * (leveldb/c.h, Debian libleveldb-dev, LevelDB 1.23). Java side: site.ycsb.embedded.leveldb.LevelDbNative.
 *
 * Rules kept on every path, because a mistake here crashes the JVM or leaks per operation:
 * - Java arrays are only copied (Get/SetByteArrayRegion, NewByteArray): nothing is pinned, so
 *   nothing has to be released, whatever path a function leaves by. A scan writes into a direct
 *   ByteBuffer the Java caller owns (its address, not a pin).
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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site_ycsb_embedded_leveldb_LevelDbNative.h"

#define JNI_LIBRARY "leveldbjni_sys"
#include "jni_copies.h"

#define J(name) Java_site_ycsb_embedded_leveldb_LevelDbNative_##name
#define C(name) site_ycsb_embedded_leveldb_LevelDbNative_##name

/* The Java constants must be the library's. */
_Static_assert(C(NO_COMPRESSION) == leveldb_no_compression, "NO_COMPRESSION");
_Static_assert(C(SNAPPY_COMPRESSION) == leveldb_snappy_compression, "SNAPPY_COMPRESSION");

/* Bytes in front of every value a scan writes: its length, a little-endian uint32. */
#define LENGTH_BYTES 4

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

static jclass failure_class;   /* global reference to LevelDbNative$Failure */
static jmethodID failure_new;  /* Failure(byte[] utf8Message) */

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  JNIEnv* env;
  if ((*vm)->GetEnv(vm, (void**)&env, JNI_VERSION_1_8) != JNI_OK) {
    return JNI_ERR;
  }
  jclass c = (*env)->FindClass(env, "site/ycsb/embedded/leveldb/LevelDbNative$Failure");
  if (c == NULL) {
    return JNI_ERR;
  }
  failure_class = (jclass)(*env)->NewGlobalRef(env, c);
  (*env)->DeleteLocalRef(env, c);
  if (failure_class == NULL) {
    return JNI_ERR;
  }
  failure_new = (*env)->GetMethodID(env, failure_class, "<init>", "([B)V");
  if (failure_new == NULL) {
    return JNI_ERR;
  }
  return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM* vm, void* reserved) {
  (void)reserved;
  JNIEnv* env;
  if ((*vm)->GetEnv(vm, (void**)&env, JNI_VERSION_1_8) == JNI_OK && failure_class != NULL) {
    (*env)->DeleteGlobalRef(env, failure_class);
    failure_class = NULL;
  }
}

/* Throws Failure(message); message may be NULL. */
static void throw_failure(JNIEnv* env, const char* message) {
  if (message == NULL) {
    message = "(no message)";
  }
  jsize n = (jsize)strlen(message);
  jbyteArray bytes = (*env)->NewByteArray(env, n);
  if (bytes == NULL) {
    return; /* OutOfMemoryError is pending */
  }
  (*env)->SetByteArrayRegion(env, bytes, 0, n, (const jbyte*)message);
  jobject ex = (*env)->NewObject(env, failure_class, failure_new, bytes);
  (*env)->DeleteLocalRef(env, bytes);
  if (ex != NULL) {
    (*env)->Throw(env, (jthrowable)ex);
    (*env)->DeleteLocalRef(env, ex);
  }
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

JNIEXPORT jbyteArray JNICALL J(get)(JNIEnv* env, jclass cls, jlong h, jbyteArray key) {
  (void)cls;
  database* d = DBH(h);
  buffer b;
  size_t ksiz;
  char* k = copy_key(env, key, &b, &ksiz);
  if (k == NULL) {
    return NULL;
  }
  size_t vsiz = 0;
  char* err = NULL;
  char* v = leveldb_get(d->db, d->read, k, ksiz, &vsiz, &err);
  buffer_release(&b);
  if (thrown(env, err)) {
    if (v != NULL) {
      leveldb_free(v);
    }
    return NULL;
  }
  if (v == NULL) {
    return NULL; /* not found */
  }
  jbyteArray out = new_bytes(env, v, vsiz);
  leveldb_free(v);
  return out;
}

JNIEXPORT void JNICALL J(put)(JNIEnv* env, jclass cls, jlong h, jbyteArray key, jbyteArray value) {
  (void)cls;
  if (key == NULL || value == NULL) {
    throw_java(env, "java/lang/NullPointerException", key == NULL ? "key" : "value");
    return;
  }
  database* d = DBH(h);
  jsize ksiz = (*env)->GetArrayLength(env, key);
  jsize vsiz = (*env)->GetArrayLength(env, value);
  buffer b;
  char* p = buffer_reserve(env, &b, (size_t)ksiz + (size_t)vsiz);
  if (p == NULL) {
    return;
  }
  (*env)->GetByteArrayRegion(env, key, 0, ksiz, (jbyte*)p);
  (*env)->GetByteArrayRegion(env, value, 0, vsiz, (jbyte*)(p + ksiz));
  char* err = NULL;
  leveldb_put(d->db, d->write, p, (size_t)ksiz, p + ksiz, (size_t)vsiz, &err);
  buffer_release(&b);
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

JNIEXPORT void JNICALL J(write)(JNIEnv* env, jclass cls, jlong h, jobjectArray keys, jobjectArray values,
    jint count) {
  (void)cls;
  if (keys == NULL || values == NULL) {
    throw_java(env, "java/lang/NullPointerException", keys == NULL ? "keys" : "values");
    return;
  }
  if (count < 0 || count > (*env)->GetArrayLength(env, keys) || count > (*env)->GetArrayLength(env, values)) {
    throw_java(env, "java/lang/IllegalArgumentException", "leveldbjni_sys: count outside the arrays");
    return;
  }
  database* d = DBH(h);
  leveldb_writebatch_t* batch = leveldb_writebatch_create();
  char stack[STACK_BYTES];
  char* heap = NULL;
  size_t heap_size = 0;
  for (jint i = 0; i < count; i++) {
    jbyteArray k = (jbyteArray)(*env)->GetObjectArrayElement(env, keys, i);
    jbyteArray v = (jbyteArray)(*env)->GetObjectArrayElement(env, values, i);
    if (k == NULL || v == NULL) {
      if (k != NULL) {
        (*env)->DeleteLocalRef(env, k);
      }
      if (v != NULL) {
        (*env)->DeleteLocalRef(env, v);
      }
      throw_java(env, "java/lang/NullPointerException", "leveldbjni_sys: a null key or value in the batch");
      free(heap);
      leveldb_writebatch_destroy(batch);
      return;
    }
    jsize ksiz = (*env)->GetArrayLength(env, k);
    jsize vsiz = (*env)->GetArrayLength(env, v);
    size_t need = (size_t)ksiz + (size_t)vsiz;
    char* p = stack;
    if (need > STACK_BYTES) {
      if (need > heap_size) {
        char* grown = realloc(heap, need);
        if (grown == NULL) {
          (*env)->DeleteLocalRef(env, k);
          (*env)->DeleteLocalRef(env, v);
          throw_java(env, "java/lang/OutOfMemoryError", "leveldbjni_sys: no memory for a batch record copy");
          free(heap);
          leveldb_writebatch_destroy(batch);
          return;
        }
        heap = grown;
        heap_size = need;
      }
      p = heap;
    }
    (*env)->GetByteArrayRegion(env, k, 0, ksiz, (jbyte*)p);
    (*env)->GetByteArrayRegion(env, v, 0, vsiz, (jbyte*)(p + ksiz));
    (*env)->DeleteLocalRef(env, k);
    (*env)->DeleteLocalRef(env, v);
    leveldb_writebatch_put(batch, p, (size_t)ksiz, p + ksiz, (size_t)vsiz); /* copies */
  }
  free(heap);
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
  unsigned char* base = (*env)->GetDirectBufferAddress(env, out);
  jlong capacity = (*env)->GetDirectBufferCapacity(env, out);
  if (base == NULL || capacity < 0) {
    throw_java(env, "java/lang/IllegalArgumentException", "leveldbjni_sys: the scan buffer is not a direct buffer");
    return 0;
  }
  size_t cap = (size_t)capacity;
  size_t used = 0;
  jint count = 0;
  while (count < max_entries && leveldb_iter_valid(it)) {
    size_t vsiz;
    const char* v = leveldb_iter_value(it, &vsiz);
    if (vsiz > (size_t)INT32_MAX - LENGTH_BYTES) {
      throw_java(env, "java/lang/OutOfMemoryError", "leveldbjni_sys: a value larger than 2 GB");
      return 0;
    }
    if (used + LENGTH_BYTES + vsiz > cap) {
      if (count == 0) {
        return -(jlong)(LENGTH_BYTES + vsiz); /* the caller grows its buffer and calls again */
      }
      break;
    }
    /* little-endian whatever the machine, so the Java side reads it with plain shifts */
    base[used] = (unsigned char)vsiz;
    base[used + 1] = (unsigned char)(vsiz >> 8);
    base[used + 2] = (unsigned char)(vsiz >> 16);
    base[used + 3] = (unsigned char)(vsiz >> 24);
    memcpy(base + used + LENGTH_BYTES, v, vsiz);
    used += LENGTH_BYTES + vsiz;
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
  return ((jlong)used << 1) | ended;
}

JNIEXPORT void JNICALL J(destroyIterator)(JNIEnv* env, jclass cls, jlong ih) {
  (void)env;
  (void)cls;
  leveldb_iter_destroy(ITER(ih));
}
