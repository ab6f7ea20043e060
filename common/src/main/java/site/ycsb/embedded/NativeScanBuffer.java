package site.ycsb.embedded;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The Java side of a native scan that crosses once per buffer, not once per value (the LevelDB
 * system layer's and Kyoto's JNI): the native call copies as many values as fit into a direct
 * buffer, each as a 4-byte little-endian length and its bytes, and returns {@code (bytes used << 1)
 * | 1 when the cursor is past the end}, or minus the bytes the next value needs when it does not
 * fit. Each client thread reuses one buffer and one copy array across scans.
 */
public final class NativeScanBuffer {

  /** Bytes of the length before each value. */
  public static final int LENGTH_BYTES = 4;
  /** The buffer each thread starts with; a larger value grows that thread's buffer. */
  public static final int INITIAL_BYTES = 256 << 10;
  /** Values one fill may copy (bounds the int it reports). */
  private static final int MAX_ENTRIES_PER_FILL = 1 << 20;

  private static final ThreadLocal<ByteBuffer> BUFFER =
      ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(INITIAL_BYTES));
  /** What a fill wrote, copied out of the direct buffer in one call. */
  private static final ThreadLocal<byte[]> COPY = ThreadLocal.withInitial(() -> new byte[INITIAL_BYTES]);

  private NativeScanBuffer() {
  }

  /** One native fill of {@code buffer} with at most {@code maxEntries} values, from where the cursor is. */
  @FunctionalInterface
  public interface Fill {
    long fill(ByteBuffer buffer, int maxEntries) throws IOException;
  }

  /** Feeds up to {@code count} values to {@code sink} in the cursor's order, filling as often as needed. */
  public static void feed(Fill nativeFill, int count, KeyValueDB.ValueSink sink) throws IOException {
    ByteBuffer buf = BUFFER.get();
    byte[] copy = COPY.get();
    int left = count;
    while (left > 0) {
      long r = nativeFill.fill(buf, Math.min(left, MAX_ENTRIES_PER_FILL));
      if (r < 0) {
        buf = ByteBuffer.allocateDirect((int) Math.min(Integer.MAX_VALUE - 8, Math.max(-r, buf.capacity() * 2L)));
        BUFFER.set(buf);
        continue;
      }
      int used = (int) (r >>> 1);
      if (copy.length < used) {
        copy = new byte[buf.capacity()];
        COPY.set(copy);
      }
      // One bulk copy per fill, then plain array reads: cheap even before the JIT compiles this loop.
      buf.get(0, copy, 0, used);
      int at = 0;
      while (at < used) {
        int length = (copy[at] & 0xff) | (copy[at + 1] & 0xff) << 8 | (copy[at + 2] & 0xff) << 16
            | (copy[at + 3] & 0xff) << 24;
        at += LENGTH_BYTES;
        sink.accept(Arrays.copyOfRange(copy, at, at + length));
        at += length;
        left--;
      }
      if ((r & 1) != 0) {
        return; // the cursor is past the last record
      }
    }
  }
}
