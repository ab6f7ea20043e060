package site.ycsb.embedded;

import site.ycsb.ByteIterator;

/**
 * A value whose maker hands its array over: {@link #toArray()} returns that array itself rather than
 * a copy (YCSB's ByteArrayByteIterator copies), so a value made by the workload reaches the engine's
 * put without a copy in Java. Whoever makes one must not write to the array afterwards.
 */
public final class HandedOverBytes extends ByteIterator {

  private final byte[] bytes;
  private int off;

  public HandedOverBytes(byte[] bytes) {
    this.bytes = bytes;
  }

  @Override
  public boolean hasNext() {
    return off < bytes.length;
  }

  @Override
  public byte nextByte() {
    return bytes[off++];
  }

  @Override
  public int nextBuf(byte[] buf, int bufOff) {
    int n = Math.min(buf.length - bufOff, bytes.length - off);
    System.arraycopy(bytes, off, buf, bufOff, n);
    off += n;
    return bufOff + n;
  }

  @Override
  public long bytesLeft() {
    return bytes.length - off;
  }

  @Override
  public void reset() {
    off = 0;
  }

  /** The remaining bytes; the whole array itself, not a copy, when nothing was read yet. Consumes them. */
  @Override
  public byte[] toArray() {
    byte[] rest = off == 0 ? bytes : java.util.Arrays.copyOfRange(bytes, off, bytes.length);
    off = bytes.length;
    return rest;
  }
}
