package dev.vtscope.testing;

import dev.vtscope.cli.VtScope;
import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs vtscope in-process, as {@code main} would, and captures what it printed. */
public final class Cli {

  private Cli() {}

  /** What one run printed and returned. */
  public record Result(int exitCode, String out, String err) {}

  public static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = VtScope.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  /**
   * Runs vtscope in a child JVM, as {@code java -cp ... VtScope} would: for what only a process
   * has, its own standard input and output.
   *
   * @param redirect sets up the child's streams (e.g. {@code redirectOutput(new
   *     File("/dev/full"))})
   * @param stdin the bytes piped to its standard input, or null to leave it as {@code redirect} set
   */
  public static Result child(
      java.util.function.Consumer<ProcessBuilder> redirect, byte[] stdin, String... args)
      throws Exception {
    ProcessBuilder builder = childProcess(args);
    redirect.accept(builder);
    Process process = builder.start();
    if (stdin != null) {
      try (var in = process.getOutputStream()) {
        in.write(stdin);
      }
    }
    var err =
        java.util.concurrent.CompletableFuture.supplyAsync(() -> text(process.getErrorStream()));
    String out = text(process.getInputStream());
    if (!process.waitFor(300, java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("vtscope " + String.join(" ", args) + " did not end");
    }
    return new Result(process.exitValue(), out, err.get());
  }

  /** vtscope in a child JVM, not started yet: for a test that signals it or closes its streams. */
  public static ProcessBuilder childProcess(String... args) {
    return new ProcessBuilder(ChildJvms.vtscope(TestRecordings.currentJava(), args));
  }

  /** All of {@code in}, as UTF-8. */
  public static String text(java.io.InputStream in) {
    try {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
