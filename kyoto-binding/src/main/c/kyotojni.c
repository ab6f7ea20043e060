/*
 * kyotojni.c: the Kyoto Cabinet binding's thin JNI layer over the C API of the system library
 * (kclangc.h, Debian libkyotocabinet-dev). Java side: site.ycsb.embedded.kyoto.KyotoNative.
 *
 * Rules kept on every path, because a mistake here crashes the JVM or leaks per operation:
 * - Java arrays are only copied (Get/SetByteArrayRegion, NewByteArray): nothing is pinned, so
 *   nothing has to be released, whatever path a function leaves by.
 * - Keys and values are copied into a stack buffer, or a malloc'd one when they are large; the
 *   malloc'd buffer is freed on every path.
 * - Every region kcdbget / kccurgetvalue / kcdbstatus returns goes back through kcfree; fill reads
 *   values in place through a visitor (kccuraccept), so it has nothing to free.
 * - The error code and message are per thread: they are read right after the failing call, on
 *   the same thread, before any other library call, and turned into a KyotoException.
 * - A cursor is made and destroyed by the Java caller (try/finally); a database is deleted
 *   by close, and by open when opening fails.
 */
#include <jni.h>
#include <kclangc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site_ycsb_embedded_kyoto_KyotoNative.h"

#define JNI_LIBRARY "kyotojni"
#include "jni_shared.h"

#define J(name) site_ycsb_embedded_kyoto_KyotoNative_##name

/* The Java constants must be the library's. */
_Static_assert(J(OREADER) == KCOREADER, "OREADER");
_Static_assert(J(OWRITER) == KCOWRITER, "OWRITER");
_Static_assert(J(OCREATE) == KCOCREATE, "OCREATE");
_Static_assert(J(OTRUNCATE) == KCOTRUNCATE, "OTRUNCATE");
_Static_assert(J(OAUTOTRAN) == KCOAUTOTRAN, "OAUTOTRAN");
_Static_assert(J(OAUTOSYNC) == KCOAUTOSYNC, "OAUTOSYNC");
_Static_assert(J(ONOLOCK) == KCONOLOCK, "ONOLOCK");
_Static_assert(J(OTRYLOCK) == KCOTRYLOCK, "OTRYLOCK");
_Static_assert(J(ONOREPAIR) == KCONOREPAIR, "ONOREPAIR");
_Static_assert(J(ESUCCESS) == KCESUCCESS, "ESUCCESS");
_Static_assert(J(ENOIMPL) == KCENOIMPL, "ENOIMPL");
_Static_assert(J(EINVALID) == KCEINVALID, "EINVALID");
_Static_assert(J(ENOREPOS) == KCENOREPOS, "ENOREPOS");
_Static_assert(J(ENOPERM) == KCENOPERM, "ENOPERM");
_Static_assert(J(EBROKEN) == KCEBROKEN, "EBROKEN");
_Static_assert(J(EDUPREC) == KCEDUPREC, "EDUPREC");
_Static_assert(J(ENOREC) == KCENOREC, "ENOREC");
_Static_assert(J(ELOGIC) == KCELOGIC, "ELOGIC");
_Static_assert(J(ESYSTEM) == KCESYSTEM, "ESYSTEM");
_Static_assert(J(EMISC) == KCEMISC, "EMISC");
_Static_assert(J(LENGTH_BYTES) == FILL_LENGTH_BYTES, "LENGTH_BYTES");

#define DB(h) ((KCDB*)(intptr_t)(h))
#define CUR(h) ((KCCUR*)(intptr_t)(h))

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  return library_load(vm, "site/ycsb/embedded/kyoto/KyotoException", "(I[B)V");
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM* vm, void* reserved) {
  (void)reserved;
  library_unload(vm);
}

/* Throws KyotoException(code, message); message may be NULL. */
static void throw_kyoto(JNIEnv* env, int32_t code, const char* message) {
  throw_library(env, (jint)code, message == NULL ? "" : message);
}

