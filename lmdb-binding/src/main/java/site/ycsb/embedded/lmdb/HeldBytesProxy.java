package site.ycsb.embedded.lmdb;

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
 * and LMDB copies what it keeps before it returns. Values coming out are copied into new arrays.
 */
final class HeldBytesProxy extends BufferProxy<byte[]> {

  static final BufferProxy<byte[]> INSTANCE = new HeldBytesProxy();

  private static final MemoryManager MEMORY = Runtime.getSystemRuntime().getMemoryManager();
  private static final ThreadLocal<Held> HELD = ThreadLocal.withInitial(Held::new);

  /** One thread's two native buffers, handed out in turn; each grows to the largest copy it took. */
  private static final class Held {
    private final Pointer[] buffers = new Pointer[2];
    private final int[] sizes = new int[2];
    private int next;

    Pointer take(int size) {
      int i = next;
      next = 1 - i;
      if (buffers[i] == null || sizes[i] < size) {
        sizes[i] = Math.max(size, Math.max(256, 2 * sizes[i]));
        buffers[i] = MEMORY.allocateDirect(sizes[i]);
      }
      return buffers[i];
    }
  }

  private HeldBytesProxy() {
  }

  @Override
  protected byte[] allocate() {
    return new byte[0];
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
    Pointer copy = HELD.get().take(buffer.length);
    copy.put(0, buffer, 0, buffer.length);
    ptr.putLong(STRUCT_FIELD_OFFSET_SIZE, buffer.length);
    ptr.putAddress(STRUCT_FIELD_OFFSET_DATA, copy.address());
  }

  /** MDB_RESERVE's sizing call: the binding never reserves. */
  @Override
  protected void in(byte[] buffer, int size, Pointer ptr, long ptrAddr) {
    throw new UnsupportedOperationException("the LMDB binding does not reserve values (MDB_RESERVE)");
  }

  /** A new array with the bytes the MDB_val at {@code ptr} points to. */
  @Override
  protected byte[] out(byte[] buffer, Pointer ptr, long ptrAddr) {
    long address = ptr.getAddress(STRUCT_FIELD_OFFSET_DATA);
    int size = (int) ptr.getLong(STRUCT_FIELD_OFFSET_SIZE);
    byte[] bytes = new byte[size];
    MEMORY.newPointer(address, size).get(0, bytes, 0, size);
    return bytes;
  }
}
