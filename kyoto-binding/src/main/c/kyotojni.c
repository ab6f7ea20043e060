/*
 * kyotojni.c: the Kyoto Cabinet binding's thin JNI layer over the C API of the system library
 * (kclangc.h, Debian libkyotocabinet-dev). Java side: site.ycsb.embedded.kyoto.KyotoNative.
 * Longer than 500 lines: every native of KyotoNative is here, in the one file the binding's pom.xml
 * compiles into libkyotojni.so, so that each of the rules below can be checked on every path in one place.
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
 * - The binding's transactions (a batch, or one write in a transaction of its own) run one at a
 *   time under the handle's lock. A transaction that could not be ended (its commit or its abort
 *   failed) leaves the library half inside it: the handle then refuses every call but status and
 *   close, whose rollback takes the file back to the last committed transaction.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jni.h>
#include <limits.h>
#include <kclangc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* An open database: the library's object and the binding's transaction state. */
typedef struct {
  KCDB* db;
  pthread_mutex_t transactions; /* one transaction of the binding at a time */
  int failed;                   /* 1 once a transaction could not be ended (stored last, read first) */
  int32_t failed_code;          /* the library's error then, and its message */
  char failed_message[256];
} handle;

#define HANDLE(h) ((handle*)(intptr_t)(h))
#define DB(h) (HANDLE(h)->db)
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

/* Throws the error the last failing call on db set for this thread. Kyoto sometimes fails a call without
 * setting one (its close after a write a full disk cut short: "success: no error"); the message then names
 * the call and the last system error, read before any other library call, as the likelier cause. */
static int32_t db_error(KCDB* db, const char* call, char* message, size_t size) {
  int saved = errno;
  int32_t code = kcdbecode(db);
  if (code != KCESUCCESS) {
    snprintf(message, size, "%s", kcdbemsg(db));
    return code;
  }
  snprintf(message, size, "%s failed and Kyoto Cabinet gave no cause; the last system error: %s", call,
      saved != 0 ? strerror(saved) : "none");
  return KCESYSTEM;
}

static void throw_db_error(JNIEnv* env, KCDB* db, const char* call) {
  char message[400];
  int32_t code = db_error(db, call, message, sizeof(message));
  throw_kyoto(env, code, message);
}

/* Throws, and returns 1, when a transaction of this handle could not be ended; else 0. */
static int refused(JNIEnv* env, handle* hd) {
  if (!__atomic_load_n(&hd->failed, __ATOMIC_ACQUIRE)) {
    return 0;
  }
  char message[512];
  snprintf(message, sizeof(message), "an earlier transaction could not be ended (%s): the database takes no"
      " more calls; close it (the close rolls the file back to the last committed write) and reopen it",
      hd->failed_message);
  throw_kyoto(env, hd->failed_code, message);
  return 1;
}

/* Records why a transaction could not be ended (the first reason is kept); under the lock. */
static void mark_failed(handle* hd, int32_t code, const char* why) {
  if (hd->failed) {
    return;
  }
  hd->failed_code = code;
  size_t n = why == NULL ? 0 : strlen(why);
  if (n >= sizeof(hd->failed_message)) {
    n = sizeof(hd->failed_message) - 1; /* a long message is cut */
  }
  if (n > 0) {
    memcpy(hd->failed_message, why, n);
  }
  hd->failed_message[n] = 0;
  __atomic_store_n(&hd->failed, 1, __ATOMIC_RELEASE);
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
  handle* hd = calloc(1, sizeof(handle));
  KCDB* db = hd != NULL ? kcdbnew() : NULL;
  if (db == NULL) {
    free(hd);
    free(p);
    throw_java(env, "java/lang/OutOfMemoryError", "kyotojni: kcdbnew failed");
    return 0;
  }
  if (!kcdbopen(db, p, (uint32_t)mode)) {
    throw_db_error(env, db, "kcdbopen"); /* copies the message before the object goes */
    kcdbdel(db);
    free(hd);
    free(p);
    return 0;
  }
  free(p);
  hd->db = db;
  pthread_mutex_init(&hd->transactions, NULL);
  return (jlong)(intptr_t)hd;
}

/* The file header's flags byte (a TreeDB's file is a HashDB's), and its "fatal error" bit (kchashdb.h). */
#define HEADER_FLAGS_OFFSET 24
#define HEADER_FLAG_FATAL 2

/* Sets the fatal-error flag in a closed file's header, so that its next open runs Kyoto's repair (the
 * file rebuilt, and a TreeDB's tree rebuilt from its leaf pages); 1 when set. */