/* Throws the error the last failing call on db set for this thread. */
static void throw_db_error(JNIEnv* env, KCDB* db) {
  int32_t code = kcdbecode(db);
  throw_kyoto(env, code, kcdbemsg(db));
}

JNIEXPORT jstring JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_version(JNIEnv* env, jclass cls) {
  (void)cls;
  return (*env)->NewStringUTF(env, KCVERSION);
}

JNIEXPORT jlong JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_open(JNIEnv* env, jclass cls,
    jbyteArray path, jint mode) {
  (void)cls;
  char* p = copy_cstring(env, path, "path");
  if (p == NULL) {
    return 0;
  }
  KCDB* db = kcdbnew();
  if (db == NULL) {
    free(p);
    throw_java(env, "java/lang/OutOfMemoryError", "kyotojni: kcdbnew failed");
    return 0;
  }
  if (!kcdbopen(db, p, (uint32_t)mode)) {
    throw_db_error(env, db); /* copies the message before the object goes */
    kcdbdel(db);
    free(p);
    return 0;
  }
  free(p);
  return (jlong)(intptr_t)db;
}

JNIEXPORT void JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_close(JNIEnv* env, jclass cls, jlong h) {
  (void)cls;
  KCDB* db = DB(h);
  if (!kcdbclose(db)) {
    throw_db_error(env, db);
  }
  kcdbdel(db);
}

JNIEXPORT void JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_set(JNIEnv* env, jclass cls, jlong h,
    jbyteArray key, jbyteArray value) {
  (void)cls;
  if (key == NULL || value == NULL) {
    throw_java(env, "java/lang/NullPointerException", key == NULL ? "key" : "value");
    return;
  }
  KCDB* db = DB(h);
  jsize ksiz = (*env)->GetArrayLength(env, key);
  jsize vsiz = (*env)->GetArrayLength(env, value);
  buffer b;
  char* p = buffer_reserve(env, &b, (size_t)ksiz + (size_t)vsiz);
  if (p == NULL) {
    return;
  }
  (*env)->GetByteArrayRegion(env, key, 0, ksiz, (jbyte*)p);
  (*env)->GetByteArrayRegion(env, value, 0, vsiz, (jbyte*)(p + ksiz));
  if (!kcdbset(db, p, (size_t)ksiz, p + ksiz, (size_t)vsiz)) {
    throw_db_error(env, db);
  }
  buffer_release(&b);
}

JNIEXPORT jbyteArray JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_get(JNIEnv* env, jclass cls, jlong h,
    jbyteArray key) {
  (void)cls;
  KCDB* db = DB(h);
  buffer b;
  size_t ksiz;
  char* p = copy_key(env, key, &b, &ksiz);
  if (p == NULL) {
    return NULL;
  }
  size_t vsiz;
  char* v = kcdbget(db, p, (size_t)ksiz, &vsiz);
  if (v == NULL) {
    int32_t code = kcdbecode(db);
    if (code != KCENOREC) {
      throw_kyoto(env, code, kcdbemsg(db));
    }
    buffer_release(&b);
    return NULL;
  }
  buffer_release(&b);
  jbyteArray out = new_bytes(env, v, vsiz);
  kcfree(v);
  return out;
}

JNIEXPORT jboolean JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_remove(JNIEnv* env, jclass cls, jlong h,
    jbyteArray key) {
  (void)cls;
  KCDB* db = DB(h);
  buffer b;
  size_t ksiz;
  char* p = copy_key(env, key, &b, &ksiz);
  if (p == NULL) {
    return JNI_FALSE;
  }
  jboolean removed = JNI_TRUE;
  if (!kcdbremove(db, p, (size_t)ksiz)) {
    int32_t code = kcdbecode(db);
    if (code != KCENOREC) {
      throw_kyoto(env, code, kcdbemsg(db));
    }
    removed = JNI_FALSE;
  }
  buffer_release(&b);
  return removed;
}

