package dev.vtscope.cli;

import dev.vtscope.analysis.ReadProgress;
import dev.vtscope.recording.RecordingInput;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A progress line on stderr while large recordings are read: bytes read of the total, chunks,
 * elapsed time; rewritten in place and cleared when reading is over. Shown only when stderr is a
 * terminal, the inputs add up to {@link #MIN_BYTES} or more, and reading takes longer than a
 * moment. While a series of thread dumps is taken, the same line says which dump is being taken.
 */
final class ProgressLine implements ReadProgress {

  /** Inputs smaller than this are read too fast to need a progress line. */
  static final long MIN_BYTES = 64L << 20;

  private static final long FIRST_AFTER_NANOS = 300_000_000L;
  private static final long EVERY_NANOS = 100_000_000L;

  private final PrintWriter err;
  private final long total;
  private final long startNanos = System.nanoTime();
  private long read;
  private int chunks;
  private long lastShown;
  private boolean shown;

  private ProgressLine(PrintWriter err, long total) {
    this.err = err;
    this.total = total;
  }

  /**
   * A progress line for {@code inputs} on {@code err}, or {@link ReadProgress#NONE} when {@code
   * wanted} is false, stderr is not a terminal or the inputs are small.
   */
  static ReadProgress forInputs(List<RecordingInput> inputs, boolean wanted, PrintWriter err) {
    if (!wanted || !stderrIsTerminal()) {
      return ReadProgress.NONE;
    }
    long total = 0;
    for (RecordingInput input : inputs) {
      for (Path file : input.files()) {
        try {
          total += Files.size(file);
        } catch (IOException e) {
          // the reading itself reports it
        }
      }
    }
    return total < MIN_BYTES ? ReadProgress.NONE : new ProgressLine(err, total);
  }

  /**
   * A progress line for a series of thread dumps on {@code err}, or null when {@code wanted} is
   * false or stderr is not a terminal.
   */
  static ProgressLine forDumps(boolean wanted, PrintWriter err) {
    return wanted && stderrIsTerminal() ? new ProgressLine(err, 0) : null;
  }

  /**
   * The launcher says whether stderr is a terminal ({@code -Dvtscope.stderrTerminal}); run without
   * it, a console on standard input and output stands in for it.
   */
  private static boolean stderrIsTerminal() {
    String told = System.getProperty("vtscope.stderrTerminal");
    if (told != null) {
      return Boolean.parseBoolean(told);
    }
    return System.console() != null && TerminalFacts.consoleIsTerminal();
  }

  @Override
  public synchronized void chunkRead(long bytes) {
    read += bytes;
    chunks++;
    long now = System.nanoTime();
    if (now - startNanos < FIRST_AFTER_NANOS || now - lastShown < EVERY_NANOS) {
      return;
    }
    lastShown = now;
    show(line(now));
  }

  /** Says that dump {@code n} of a series of {@code count} is being taken. */
  synchronized void dump(int n, int count) {
    show(
        String.format(
            Locale.ROOT,
            "vtscope dump: taking dump %d of %d, %.1f s",
            n,
            count,
            (System.nanoTime() - startNanos) / 1e9));
  }

  private void show(String line) {
    shown = true;
    err.print("\r" + line + "\033[K");
    err.flush();
  }

  String line(long now) {
    return String.format(
        Locale.ROOT,
        "vtscope: reading %s of %s (%d%%), %d chunk%s, %.1f s",
        size(read),
        size(total),
        total == 0 ? 100 : Math.min(100, read * 100 / total),
        chunks,
        chunks == 1 ? "" : "s",
        (now - startNanos) / 1e9);
  }

  @Override
  public synchronized void done() {
    if (shown) {
      err.print("\r\033[K");
      err.flush();
      shown = false;
    }
  }

  private static String size(long bytes) {
    if (bytes >= 1L << 30) {
      return String.format(Locale.ROOT, "%.2f GiB", bytes / (double) (1L << 30));
    }
    return String.format(Locale.ROOT, "%d MiB", bytes >> 20);
  }
}
