package site.ycsb.embedded;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * stdout and stderr held while the warm-up runs: what the scratch database's open, the engine and the
 * workload print would read as the measured phase's start-up lines. Released to the real streams on a
 * failure, dropped otherwise; whatever kept a reference to the held stream writes through to the real one
 * after the warm-up.
 */
final class HeldOutput extends OutputStream {

  private final PrintStream out = System.out;
  private final PrintStream err = System.err;
  private ByteArrayOutputStream held = new ByteArrayOutputStream();

  static HeldOutput install() {
    HeldOutput h = new HeldOutput();
    PrintStream ps = new PrintStream(h, true, StandardCharsets.UTF_8);
    System.setOut(ps);
    System.setErr(ps);
    return h;
  }

  synchronized void release(boolean show) {
    if (held == null) {
      return;
    }
    System.setOut(out);
    System.setErr(err);
    if (show) {
      err.print(held.toString(StandardCharsets.UTF_8));
      err.flush();
    }
    held = null;
  }

  @Override
  public synchronized void write(int b) {
    if (held != null) {
      held.write(b);
    } else {
      err.write(b);
    }
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) {
    if (held != null) {
      held.write(b, off, len);
    } else {
      err.write(b, off, len);
    }
  }
}
