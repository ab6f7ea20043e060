package site.ycsb.embedded.kyoto;

import java.io.IOException;

/**
 * The binding's own thin JNI layer over Kyoto Cabinet's C API (kclangc.h), implemented in
 * {@code src/main/c/kyotojni.c} and built into {@code target/native/libkyotojni.so}.
 *
 * <p>Handles are the C pointers (KCDB*, KCCUR*) passed as longs. A database handle is
 * thread-safe; a cursor belongs to the one thread that made it and is destroyed by it. Every
 * failing call throws {@link KyotoException} with the error code and message the library set
 * for the calling thread, read in C right after the failing call; "no record" is not an error:
 * {@link #get} returns null, {@link #remove} and {@link #jump} false, {@link #next} null.
 */
final class KyotoNative {

  /** The library name: libkyotojni.so in java.library.path (bin/ycsb sets it). */
  static final String LIBRARY = "kyotojni";

  // Open modes of kclangc.h; kyotojni.c checks at compile time that they match.
  static final int OREADER = 1;
  static final int OWRITER = 1 << 1;
  static final int OCREATE = 1 << 2;
  static final int OTRUNCATE = 1 << 3;
  static final int OAUTOTRAN = 1 << 4;
  static final int OAUTOSYNC = 1 << 5;
  static final int ONOLOCK = 1 << 6;
  static final int OTRYLOCK = 1 << 7;
  static final int ONOREPAIR = 1 << 8;

  // Error codes of kclangc.h (checked the same way).
  static final int ESUCCESS = 0;
  static final int ENOIMPL = 1;
  static final int EINVALID = 2;
  static final int ENOREPOS = 3;
  static final int ENOPERM = 4;
  static final int EBROKEN = 5;
  static final int EDUPREC = 6;
  static final int ENOREC = 7;
  static final int ELOGIC = 8;
  static final int ESYSTEM = 9;
  static final int EMISC = 15;

  /** Bytes in front of every value {@link #fill} writes: its length, a little-endian int. */
  static final int LENGTH_BYTES = site.ycsb.embedded.NativeScanBuffer.LENGTH_BYTES;

  /** Why the library could not be loaded, with what to install; null when it is loaded. */
  private static final String LOAD_ERROR =
      site.ycsb.embedded.JniLibrary.load(KyotoNative.class, LIBRARY, KyotoNative::explain);

  private KyotoNative() {
  }

  /** Throws a clear error naming what is missing when the JNI library could not be loaded. */
  static void ensureLoaded() throws IOException {
    if (LOAD_ERROR != null) {
      throw new IOException(LOAD_ERROR);
    }
  }

  /** Turns the JVM's link error into a message that names the missing file or package. */
  static String explain(String linkError, String libraryPath) {
    String m = String.valueOf(linkError);
    if (m.contains("libkyotocabinet")) {
      return "the Kyoto Cabinet C library libkyotocabinet.so.16 is missing (" + m + "): install the"
          + " Debian package libkyotocabinet16v5 (apt-get install libkyotocabinet16v5, or"
          + " libkyotocabinet-dev which brings it; scripts/setup.sh does this)";
    }
    if (m.contains("no " + LIBRARY + " in java.library.path") || m.contains("lib" + LIBRARY + ".so")) {
      return "the binding's JNI library lib" + LIBRARY + ".so cannot be loaded from java.library.path="
          + libraryPath + " (" + m + "): build it with 'mvn -q -B package -DskipTests -pl kyoto-binding -am'"
          + " (needs gcc and the Debian package libkyotocabinet-dev) and start the JVM with"
          + " -Djava.library.path=kyoto-binding/target/native, as bin/ycsb does";
    }
    return "cannot load the Kyoto Cabinet JNI library lib" + LIBRARY + ".so (it needs the Debian package"
        + " libkyotocabinet16v5): " + m;
  }

  /** KCVERSION, the C library's version ("1.2.79"). */
  static native String version();

  /**
   * Opens a database: kcdbnew + kcdbopen. {@code pathAndTuning} is the UTF-8 file name with its
   * "#name=value" tuning parameters. Returns the KCDB pointer; on failure the object is deleted.
   */
  static native long open(byte[] pathAndTuning, int mode) throws KyotoException;

  /** kcdbclose + kcdbdel: the pointer is invalid afterwards even when this throws. */
  static native void close(long db) throws KyotoException;

  /**
   * Sets the fatal-error flag in the header of the closed file {@code path}, so that Kyoto's next open
   * rebuilds it from the records it holds (and a TreeDB's tree from its leaf pages); false when it could not.
   */
  static native boolean flagForRepair(byte[] path);

  /**
   * Treats {@code db} as after a transaction that could not be ended: every later call but status and close
   * is refused with {@code why}, and the close rolls the file back to the last commit and flags it for repair.
   */
  static native void markFailed(long db, int code, byte[] why);

  /**
   * kcdbset. With {@code transaction} the set runs in a transaction of its own (kcdbbegintran, set,
   * kcdbendtran; aborted when the set fails), one transaction of the handle at a time; {@code hard}: the
   * commit syncs the device. A transaction whose commit or abort fails leaves the handle refusing every
   * call but {@link #status} and {@link #close}, whose rollback takes the file back to the last commit.
   */
  static native void set(long db, byte[] key, byte[] value, boolean transaction, boolean hard)
      throws KyotoException;

  /** The value stored under {@code key}, or null when there is none. */
  static native byte[] get(long db, byte[] key) throws KyotoException;

  /** Removes {@code key}; false when it was absent. {@code transaction} and {@code hard} as for {@link #set}. */
  static native boolean remove(long db, byte[] key, boolean transaction, boolean hard) throws KyotoException;

  /**
   * Sets the first {@code count} pairs inside one transaction (kcdbbegintran, sets, kcdbendtran);
   * a failing set aborts the transaction. {@code hard}: the commit syncs the device. As for {@link #set}
   * with a transaction.
   */
  static native void setInTransaction(long db, byte[][] keys, byte[][] values, int count, boolean hard)
      throws KyotoException;

  /** kcdbsync: writes every dirty page to the file; {@code hard} also syncs the device. */
  static native void sync(long db, boolean hard) throws KyotoException;

  /** kcdbstatus: UTF-8 lines of "name TAB value". */
  static native byte[] status(long db) throws KyotoException;

  /** A new cursor (KCCUR*) on {@code db}; the caller must {@link #destroy} it. */
  static native long cursor(long db);

  /** Positions the cursor on the first key >= {@code key} (the first record when key is empty). */
  static native boolean jump(long cursor, byte[] key) throws KyotoException;

  /** The value under the cursor, stepping to the next record; null past the last one. */
  static native byte[] next(long cursor) throws KyotoException;

  /**
   * Copies values from the cursor on, each as a {@link #LENGTH_BYTES} length then the bytes, into the
   * direct buffer {@code out}, at most {@code maxEntries}, stepping past each one copied: one crossing
   * for a buffer full of values. Returns (bytes used &lt;&lt; 1) | 1 when the cursor went past the last
   * record; -n when the first value alone needs n bytes, more than {@code out} holds (nothing copied,
   * the cursor is back on that record).
   */
  static native long fill(long cursor, java.nio.ByteBuffer out, int maxEntries) throws KyotoException;

  /** kccurdel. */
  static native void destroy(long cursor);
}
