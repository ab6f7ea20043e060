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

  /** What a binding runs over an open native cursor's fills (a {@link #feed} or {@link #feedSizes}). */
  @FunctionalInterface
  public interface FillUser {
    void accept(Fill fill) throws IOException;
  }

  /** Feeds up to {@code count} values to {@code sink} in the cursor's order, filling as often as needed. */
  public static void feed(Fill nativeFill, int count, KeyValueDB.ValueSink sink) throws IOException {
    walk(nativeFill, count, sink, null);
  }

  /**
   * Feeds the lengths of up to {@code count} values to {@code sink}: the values are read and copied
   * natively as for {@link #feed}, but no Java array is made for them (the full pass's byte count).
   */
  public static void feedSizes(Fill nativeFill, int count, KeyValueDB.SizeSink sink) throws IOException {
    walk(nativeFill, count, null, sink);
  }

  /** The fill loop of both: values to {@code values} when it is not null, else lengths to {@code sizes}. */
  private static void walk(Fill nativeFill, int count, KeyValueDB.ValueSink values, KeyValueDB.SizeSink sizes)
      throws IOException {
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
      if (values == null) {
        // Lengths only: read in place, the value bytes stay in the direct buffer.
        for (int at = 0; at < used; left--) {
          int length = Integer.reverseBytes(buf.getInt(at)); // little-endian; a direct buffer reads big-endian
          sizes.accept(length);
          at += LENGTH_BYTES + length;
        }
      } else {
        if (copy.length < used) {
          copy = new byte[buf.capacity()];
          COPY.set(copy);
        }
        // One bulk copy per fill, then plain array reads: cheap even before the JIT compiles this loop.
        buf.get(0, copy, 0, used);
        for (int at = 0; at < used; left--) {
          int length = (copy[at] & 0xff) | (copy[at + 1] & 0xff) << 8 | (copy[at + 2] & 0xff) << 16
              | (copy[at + 3] & 0xff) << 24;
          at += LENGTH_BYTES;
          values.accept(Arrays.copyOfRange(copy, at, at + length));
          at += length;
        }
      }
      if ((r & 1) != 0) {
        return; // the cursor is past the last record
      }
    }
  }
}
