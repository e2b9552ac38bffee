package dev.vtscope.cli;

import dev.vtscope.report.TextStyle;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** How a text report is laid out: colour, width, sites shown and stack frames per site. */
final class TextReportOptions {

  enum ColorMode {
    AUTO,
    ALWAYS,
    NEVER
  }

  static final class ColorModes extends OptionValues {
    ColorModes() {
      super(ColorMode.class);
    }
  }

  private ColorMode color = ColorMode.AUTO;

  private int top = 10;

  private Integer width;

  private String stackDepth;

  /** The command these options are of, whose usage an error names. */
  private final CommandSpec spec;

  TextReportOptions(CommandSpec spec) {
    this.spec = spec;
    spec.addOption(
        Specs.option(() -> color, v -> color = v, "--color")
            .paramLabel("WHEN")
            .type(ColorMode.class)
            .completionCandidates(new ColorModes())
            .description(
                "auto (default): colour on a terminal unless NO_COLOR is set; always; never.")
            .build());
    spec.addOption(
        Specs.option(() -> stackDepth, v -> stackDepth = v, "--stack-depth")
            .paramLabel("N|all")
            .type(String.class)
            .description(
                "Frames of each site's stack in the text report: N, or all (default: the frames"
                    + " the site names and a few around them; those are shown whatever N is).")
            .build());
    spec.addOption(
        Specs.option(() -> top, this::top, "--top")
            .paramLabel("N")
            .type(int.class)
            .description(
                "Sites shown per section in the text report, and holders with series of their own"
                    + " in OpenMetrics and OTLP JSON (the others are one 'other' series) (default:"
                    + " 10).")
            .build());
    spec.addOption(
        Specs.option(() -> width, this::width, "--width")
            .paramLabel("COLUMNS")
            .type(int.class)
            .description(
                "Wrap the text report at this many columns (at least 40), or 0 for no wrapping."
                    + " Default: the terminal's width; 120 in files and pipes, where stack frames"
                    + " are never cut.")
            .build());
  }

  private void top(Integer n) {
    if (n < 1) {
      throw new ParameterException(spec.commandLine(), "--top must be 1 or more, not " + n);
    }
    top = n;
  }

  private void width(Integer columns) {
    if (columns != 0 && columns < 40) {
      throw new ParameterException(
          spec.commandLine(), "--width must be 0 (no wrapping) or at least 40, not " + columns);
    }
    width = columns;
  }

  /** Sites shown per section, and holders with series of their own in OpenMetrics. */
  int top() {
    return top;
  }

  /** The text report's layout on {@code terminal}. */
  TextStyle style(TerminalFacts terminal) {
    boolean useColor =
        switch (color) {
          case ALWAYS -> true;
          case NEVER -> false;
          case AUTO -> terminal.interactive() && !terminal.noColor();
        };
    int columns =
        width != null ? width : terminal.interactive() ? terminal.width() : TextStyle.PLAIN.width();
    return new TextStyle(columns, useColor, top, terminal.interactive(), stackDepth());
  }

  /** The --stack-depth value: a number of frames, all, or the default. */
  private int stackDepth() {
    if (stackDepth == null) {
      return TextStyle.SHORT_STACKS;
    }
    if ("all".equalsIgnoreCase(stackDepth.trim())) {
      return TextStyle.WHOLE_STACKS;
    }
    try {
      int depth = Integer.parseInt(stackDepth.trim());
      if (depth >= 0) {
        return depth;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new ExitException(
        ExitCode.USAGE,
        "--stack-depth takes a number of frames (0 or more) or all, not '" + stackDepth + "'");
  }
}