static int flag_for_repair(const char* path) {
  int fd = open(path, O_RDWR);
  if (fd < 0) {
    return 0;
  }
  unsigned char flags;
  int ok = pread(fd, &flags, 1, HEADER_FLAGS_OFFSET) == 1;
  if (ok) {
    flags |= HEADER_FLAG_FATAL;
    ok = pwrite(fd, &flags, 1, HEADER_FLAGS_OFFSET) == 1 && fsync(fd) == 0;
  }
  return close(fd) == 0 && ok;
}

JNIEXPORT jboolean JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_flagForRepair(JNIEnv* env, jclass cls,
    jbyteArray path) {
  (void)cls;
  char* p = copy_cstring(env, path, "path");
  if (p == NULL) {
    return JNI_FALSE;
  }
  int done = flag_for_repair(p);
  free(p);
  return done ? JNI_TRUE : JNI_FALSE;
}

/*
 * Makes the descriptor through which the library writes path's undo log (path.wal) read-only, by putting
 * a read-only descriptor of the same file in its place (dup2); 1 when done. The close's rollback still
 * reads the log, but the writes TreeDB's close makes before it (its inner pages and meta record, each
 * logged first) then fail, instead of landing after the message the failure cut, where the rollback's
 * reader stops: with room again before the close, those writes stayed and acknowledged records were lost.
 */
static int freeze_undo_log(const char* path) {
  char wal[PATH_MAX];
  char real[PATH_MAX];
  if ((size_t)snprintf(wal, sizeof(wal), "%s.wal", path) >= sizeof(wal) || realpath(wal, real) == NULL) {
    return 0;
  }
  DIR* fds = opendir("/proc/self/fd");
  if (fds == NULL) {
    return 0;
  }
  int target = -1;
  for (struct dirent* e; (e = readdir(fds)) != NULL;) {
    char link[300];
    char dest[PATH_MAX];
    snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
    ssize_t n = readlink(link, dest, sizeof(dest) - 1);
    if (n > 0) {
      dest[n] = 0;
      if (strcmp(dest, real) == 0) {
        target = atoi(e->d_name);
      }
    }
  }
  closedir(fds);
  int ro = target >= 0 ? open(real, O_RDONLY) : -1;
  if (ro < 0) {
    return 0;
  }
  int done = dup2(ro, target) == target;
  close(ro);
  return done;
}

/*
 * After a transaction that could not be ended, the close must roll the file back to the last commit:
 * the undo log is frozen first (freeze_undo_log). A commit that failed at the meta record has committed
 * the pages already, with the old meta record. Either way the tree the close leaves may not match the
 * pages, so the file is also flagged for Kyoto's repair, which rebuilds the tree from the leaf pages at
 * the next open.
 */
JNIEXPORT void JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_close(JNIEnv* env, jclass cls, jlong h) {
  (void)cls;
  handle* hd = HANDLE(h);
  KCDB* db = hd->db;
  char* path = hd->failed ? kcdbpath(db) : NULL;
  if (path != NULL) {
    freeze_undo_log(path); /* when it cannot, the repair flag below still rebuilds the tree */
  }
  if (!kcdbclose(db)) {
    if (path == NULL) {
      throw_db_error(env, db, "kcdbclose");
    } else { /* the frozen undo log fails the close's own writes (EBADF): say why they were stopped */
      char cause[400];
      char message[1024];
      int32_t code = db_error(db, "kcdbclose", cause, sizeof(cause));
      snprintf(message, sizeof(message), "after an earlier failure (%s) the close rolled %s back to its last"
          " commit and flags it for Kyoto's repair at the next open; the close's own writes were stopped by"
          " making the undo log read-only, so Kyoto's close reported: %s", hd->failed_message, path, cause);
      throw_kyoto(env, code, message);
    }
  }
  kcdbdel(db);
  if (path != NULL) {
    if (!flag_for_repair(path) && !(*env)->ExceptionCheck(env)) {
      char message[600];
      snprintf(message, sizeof(message), "%s: after a transaction that could not be ended, the file could not"
          " be flagged for repair at its next open: run kctreemgr repair on it before using it", path);
      throw_kyoto(env, KCESYSTEM, message);
    }
    kcfree(path);
  }
  pthread_mutex_destroy(&hd->transactions);
  free(hd);
}

/* Treats the handle as after a transaction that could not be ended: a write under Kyoto's own
 * auto-transaction failed, which may have committed part of it (kyoto-binding/README.md). */