/* Aborts the transaction after a failed set and throws that set's error (read before the abort). */
static void abort_with(JNIEnv* env, KCDB* db, int32_t code, const char* message) {
  char* saved = strdup(message == NULL ? "" : message);
  int aborted = kcdbendtran(db, 0);
  const char* why = saved != NULL ? saved : "(message lost: no memory)";
  if (aborted) {
    throw_kyoto(env, code, why);
  } else {
    /* The database stays inside the transaction: say so, every later batch would wait. */
    const char* abort_msg = kcdbemsg(db);
    size_t n = strlen(why) + strlen(abort_msg) + 64;
    char* both = malloc(n);
    if (both != NULL) {
      snprintf(both, n, "%s; aborting the transaction failed too: %s", why, abort_msg);
      throw_kyoto(env, code, both);
      free(both);
    } else {
      throw_kyoto(env, code, why);
    }
  }
  free(saved);
}

/* A batch's database, and the error of the set that stopped it (read right after it failed). */
typedef struct {
  KCDB* db;
  int32_t code;
  const char* message;
} batch_state;

static int batch_set(void* context, const char* key, size_t ksiz, const char* value, size_t vsiz) {
  batch_state* st = context;
  if (!kcdbset(st->db, key, ksiz, value, vsiz)) {
    st->code = kcdbecode(st->db);
    st->message = kcdbemsg(st->db);
    return 0;
  }
  return 1;
}

JNIEXPORT void JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_setInTransaction(JNIEnv* env, jclass cls,
    jlong h, jobjectArray keys, jobjectArray values, jint count, jboolean hard) {
  (void)cls;
  if (keys == NULL || values == NULL) {
    throw_java(env, "java/lang/NullPointerException", keys == NULL ? "keys" : "values");
    return;
  }
  KCDB* db = DB(h);
  if (!kcdbbegintran(db, hard ? 1 : 0)) {
    throw_db_error(env, db);
    return;
  }
  batch_state st = {db, 0, NULL};
  int stopped;
  if (!batch_each(env, keys, values, count, batch_set, &st, &stopped)) {
    if (stopped) {
      abort_with(env, db, st.code, st.message);
    } else {
      kcdbendtran(db, 0); /* the batch's own exception is pending */
    }
    return;
  }
  if (!kcdbendtran(db, 1)) {
    throw_db_error(env, db);
  }
}

JNIEXPORT void JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_sync(JNIEnv* env, jclass cls, jlong h,
    jboolean hard) {
  (void)cls;
  KCDB* db = DB(h);
  if (!kcdbsync(db, hard ? 1 : 0, NULL, NULL)) {
    throw_db_error(env, db);
  }
}

JNIEXPORT jbyteArray JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_status(JNIEnv* env, jclass cls, jlong h) {
  (void)cls;
  KCDB* db = DB(h);
  char* s = kcdbstatus(db);
  if (s == NULL) {
    throw_db_error(env, db);
    return NULL;
  }
  jbyteArray out = new_bytes(env, s, strlen(s));
  kcfree(s);
  return out;
}

JNIEXPORT jlong JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_cursor(JNIEnv* env, jclass cls, jlong h) {
  (void)env;
  (void)cls;
  return (jlong)(intptr_t)kcdbcursor(DB(h));
}

JNIEXPORT jboolean JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_jump(JNIEnv* env, jclass cls, jlong c,
    jbyteArray key) {
  (void)cls;
  KCCUR* cur = CUR(c);
  buffer b;
  size_t ksiz;
  char* p = copy_key(env, key, &b, &ksiz);
  if (p == NULL) {
    return JNI_FALSE;
  }
  jboolean found = JNI_TRUE;
  if (!(ksiz == 0 ? kccurjump(cur) : kccurjumpkey(cur, p, (size_t)ksiz))) {
    int32_t code = kccurecode(cur);
    if (code != KCENOREC) {
      throw_kyoto(env, code, kccuremsg(cur));
    }
    found = JNI_FALSE;
  }
  buffer_release(&b);
  return found;
}

