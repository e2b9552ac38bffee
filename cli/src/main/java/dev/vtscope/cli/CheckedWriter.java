package dev.vtscope.cli;

import java.io.BufferedWriter;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;

/**
 * A {@link PrintWriter} that keeps why a write failed. A PrintWriter swallows its writer's errors
 * and keeps only that there was one ({@link #checkError}); standard output and the files vtscope
 * writes need the reason too, for the one line that says what went wrong.
 */
final class CheckedWriter extends PrintWriter {

  private final Keeping kept;

  CheckedWriter(Writer out) {
    this(out, false);
  }

  CheckedWriter(Writer out, boolean autoFlush) {
    this(new Keeping(out), autoFlush);
  }

  private CheckedWriter(Keeping kept, boolean autoFlush) {
    super(new BufferedWriter(kept), autoFlush);
    this.kept = kept;
  }

  /** The first failure of the writer below, or null. */
  IOException failure() {
    return kept.failure;
  }

  /**
   * Flushes what is buffered.
   *
   * @throws IOException the first failure of any write so far
   */
  void check() throws IOException {
    if (checkError()) {
      throw kept.failure != null ? kept.failure : new IOException("the write failed");
    }
  }

  /** Whether {@code failure} is a reader that went away: a pipe closed, as by {@code head -1}. */
  static boolean closedPipe(IOException failure) {
    String message = failure == null ? null : failure.getMessage();
    return message != null && message.toLowerCase(java.util.Locale.ROOT).contains("broken pipe");
  }

  /** Passes everything on, and keeps the first failure. */
  private static final class Keeping extends FilterWriter {
    private IOException failure;

    Keeping(Writer out) {
      super(out);
    }

    private IOException keep(IOException e) {
      if (failure == null) {
        failure = e;
      }
      return e;
    }

    @Override
    public void write(int c) throws IOException {
      try {
        out.write(c);
      } catch (IOException e) {
        throw keep(e);
      }
    }

    @Override
    public void write(char[] chars, int offset, int length) throws IOException {
      try {
        out.write(chars, offset, length);
      } catch (IOException e) {
        throw keep(e);
      }
    }

    @Override
    public void write(String text, int offset, int length) throws IOException {
      try {
        out.write(text, offset, length);
      } catch (IOException e) {
        throw keep(e);
      }
    }

    @Override
    public void flush() throws IOException {
      try {
        out.flush();
      } catch (IOException e) {
        throw keep(e);
      }
    }

    @Override
    public void close() throws IOException {
      try {
        out.close();
      } catch (IOException e) {
        throw keep(e);
      }
    }
  }
}