JNIEXPORT void JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_markFailed(JNIEnv* env, jclass cls, jlong h,
    jint code, jbyteArray why) {
  (void)cls;
  char* w = copy_cstring(env, why, "why");
  if (w == NULL) {
    return;
  }
  handle* hd = HANDLE(h);
  pthread_mutex_lock(&hd->transactions);
  mark_failed(hd, (int32_t)code, w);
  pthread_mutex_unlock(&hd->transactions);
  free(w);
}

/* The system error of this thread's last failed write call, read right after it: Kyoto's messages for a
 * system error name the call ("ftruncate failed"), not the cause (a full disk: ENOSPC). */
static __thread int work_errno;

/* Copies message into out, with the saved system error when code is a system error. */
static const char* with_cause(int32_t code, const char* message, char* out, size_t size) {
  if (code != KCESYSTEM || work_errno == 0) {
    return message;
  }
  snprintf(out, size, "%s (%s)", message == NULL ? "" : message, strerror(work_errno));
  return out;
}

/* A write's or a batch's work: 1 when done; 0 when a library call failed (its error, read right
 * after it, in *code and *message) or with a Java exception pending (*code left 0). */
typedef int (*work_fn)(KCDB* db, void* context, int32_t* code, const char** message);

/* Aborts the transaction after its work failed, and throws the work's error (read before the abort;
 * with code 0 the work's Java exception is already pending). An abort that fails leaves the library
 * inside the transaction: the handle is marked failed. */
static void abort_with(JNIEnv* env, handle* hd, int32_t code, const char* message) {
  char said[512];
  message = with_cause(code, message, said, sizeof(said));
  char* saved = strdup(message == NULL ? "" : message);
  const char* why = saved != NULL ? saved : "(message lost: no memory)";
  if (kcdbendtran(hd->db, 0)) {
    if (code != 0) {
      throw_kyoto(env, code, why);
    }
  } else {
    char both[768];
    snprintf(both, sizeof(both), "%s; aborting the transaction failed too: %s", why, kcdbemsg(hd->db));
    mark_failed(hd, code != 0 ? code : kcdbecode(hd->db), both);
    if (code != 0) {
      throw_kyoto(env, code, both);
    }
  }
  free(saved);
}

/*
 * Runs work inside one transaction of the library, one transaction of the handle at a time: commits
 * when the work is done, aborts (rolling the file back) when it failed, and throws its error. A commit
 * that fails leaves the library inside the transaction (Kyoto's TreeDB ends its own side of it, not the
 * file's): the handle is marked failed, and its close rolls the file back to the last commit. 1 when
 * committed.
 */
static int in_transaction(JNIEnv* env, handle* hd, jboolean hard, work_fn work, void* context) {
  pthread_mutex_lock(&hd->transactions);
  int committed = 0;
  KCDB* db = hd->db;
  if (refused(env, hd)) {
    /* thrown */
  } else if (!kcdbbegintran(db, hard ? 1 : 0)) {
    throw_db_error(env, db, "kcdbbegintran"); /* nothing begun, nothing changed */
  } else {
    int32_t code = 0;
    const char* message = NULL;
    work_errno = 0;
    if (!work(db, context, &code, &message)) {
      abort_with(env, hd, code, message);
    } else if (errno = 0, !kcdbendtran(db, 1)) {
      work_errno = errno;
      code = kcdbecode(db);
      char said[400];
      char why[512];
      snprintf(why, sizeof(why), "committing the transaction failed: %s",
          with_cause(code, kcdbemsg(db), said, sizeof(said)));
      mark_failed(hd, code, why);
      throw_kyoto(env, code, why);
    } else {
      committed = 1;
    }
  }
  pthread_mutex_unlock(&hd->transactions);
  return committed;
}

/* One record to write, copied out of Java; removed says whether a remove found it. */
typedef struct {
  const char* key;
  size_t ksiz;
  const char* value;
  size_t vsiz;
  jboolean removed;
} record;

static int set_work(KCDB* db, void* context, int32_t* code, const char** message) {
  record* r = context;
  errno = 0;
  if (!kcdbset(db, r->key, r->ksiz, r->value, r->vsiz)) {
    work_errno = errno;
    *code = kcdbecode(db);
    *message = kcdbemsg(db);
    return 0;
  }
  return 1;
}

