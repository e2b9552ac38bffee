package dev.vtscope.cli;

import java.io.PrintWriter;
import java.io.Writer;

/**
 * The phases of one short run, timed in the JVM that runs it (bench/startup-phases.sh): building
 * the command line, then running the command. In vtscope's package, for VtScope.commandLine.
 */
public final class StartupPhases {

  private StartupPhases() {}

  public static void main(String[] args) {
    PrintWriter none = new PrintWriter(Writer.nullWriter());
    try (Prefetch prefetch = Prefetch.start(args)) {
      long start = System.nanoTime();
      picocli.CommandLine commandLine = VtScope.commandLine(none, none, args[0]);
      long built = System.nanoTime();
      int code = commandLine.execute(args);
      long done = System.nanoTime();
      System.out.printf(
          "command-line-ms %.1f execute-ms %.1f exit %d%n",
          (built - start) / 1e6, (done - built) / 1e6, code);
    }
  }
}
