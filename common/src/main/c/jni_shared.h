/*
 * jni_shared.h: what the project's JNI layers (the Kyoto binding's kyotojni.c, the LevelDB binding's
 * leveldbjni_sys.c) share: the library's exception class, found once at load and thrown with a C
 * string; the copies between Java arrays and C memory; a batch's pairs copied one at a time; and the
 * scan fill's buffer format. Included by their Maven builds with -I common/src/main/c; define
 * JNI_LIBRARY (the library's name, for messages) first.
 *
 * Java arrays are only copied (Get/SetByteArrayRegion, NewByteArray): nothing is pinned, so nothing
 * has to be released whatever path a caller leaves by. A buffer's malloc'd part is freed by
 * buffer_release, which a caller runs on every path after a successful buffer_reserve.
 */
#ifndef YCSB_EMBEDDED_JNI_SHARED_H
#define YCSB_EMBEDDED_JNI_SHARED_H

#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef JNI_LIBRARY
#error "define JNI_LIBRARY (the library's name for messages) before including jni_shared.h"
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

/* Copies the Java key and value into b, the value right after the key (at the result + *ksiz); NULL with an
 * exception pending when either is null or memory runs out, in which case there is nothing to release. */
static inline char* copy_key_value(JNIEnv* env, jbyteArray key, jbyteArray value, buffer* b, size_t* ksiz,
    size_t* vsiz) {
  if (key == NULL || value == NULL) {
    throw_java(env, "java/lang/NullPointerException", key == NULL ? "key" : "value");
    return NULL;
  }
  jsize kn = (*env)->GetArrayLength(env, key);
  jsize vn = (*env)->GetArrayLength(env, value);
  char* p = buffer_reserve(env, b, (size_t)kn + (size_t)vn);
  if (p != NULL) {
    (*env)->GetByteArrayRegion(env, key, 0, kn, (jbyte*)p);
    (*env)->GetByteArrayRegion(env, value, 0, vn, (jbyte*)(p + kn));
    *ksiz = (size_t)kn;
    *vsiz = (size_t)vn;
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

/* ---- The library's exception: one class per layer, cached by JNI_OnLoad, dropped by JNI_OnUnload. ---- */

static jclass library_exception;      /* global reference */
static jmethodID library_exception_new; /* (int code, byte[] utf8Message) or (byte[] utf8Message) */
static int library_exception_coded;   /* whether the constructor takes the code */

/* JNI_OnLoad's work: finds class_name and its constructor (signature "(I[B)V" or "([B)V"); the JNI
 * version, or JNI_ERR (the library then fails to load, with the JVM's message). */
static inline jint library_load(JavaVM* vm, const char* class_name, const char* signature) {
  JNIEnv* env;
  if ((*vm)->GetEnv(vm, (void**)&env, JNI_VERSION_1_8) != JNI_OK) {
    return JNI_ERR;
  }
  jclass c = (*env)->FindClass(env, class_name);
  if (c == NULL) {
    return JNI_ERR;
  }
  library_exception = (jclass)(*env)->NewGlobalRef(env, c);
  (*env)->DeleteLocalRef(env, c);
  if (library_exception == NULL) {
    return JNI_ERR;
  }
  library_exception_new = (*env)->GetMethodID(env, library_exception, "<init>", signature);
  if (library_exception_new == NULL) {
    return JNI_ERR;
  }
  library_exception_coded = strncmp(signature, "(I", 2) == 0;
  return JNI_VERSION_1_8;
}

/* JNI_OnUnload's work: drops the global reference. */
static inline void library_unload(JavaVM* vm) {
  JNIEnv* env;
  if ((*vm)->GetEnv(vm, (void**)&env, JNI_VERSION_1_8) == JNI_OK && library_exception != NULL) {
    (*env)->DeleteGlobalRef(env, library_exception);
    library_exception = NULL;
  }
}

/* Throws the library's exception with message's bytes (and code, when its constructor takes one). */
static inline void throw_library(JNIEnv* env, jint code, const char* message) {
  jsize n = (jsize)strlen(message);
  jbyteArray bytes = (*env)->NewByteArray(env, n);
  if (bytes == NULL) {
    return; /* OutOfMemoryError is pending */
  }
  (*env)->SetByteArrayRegion(env, bytes, 0, n, (const jbyte*)message);
  jobject ex = library_exception_coded
      ? (*env)->NewObject(env, library_exception, library_exception_new, code, bytes)
      : (*env)->NewObject(env, library_exception, library_exception_new, bytes);
  (*env)->DeleteLocalRef(env, bytes);
  if (ex != NULL) {
    (*env)->Throw(env, (jthrowable)ex);
    (*env)->DeleteLocalRef(env, ex);
  }
}

/* ---- A batch: the pairs of two Java byte[][] copied one at a time into one reused buffer. ---- */

/* Puts one pair (copied, valid during the call); 0 to stop the batch (the callee then says why). */
typedef int (*batch_put)(void* context, const char* key, size_t ksiz, const char* value, size_t vsiz);

/*
 * Hands the first count pairs of keys/values to put, in order: 1 when every put returned nonzero; 0
 * when one returned 0 (*stopped set to 1, no exception thrown here), or with an exception pending
 * (null arrays or elements, count outside the arrays, no memory; *stopped stays 0).
 */
static inline int batch_each(JNIEnv* env, jobjectArray keys, jobjectArray values, jint count, batch_put put,
    void* context, int* stopped) {
  *stopped = 0;
  if (keys == NULL || values == NULL) {
    throw_java(env, "java/lang/NullPointerException", keys == NULL ? "keys" : "values");
    return 0;
  }
  if (count < 0 || count > (*env)->GetArrayLength(env, keys) || count > (*env)->GetArrayLength(env, values)) {
    throw_java(env, "java/lang/IllegalArgumentException", JNI_LIBRARY ": count outside the arrays");
    return 0;
  }
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
      throw_java(env, "java/lang/NullPointerException", JNI_LIBRARY ": a null key or value in the batch");
      free(heap);
      return 0;
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
          throw_java(env, "java/lang/OutOfMemoryError", JNI_LIBRARY ": no memory for a batch record copy");
          free(heap);
          return 0;
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
    if (!put(context, p, (size_t)ksiz, p + ksiz, (size_t)vsiz)) {
      *stopped = 1;
      free(heap);
      return 0;
    }
  }
  free(heap);
  return 1;
}

/* ---- The scan fill: values into the caller's direct buffer, each after its length. ---- */

/* Bytes in front of every value a fill writes: its length, a little-endian int (NativeScanBuffer). */
#define FILL_LENGTH_BYTES 4

/* The direct ByteBuffer a fill writes into, and how much of it is used. */
typedef struct {
  unsigned char* base;
  size_t cap;
  size_t used;
} fill_buffer;

/* The buffer behind out; 0 with an IllegalArgumentException pending when it is not a direct buffer. */
static inline int fill_start(JNIEnv* env, jobject out, fill_buffer* f) {
  f->base = (*env)->GetDirectBufferAddress(env, out);
  jlong capacity = (*env)->GetDirectBufferCapacity(env, out);
  if (f->base == NULL || capacity < 0) {
    throw_java(env, "java/lang/IllegalArgumentException", JNI_LIBRARY ": the scan buffer is not a direct buffer");
    return 0;
  }
  f->cap = (size_t)capacity;
  f->used = 0;
  return 1;
}

/* The bytes a value of vsiz bytes takes in a fill. */
static inline size_t fill_need(size_t vsiz) {
  return FILL_LENGTH_BYTES + vsiz;
}

/* Whether a value of vsiz bytes fits after what the buffer holds (and in a Java int). */
static inline int fill_fits(const fill_buffer* f, size_t vsiz) {
  return vsiz <= (size_t)INT32_MAX - FILL_LENGTH_BYTES && f->used + fill_need(vsiz) <= f->cap;
}

/* Appends the value after its length; the caller checked fill_fits. */
static inline void fill_put(fill_buffer* f, const char* v, size_t vsiz) {
  unsigned char* p = f->base + f->used;
  /* little-endian whatever the machine, so the Java side reads it with plain shifts */
  p[0] = (unsigned char)vsiz;
  p[1] = (unsigned char)(vsiz >> 8);
  p[2] = (unsigned char)(vsiz >> 16);
  p[3] = (unsigned char)(vsiz >> 24);
  memcpy(p + FILL_LENGTH_BYTES, v, vsiz);
  f->used += fill_need(vsiz);
}

/* What a fill returns: the bytes used and whether the pass ended (NativeScanBuffer.Fill); a
 * negative result instead is -(bytes) of a first value that does not fit in the buffer. */
static inline jlong fill_result(const fill_buffer* f, int ended) {
  return ((jlong)f->used << 1) | (ended ? 1 : 0);
}

#endif
