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
}
