package dev.vtscope.cli;

import java.io.IOException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * What the output is connected to: a terminal (and how wide) or a pipe or file.
 *
 * @param interactive whether standard output is a terminal
 * @param width the terminal's width in columns
 * @param noColor whether the NO_COLOR convention asks for no colour
 */
record TerminalFacts(boolean interactive, int width, boolean noColor) {

  private static final int FALLBACK_WIDTH = 120;

  /** Asks the system; anything that fails counts as "not a terminal". */
  static TerminalFacts detect() {
    String noColor = System.getenv("NO_COLOR");
    boolean noColorSet = noColor != null && !noColor.isEmpty();
    if (System.console() == null || !consoleIsTerminal()) {
      return new TerminalFacts(false, FALLBACK_WIDTH, noColorSet);
    }
    try (Terminal terminal = TerminalBuilder.builder().system(true).dumb(true).build()) {
      boolean dumb = terminal.getType() != null && terminal.getType().startsWith("dumb");
      int width = terminal.getWidth() > 20 ? terminal.getWidth() : FALLBACK_WIDTH;
      return new TerminalFacts(!dumb, width, noColorSet || "dumb".equals(System.getenv("TERM")));
    } catch (IOException | RuntimeException e) {
      return new TerminalFacts(false, FALLBACK_WIDTH, noColorSet);
    }
  }

  /** {@code Console.isTerminal()} exists from JDK 22; on 21 a non-null console is a terminal. */
  static boolean consoleIsTerminal() {
    try {
      Object result = java.io.Console.class.getMethod("isTerminal").invoke(System.console());
      return Boolean.TRUE.equals(result);
    } catch (ReflectiveOperationException e) {
      return true;
    }
  }
}
