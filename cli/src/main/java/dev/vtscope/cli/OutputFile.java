package dev.vtscope.cli;

import dev.vtscope.files.AtomicFile;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * How a command writes a file it was asked to write: a report ({@code -o}), a JUnit file, a
 * redacted recording, a report {@code explore} saves; {@code -} names standard output. The file is
 * written whole or not at all ({@link AtomicFile}, the one write path). A failure is one line,
 * {@code cannot write FILE: why}, with exit code 3.
 */
final class OutputFile {

  private OutputFile() {}

  /**
   * Whether {@code a} and {@code b} are one file, so that the one written last would replace the
   * other: the same name, two names of one regular file, or both {@code -}. A device or a pipe is
   * written in turn, never replaced, and may be named twice.
   */
  static boolean sameFile(Path a, Path b) {
    if (isStandardOutput(a) || isStandardOutput(b)) {
      return isStandardOutput(a) && isStandardOutput(b);
    }
    Path first = a.toAbsolutePath().normalize();
    Path second = b.toAbsolutePath().normalize();
    if (Files.exists(first) && !Files.isRegularFile(first)) {
      return false;
    }
    if (first.equals(second)) {
      return true;
    }
    try {
      return Files.exists(first) && Files.exists(second) && Files.isSameFile(first, second);
    } catch (IOException e) {
      return false; // not known to be one file: each is written, or fails, on its own
    }
  }

  /** The name that stands for standard output, as {@code -} stands for standard input. */
  static final String STDOUT = "-";

  /** Whether {@code target} is {@code -}, standard output. */
  static boolean isStandardOutput(Path target) {
    return target.toString().equals(STDOUT);
  }

  /**
   * Writes {@code text} to {@code target} as UTF-8, or to {@code stdout} when {@code target} is
   * {@code -}.
   */
  static void writeText(Path target, PrintWriter stdout, Consumer<PrintWriter> text) {
    if (isStandardOutput(target)) {
      text.accept(stdout);
      stdout.flush();
      return;
    }
    write(
        target,
        out -> {
          CheckedWriter writer =
              new CheckedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
          text.accept(writer);
          writer.check();
        });
  }

  /** Writes {@code content} to {@code target}. */
  static void write(Path target, AtomicFile.Content content) {
    try {
      AtomicFile.write(target, content);
    } catch (AtomicFile.WriteFailedException e) {
      throw failed(e);
    }
  }

  /**
   * Writes {@code target} by {@code content}, which writes a whole file at the path it is given.
   */
  static void writeFile(Path target, AtomicFile.FileContent content) {
    try {
      AtomicFile.writeFile(target, content);
    } catch (AtomicFile.WriteFailedException e) {
      throw failed(e);
    }
  }

  private static ExitException failed(AtomicFile.WriteFailedException e) {
    return new ExitException(ExitCode.INPUT_UNREADABLE, e.getMessage(), e);
  }
}