/* A missing record is not an error: removed says it. */
static int remove_work(KCDB* db, void* context, int32_t* code, const char** message) {
  record* r = context;
  r->removed = JNI_TRUE;
  errno = 0;
  if (!kcdbremove(db, r->key, r->ksiz)) {
    work_errno = errno;
    int32_t c = kcdbecode(db);
    if (c != KCENOREC) {
      *code = c;
      *message = kcdbemsg(db);
      return 0;
    }
    r->removed = JNI_FALSE;
  }
  return 1;
}

/* Runs work for one record: in a transaction of its own, or directly; throws its error. */
static void write_record(JNIEnv* env, handle* hd, work_fn work, record* r, jboolean transaction, jboolean hard) {
  if (transaction) {
    in_transaction(env, hd, hard, work, r);
    return;
  }
  if (refused(env, hd)) {
    return;
  }
  int32_t code = 0;
  const char* message = NULL;
  work_errno = 0;
  if (!work(hd->db, r, &code, &message)) {
    char said[512];
    throw_kyoto(env, code, with_cause(code, message, said, sizeof(said)));
  }
}

JNIEXPORT void JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_set(JNIEnv* env, jclass cls, jlong h,
    jbyteArray key, jbyteArray value, jboolean transaction, jboolean hard) {
  (void)cls;
  buffer b;
  size_t ksiz, vsiz;
  char* p = copy_key_value(env, key, value, &b, &ksiz, &vsiz);
  if (p == NULL) {
    return;
  }
  record r = {p, ksiz, p + ksiz, vsiz, JNI_FALSE};
  write_record(env, HANDLE(h), set_work, &r, transaction, hard);
  buffer_release(&b);
}

JNIEXPORT jbyteArray JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_get(JNIEnv* env, jclass cls, jlong h,
    jbyteArray key) {
  (void)cls;
  if (refused(env, HANDLE(h))) {
    return NULL;
  }
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
    jbyteArray key, jboolean transaction, jboolean hard) {
  (void)cls;
  buffer b;
  size_t ksiz;
  char* p = copy_key(env, key, &b, &ksiz);
  if (p == NULL) {
    return JNI_FALSE;
  }
  record r = {p, ksiz, NULL, 0, JNI_FALSE};
  write_record(env, HANDLE(h), remove_work, &r, transaction, hard);
  buffer_release(&b);
  return r.removed;
}

/* A batch's pairs, and the error of the set that stopped it (read right after it failed). */
typedef struct {
  JNIEnv* env;
  jobjectArray keys;
  jobjectArray values;
  jint count;
  KCDB* db;
  int32_t code;
  const char* message;
} batch_state;

static int batch_set(void* context, const char* key, size_t ksiz, const char* value, size_t vsiz) {
  batch_state* st = context;
  errno = 0;
  if (!kcdbset(st->db, key, ksiz, value, vsiz)) {
    work_errno = errno;
    st->code = kcdbecode(st->db);
    st->message = kcdbemsg(st->db);
    return 0;
  }
  return 1;
}

static int batch_work(KCDB* db, void* context, int32_t* code, const char** message) {
  batch_state* st = context;
  st->db = db;
  int stopped;
  if (!batch_each(st->env, st->keys, st->values, st->count, batch_set, st, &stopped)) {
    if (stopped) {
      *code = st->code;
      *message = st->message;
    }
    return 0; /* else the batch's own exception is pending */
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
  batch_state st = {env, keys, values, count, NULL, 0, NULL};
  in_transaction(env, HANDLE(h), hard, batch_work, &st);
}

JNIEXPORT void JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_sync(JNIEnv* env, jclass cls, jlong h,
    jboolean hard) {
  (void)cls;
  if (refused(env, HANDLE(h))) {
    return;
  }
  KCDB* db = DB(h);
  if (!kcdbsync(db, hard ? 1 : 0, NULL, NULL)) {
    throw_db_error(env, db, "kcdbsync");
  }
}

JNIEXPORT jbyteArray JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_status(JNIEnv* env, jclass cls, jlong h) {
  (void)cls;
  KCDB* db = DB(h);
  char* s = kcdbstatus(db);
  if (s == NULL) {
    throw_db_error(env, db, "kcdbstatus");
    return NULL;
  }
  jbyteArray out = new_bytes(env, s, strlen(s));
  kcfree(s);
  return out;
}

JNIEXPORT jlong JNICALL Java_site_ycsb_embedded_kyoto_KyotoNative_cursor(JNIEnv* env, jclass cls, jlong h) {
  (void)cls;
  if (refused(env, HANDLE(h))) {
    return 0;
  }
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