JNIEXPORT jbyteArray JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_next(JNIEnv* env, jclass cls, jlong c) {
  (void)cls;
  KCCUR* cur = CUR(c);
  size_t vsiz;
  char* v = kccurgetvalue(cur, &vsiz, 1);
  if (v == NULL) {
    int32_t code = kccurecode(cur);
    if (code != KCENOREC) {
      throw_kyoto(env, code, kccuremsg(cur));
    }
    return NULL;
  }
  jbyteArray out = new_bytes(env, v, vsiz);
  kcfree(v);
  return out;
}

JNIEXPORT void JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_destroy(JNIEnv* env, jclass cls, jlong c) {
  (void)env;
  (void)cls;
  kccurdel(CUR(c));
}

/* What fill's visitor copies into: the direct buffer, and the record that did not fit. */
typedef struct {
  fill_buffer out;
  size_t need; /* bytes the record visited last needs: nonzero when it did not fit */
  char* key;   /* a malloc'd copy of that record's key, to jump back to it; NULL when out of memory */
  size_t ksiz;
} fill_state;

/* Copies the visited value, with its length in front, when it fits; never modifies the record. */
static const char* fill_visit(const char* kbuf, size_t ksiz, const char* vbuf, size_t vsiz, size_t* sp,
    void* opq) {
  (void)sp;
  fill_state* st = opq;
  if (!fill_fits(&st->out, vsiz)) {
    st->need = fill_need(vsiz);
    st->key = malloc(ksiz > 0 ? ksiz : 1);
    if (st->key != NULL) {
      memcpy(st->key, kbuf, ksiz);
      st->ksiz = ksiz;
    }
    return KCVISNOP;
  }
  fill_put(&st->out, vbuf, vsiz);
  st->need = 0;
  return KCVISNOP;
}

/* Reads the cursor's error after a failed call: 1 when it only ran past the last record, else 0 with
 * a KyotoException pending. */
static int cursor_ended(JNIEnv* env, KCCUR* cur) {
  int32_t code = kccurecode(cur);
  if (code == KCENOREC) {
    return 1;
  }
  throw_kyoto(env, code, kccuremsg(cur));
  return 0;
}

JNIEXPORT jlong JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_fill(JNIEnv* env, jclass cls, jlong c,
    jobject out, jint max_entries) {
  (void)cls;
  KCCUR* cur = CUR(c);
  fill_state st = {{NULL, 0, 0}, 0, NULL, 0};
  if (!fill_start(env, out, &st.out)) {
    return 0;
  }
  jint count = 0;
  int ended = 0;
  while (count < max_entries) {
    /* Visit and step in one call (one lock); a value that does not fit is jumped back to by its key. */
    if (!kccuraccept(cur, fill_visit, &st, 0, 1)) {
      if (!cursor_ended(env, cur)) {
        return 0;
      }
      ended = 1;
      break;
    }
    if (st.need != 0) {
      if (st.key == NULL) {
        throw_java(env, "java/lang/OutOfMemoryError", "kyotojni: no memory for a key copy");
        return 0;
      }
      int back = kccurjumpkey(cur, st.key, st.ksiz);
      free(st.key);
      if (!back) {
        /* No record at or after the key: another thread removed it and it was the last (TreeDB),
         * or removed it (HashDB, which cannot tell where it was): the pass ends here. */
        if (!cursor_ended(env, cur)) {
          return 0;
        }
        ended = 1;
        break;
      }
      if (st.need > (size_t)INT32_MAX) {
        throw_java(env, "java/lang/OutOfMemoryError", "kyotojni: a record larger than 2 GB");
        return 0;
      }
      if (count == 0) {
        return -(jlong)st.need; /* the caller grows its buffer and calls again */
      }
      break;
    }
    count++;
  }
  return fill_result(&st.out, ended);
}
