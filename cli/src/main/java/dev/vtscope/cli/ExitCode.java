package dev.vtscope.cli;

/** vtscope's exit codes; the README and {@code --help} show the same table. */
public enum ExitCode {
  OK(0, "success"),
  INTERNAL_ERROR(1, "internal error (a bug: report it with the --verbose output)"),
  USAGE(2, "bad usage: no command, unknown option, missing argument, invalid value"),
  /** Also what cannot be written: a report, a JUnit file, a copy, standard output. */
  INPUT_UNREADABLE(
      3,
      "an input cannot be read (missing, unreadable, no recordings, no thread dumps in"
          + " recordings), or an output cannot be written"),
  NOT_A_RECORDING(
      4, "an input is not a recording or thread dump (merge: not a JSON report), or is damaged"),
  PROGRAM_FAILED(5, "record: the program failed, timed out or wrote no recording"),
  CHECK_FAILED(
      6,
      "check: a budget was exceeded, a finding reached --fail-on, or a recording cannot show"
          + " pinning; scan and watch: a finding reached --fail-on"),
  REGRESSION(
      7,
      "diff: a culprit is new or worse, more tasks were rejected, or a recording cannot show"
          + " pinning"),
  TARGET_JVM(
      8, "--pid, dump: the JVM cannot be attached to, recorded or dumped, or it exited meanwhile"),
  NO_JAVA(9, "no suitable JDK found, or a --pid JVM without virtual threads or attach"),
  OUT_OF_MEMORY(10, "out of memory: give the JVM a larger heap (VTSCOPE_JAVA_OPTS=-Xmx...)");

  /** The exit code of a JVM ended by SIGINT (Ctrl-C): its shutdown hooks ran. */
  public static final int INTERRUPTED = 130;

  /** The exit code of a JVM ended by SIGTERM (kill): its shutdown hooks ran. */
  public static final int TERMINATED = 143;

  private final int code;
  private final String meaning;

  ExitCode(int code, String meaning) {
    this.code = code;
    this.meaning = meaning;
  }

  public int code() {
    return code;
  }

  public String meaning() {
    return meaning;
  }

  /** A code right-aligned in five columns, so that the meanings line up. */
  private static String code(int code) {
    String digits = Integer.toString(code);
    return " ".repeat(Math.max(0, 5 - digits.length())) + digits;
  }

  /** The width of the help the table ends, in columns: picocli's, which vtscope keeps. */
  private static final int WIDTH = 80;

  /** Where the meanings start: after the code's five columns and two spaces. */
  private static final String MEANING_COLUMN = " ".repeat(7);

  /**
   * The table, as shown at the end of {@code --help}: a meaning too long for a line goes on under
   * itself, never back at the line's start (picocli would wrap it there).
   */
  static String table() {
    // appended rather than formatted: the table is made before every command, and a cold
    // Formatter costs more than the rest of it
    String newline = System.lineSeparator();
    StringBuilder text = new StringBuilder();
    for (ExitCode c : values()) {
      row(text, c.code, c.meaning, newline);
    }
    // set by the JVM, not by a command: 128 plus the signal
    row(
        text,
        INTERRUPTED,
        "interrupted (Ctrl-C; " + TERMINATED + " for kill): record keeps what was recorded",
        newline);
    return text.toString();
  }

  private static void row(StringBuilder text, int code, String meaning, String newline) {
    java.util.List<String> lines =
        HelpLayout.wrap(meaning, WIDTH - 1 - MEANING_COLUMN.length(), "");
    text.append(code(code)).append("  ").append(lines.get(0)).append(newline);
    for (String more : lines.subList(1, lines.size())) {
      text.append(MEANING_COLUMN).append(more).append(newline);
    }
  }
}
