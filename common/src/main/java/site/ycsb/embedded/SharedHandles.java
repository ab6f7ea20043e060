package site.ycsb.embedded;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One engine handle per engine and DB path per JVM, shared by every YCSB client thread.
 *
 * <p>YCSB calls {@code init()} and {@code cleanup()} once per client thread. The first
 * {@link #acquire} for a path opens the engine; later ones join it; the last
 * {@link Lease#close()} closes it. Opening and closing happen under one lock, so no thread
 * can ever see a handle that is being closed: using a closed native handle crashes the JVM.
 */
public final class SharedHandles {

  /** Opens the engine; runs once per path, under the registry lock. */
  @FunctionalInterface
  public interface Opener<H> {
    H open() throws Exception;
  }

  /** Closes the engine; runs once per path, when the last lease is closed. */
  @FunctionalInterface
  public interface Closer<H> {
    void close(H handle) throws Exception;
  }

  private static final Map<String, Entry<?>> OPEN = new HashMap<>();

  private SharedHandles() {
  }

  /** Opens (first caller) or joins (later callers) the handle for {@code engine} at {@code path}. */
  public static <H> Lease<H> acquire(String engine, Path path, Opener<H> opener, Closer<H> closer)
      throws Exception {
    String key = engine + ":" + path.toAbsolutePath().normalize();
    synchronized (OPEN) {
      @SuppressWarnings("unchecked")
      Entry<H> e = (Entry<H>) OPEN.get(key);
      if (e == null) {
        e = new Entry<>(key, opener.open(), closer);
        OPEN.put(key, e);
      }
      e.refs++;
      return new Lease<>(e);
    }
  }

  /** How many handles are open now (for tests and diagnostics). */
  public static int openCount() {
    synchronized (OPEN) {
      return OPEN.size();
    }
  }

  /** Whether a handle for this engine and path is open now. */
  public static boolean isOpen(String engine, Path path) {
    synchronized (OPEN) {
      return OPEN.containsKey(engine + ":" + path.toAbsolutePath().normalize());
    }
  }

  private static final class Entry<H> {
    final String key;
    final H handle;
    final Closer<H> closer;
    /** The handle's per-key stripes, which its clients' read-merge-write updates take. */
    final KeyStripes stripes = new KeyStripes();
    int refs;

    Entry(String key, H handle, Closer<H> closer) {
      this.key = key;
      this.handle = handle;
      this.closer = closer;
    }
  }

  /**
   * One client's share of a handle. Closing it twice is harmless: it releases once. Not AutoCloseable:
   * the engine's close may throw anything, and a share is released by cleanup(), not by a block's end.
   */
  public static final class Lease<H> {
    private final Entry<H> entry;
    private final AtomicBoolean released = new AtomicBoolean();

    private Lease(Entry<H> entry) {
      this.entry = entry;
    }

    public H get() {
      if (released.get()) {
        throw new IllegalStateException("handle " + entry.key + " used after this client released it");
      }
      return entry.handle;
    }

    /** The handle's per-key stripes: one per handle, shared by every client of it. */
    public KeyStripes stripes() {
      return entry.stripes;
    }

    /** Releases this client's share; the last share closes the engine. */
    public void close() throws Exception {
      if (!released.compareAndSet(false, true)) {
        return;
      }
      synchronized (OPEN) {
        if (--entry.refs > 0) {
          return;
        }
        OPEN.remove(entry.key);
        entry.closer.close(entry.handle);
      }
    }
  }
}
