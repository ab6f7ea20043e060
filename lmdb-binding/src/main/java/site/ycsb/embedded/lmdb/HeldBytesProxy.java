package site.ycsb.embedded.lmdb;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.util.Comparator;

import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.provider.MemoryManager;
import org.lmdbjava.BufferProxy;
import org.lmdbjava.ByteArrayProxy;

/**
 * Keys and values as Java byte arrays, as lmdbjava's {@code ByteArrayProxy}, but with native copies
 * that stay alive until the call that reads them has returned.
 *
 * <p>lmdbjava 0.9.1's proxy copies a key into native memory whose only reference is a local variable
 * of {@code in()}: the garbage collector may free it before {@code mdb_put} reads it (lmdbjava issue
 * 252). Here a batched load crashed the JVM that way (SIGSEGV in {@code mdb_node_search}). This proxy
 * copies into two native buffers per thread, used in turn and kept by the thread: a call into LMDB
 * reads at most the two values handed in just before it (a key and a value), each in its own buffer,
 * and LMDB copies what it keeps before it returns. Values coming out are copied into new arrays (none while a
 * lookup only has to find its key: {@link #valuesUnread}).
 *
 * <p>The copies are {@code sun.misc.Unsafe.copyMemory}, which the JIT compiles to a plain copy. JNR-FFI's
 * own ({@code Pointer.put} and {@code get} of a byte array) each cross into native code through JNI
 * (jffi's {@code Foreign.putByteArray}, {@code getByteArray}), and reading a value built a {@code Pointer}
 * object for it: two JNI crossings and an allocation per read, measured in lmdb-binding/README.md. Unsafe
 * is reached by reflection (module jdk.unsupported opens it to every module, so no JVM flag is needed).
 */
final class HeldBytesProxy extends BufferProxy<byte[]> {

  static final BufferProxy<byte[]> INSTANCE = new HeldBytesProxy();

  private static final MemoryManager MEMORY = Runtime.getSystemRuntime().getMemoryManager();
  private static final ThreadLocal<Held> HELD = ThreadLocal.withInitial(Held::new);
  /** {@code Unsafe.copyMemory(Object srcBase, long srcOffset, Object destBase, long destOffset, long bytes)}. */
  private static final MethodHandle COPY;
  /** Where a byte array's first element lies in the array object ({@code Unsafe.arrayBaseOffset}). */
  private static final long BYTES;

  static {
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
      theUnsafe.setAccessible(true);
      Object unsafe = theUnsafe.get(null);
      COPY = MethodHandles.lookup().findVirtual(unsafeClass, "copyMemory", MethodType.methodType(void.class,
          Object.class, long.class, Object.class, long.class, long.class)).bindTo(unsafe);
      BYTES = (int) unsafeClass.getMethod("arrayBaseOffset", Class.class).invoke(unsafe, byte[].class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new ExceptionInInitializerError("the LMDB binding copies keys and values with sun.misc.Unsafe"
          + " (module jdk.unsupported), which this JVM does not give: " + e);
    }
  }

  /** One thread's two native buffers, handed out in turn; each grows to the largest copy it took. */
  private static final class Held {
    /** The buffers' owners: the memory stays allocated while they are referenced. */
    private final Pointer[] buffers = new Pointer[2];
    private final long[] addresses = new long[2];
    private final int[] sizes = new int[2];
    private int next;
    /** Set around a call whose value only has to be found ({@link #valuesUnread}): {@link #out} copies nothing. */
    private boolean valueUnread;

    /** The address of the next buffer, of at least {@code size} bytes. */
    long take(int size) {
      int i = next;
      next = 1 - i;
      if (buffers[i] == null || sizes[i] < size) {
        sizes[i] = Math.max(size, Math.max(256, 2 * sizes[i]));
        buffers[i] = MEMORY.allocateDirect(sizes[i]);
        addresses[i] = buffers[i].address();
      }
      return addresses[i];
    }
  }

  /** Copies {@code bytes} bytes: an array and an offset in it from {@link #BYTES} on, or null and an address. */
  private static void copy(Object from, long fromOffset, Object to, long toOffset, long bytes) {
    try {
      COPY.invokeExact(from, fromOffset, to, toOffset, bytes);
    } catch (Error | RuntimeException e) {
      throw e;
    } catch (Throwable e) { // copyMemory declares no checked exception
      throw new IllegalStateException(e);
    }
  }

  private HeldBytesProxy() {
  }

  private static final byte[] NONE = new byte[0];

  /**
   * The placeholder lmdbjava keeps for a transaction's key and value (two per transaction): one shared empty array,
   * since {@link #out} never reads or writes it and {@link #deallocate} frees nothing.
   */
  @Override
  protected byte[] allocate() {
    return NONE;
  }

  @Override
  protected void deallocate(byte[] buffer) {
    // a Java array: nothing native to free
  }

  @Override
  protected byte[] getBytes(byte[] buffer) {
    return buffer;
  }

  @Override
  protected Comparator<byte[]> getSignedComparator() {
    return ByteArrayProxy::compareArraysSigned;
  }

  @Override
  protected Comparator<byte[]> getUnsignedComparator() {
    return ByteArrayProxy::compareArrays;
  }

  /** Points the MDB_val at {@code ptr} to a copy of {@code buffer} in this thread's next held buffer. */
  @Override
  protected void in(byte[] buffer, Pointer ptr, long ptrAddr) {
    long copy = HELD.get().take(buffer.length);
    copy(buffer, BYTES, null, copy, buffer.length);
    ptr.putLong(STRUCT_FIELD_OFFSET_SIZE, buffer.length);
    ptr.putAddress(STRUCT_FIELD_OFFSET_DATA, copy);
  }

  /** MDB_RESERVE's sizing call: the binding never reserves. */
  @Override
  protected void in(byte[] buffer, int size, Pointer ptr, long ptrAddr) {
    throw new UnsupportedOperationException("the LMDB binding does not reserve values (MDB_RESERVE)");
  }

  /**
   * With {@code unread} true, lmdbjava's calls on this thread copy no value out until it is set false again:
   * {@link #out} hands back an empty array instead, so that finding a key costs no copy of its value.
   */
  static void valuesUnread(boolean unread) {
    HELD.get().valueUnread = unread;
  }

  /** A new array with the bytes the MDB_val at {@code ptr} points to (none while {@link #valuesUnread}). */
  @Override
  protected byte[] out(byte[] buffer, Pointer ptr, long ptrAddr) {
    if (HELD.get().valueUnread) {
      return NONE;
    }
    long address = ptr.getAddress(STRUCT_FIELD_OFFSET_DATA);
    int size = (int) ptr.getLong(STRUCT_FIELD_OFFSET_SIZE);
    byte[] bytes = new byte[size];
    copy(null, address, bytes, BYTES, size);
    return bytes;
  }
}
