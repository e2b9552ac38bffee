package dev.vtscope.cli;

import dev.vtscope.report.JsonReport;
import dev.vtscope.report.ReportRenderer;
import dev.vtscope.report.TextReport;
import dev.vtscope.report.TextStyle;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** How a report is written: format, colour and length. */
final class OutputOptions {

  enum Format {
    TEXT,
    JSON,
    MARKDOWN,
    HTML,
    OPENMETRICS
  }

  enum ColorMode {
    AUTO,
    ALWAYS,
    NEVER
  }

  static final class Formats extends OptionValues {
    Formats() {
      super(Format.class);
    }
  }

  static final class ColorModes extends OptionValues {
    ColorModes() {
      super(ColorMode.class);
    }
  }

  private Format format = Format.TEXT;

  private java.nio.file.Path output;

  private ColorMode color = ColorMode.AUTO;

  private int top = 10;

  private Integer width;

  private String stackDepth;

  /** The command these options are of, whose usage an error names. */
  private final CommandSpec spec;

  OutputOptions(CommandSpec spec) {
    this.spec = spec;
    spec.addOption(
        Specs.option(() -> format, v -> format = v, "--format")
            .paramLabel("FORMAT")
            .type(Format.class)
            .completionCandidates(new Formats())
            .description(
                "text (default): a report to read; json: the document in docs/json.md; markdown:"
                    + " the findings, carrier pool and top sites for a pull-request comment or a CI"
                    + " job summary (docs/ci.md); html: one self-contained page with a timeline, a"
                    + " flame graph and the sites (use -o; of recordings, not of merged reports);"
                    + " openmetrics: pinned time and events per holder, submit failures, carriers"
                    + " held and findings as metrics for Prometheus (docs/metrics.md).")
            .build());
    spec.addOption(
        Specs.option(() -> output, v -> output = v, "-o", "--output")
            .paramLabel("FILE")
            .type(java.nio.file.Path.class)
            .description(
                "Write the report to FILE instead of standard output (replaced if it exists; never"
                    + " one of the files read).")
            .build());
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
                    + " in OpenMetrics (the others are one 'other' series) (default: 10).")
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

  /** Whether {@code file} is one of the files {@code inputs} read: a report never replaces one. */
  static boolean isInput(
      java.nio.file.Path file, List<dev.vtscope.recording.RecordingInput> inputs) {
    for (var input : inputs) {
      for (var read : input.files()) {
        try {
          if (java.nio.file.Files.exists(file) && java.nio.file.Files.isSameFile(read, file)) {
            return true;
          }
        } catch (java.io.IOException e) {
          // not the same file
        }
      }
    }
    return false;
  }

  /** Where the report goes: FILE of -o, else standard output. */
  java.io.PrintWriter writer(
      java.io.PrintWriter stdout, List<dev.vtscope.recording.RecordingInput> inputs) {
    if (output == null) {
      return stdout;
    }
    if (isInput(output, inputs)) {
      throw new ExitException(
          ExitCode.USAGE, "-o " + output + " is a recording being read: choose another file");
    }
    try {
      return new java.io.PrintWriter(
          java.nio.file.Files.newBufferedWriter(output, java.nio.charset.StandardCharsets.UTF_8));
    } catch (java.io.IOException e) {
      throw new ExitException(ExitCode.INPUT_UNREADABLE, cannotWrite(output, e), e);
    }
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

  /** Whether the report is the HTML page. */
  boolean html() {
    return format == Format.HTML;
  }

  /** Whether -o names one of {@code files}: a report never replaces a file being read. */
  boolean outputIsOneOf(List<java.nio.file.Path> files) {
    if (output == null) {
      return false;
    }
    for (java.nio.file.Path file : files) {
      try {
        if (java.nio.file.Files.exists(file)
            && java.nio.file.Files.exists(output)
            && java.nio.file.Files.isSameFile(file, output)) {
          return true;
        }
      } catch (java.io.IOException e) {
        // not the same file
      }
    }
    return false;
  }

  /** Whether the report is for programs (JSON), where nothing else may be written. */
  boolean machineReadable() {
    return format != Format.TEXT;
  }

  ReportRenderer renderer(TerminalFacts terminal) {
    if (format == Format.JSON) {
      return new JsonReport(VtScope.version());
    }
    if (format == Format.MARKDOWN) {
      return new dev.vtscope.report.MarkdownReport();
    }
    if (format == Format.HTML) {
      return new dev.vtscope.report.HtmlReport();
    }
    if (format == Format.OPENMETRICS) {
      return new dev.vtscope.report.OpenMetricsReport(top);
    }
    boolean useColor =
        switch (color) {
          case ALWAYS -> true;
          case NEVER -> false;
          case AUTO -> terminal.interactive() && !terminal.noColor();
        };
    int columns =
        width != null ? width : terminal.interactive() ? terminal.width() : TextStyle.PLAIN.width();
    return new TextReport(
        new TextStyle(columns, useColor, top, terminal.interactive(), stackDepth()));
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

  /** Why {@code file} could not be written, said plainly: the JDK's message is often the path. */
  static String cannotWrite(java.nio.file.Path file, java.io.IOException e) {
    String why;
    if (e instanceof java.nio.file.NoSuchFileException) {
      java.nio.file.Path folder = file.toAbsolutePath().getParent();
      why = "the folder " + folder + " does not exist";
    } else if (e instanceof java.nio.file.AccessDeniedException) {
      why = "permission denied";
    } else if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
      why = f.getReason();
    } else {
      why = e.getMessage();
    }
    return "cannot write " + file + ": " + why;
  }
}
