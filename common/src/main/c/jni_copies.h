/*
 * jni_copies.h: the copies between Java arrays and C memory that the project's JNI layers share
 * (kyoto-binding's kyotojni.c, leveldb-binding's leveldbjni_sys.c). Included by their Maven
 * builds with -I common/src/main/c; define JNI_LIBRARY (the library's name, for messages) first.
 *
 * Java arrays are only copied (Get/SetByteArrayRegion, NewByteArray): nothing is pinned, so nothing
 * has to be released whatever path a caller leaves by. A buffer's malloc'd part is freed by
 * buffer_release, which a caller runs on every path after a successful buffer_reserve.
 */
#ifndef YCSB_EMBEDDED_JNI_COPIES_H
#define YCSB_EMBEDDED_JNI_COPIES_H

#include <jni.h>
#include <stdint.h>
#include <stdlib.h>

#ifndef JNI_LIBRARY
#error "define JNI_LIBRARY (the library's name for messages) before including jni_copies.h"
#endif

/* Keys and values up to this many bytes are copied through the stack. */
#define STACK_BYTES 1024

static inline void throw_java(JNIEnv* env, const char* class_name, const char* message) {
  jclass c = (*env)->FindClass(env, class_name);
  if (c != NULL) {
    (*env)->ThrowNew(env, c, message);
    (*env)->DeleteLocalRef(env, c);
  }
}

/* A copy buffer: the stack part for small records, malloc for large ones. */
typedef struct {
  char* data;
  char stack[STACK_BYTES];
} buffer;

/* Room for n bytes in b, or NULL with an OutOfMemoryError pending. */
static inline char* buffer_reserve(JNIEnv* env, buffer* b, size_t n) {
  b->data = n <= STACK_BYTES ? b->stack : malloc(n);
  if (b->data == NULL) {
    throw_java(env, "java/lang/OutOfMemoryError", JNI_LIBRARY ": no memory for a key or value copy");
  }
  return b->data;
}

static inline void buffer_release(buffer* b) {
  if (b->data != b->stack) {
    free(b->data);
  }
}

/* Copies the Java key into b (stack or heap); NULL with an exception pending when key is null or
 * memory runs out, in which case there is nothing to release. */
static inline char* copy_key(JNIEnv* env, jbyteArray key, buffer* b, size_t* ksiz) {
  if (key == NULL) {
    throw_java(env, "java/lang/NullPointerException", "key");
    return NULL;
  }
  jsize n = (*env)->GetArrayLength(env, key);
  char* p = buffer_reserve(env, b, (size_t)n);
  if (p != NULL) {
    (*env)->GetByteArrayRegion(env, key, 0, n, (jbyte*)p);
    *ksiz = (size_t)n;
  }
  return p;
}

/* A malloc'd NUL-terminated copy of a Java byte[] (a path, a property name), or NULL with an
 * exception pending; the caller frees it. */
static inline char* copy_cstring(JNIEnv* env, jbyteArray bytes, const char* what) {
  if (bytes == NULL) {
    throw_java(env, "java/lang/NullPointerException", what);
    return NULL;
  }
  jsize n = (*env)->GetArrayLength(env, bytes);
  char* p = malloc((size_t)n + 1);
  if (p == NULL) {
    throw_java(env, "java/lang/OutOfMemoryError", JNI_LIBRARY ": no memory for a name copy");
    return NULL;
  }
  (*env)->GetByteArrayRegion(env, bytes, 0, n, (jbyte*)p);
  p[n] = '\0';
  return p;
}

/* A new Java byte[] holding a copy of n bytes at p, or NULL with an exception pending. */
static inline jbyteArray new_bytes(JNIEnv* env, const char* p, size_t n) {
  if (n > INT32_MAX) {
    throw_java(env, "java/lang/OutOfMemoryError", JNI_LIBRARY ": a value larger than 2 GB");
    return NULL;
  }
  jbyteArray out = (*env)->NewByteArray(env, (jsize)n);
  if (out != NULL) {
    (*env)->SetByteArrayRegion(env, out, 0, (jsize)n, (const jbyte*)p);
  }
  return out;
}

#endif
