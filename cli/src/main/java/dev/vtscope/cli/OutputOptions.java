package dev.vtscope.cli;

import dev.vtscope.report.Report;
import dev.vtscope.report.ReportRenderer;
import dev.vtscope.report.TextStyle;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Which form a command's report takes and where it goes: {@code --format} and {@code -o}, for every
 * command that prints a report. How a text report is laid out is {@link TextReportOptions}.
 */
final class OutputOptions {

  /**
   * The forms of an analysis' report, and what each is: the one list of what {@code analyze},
   * {@code record} and explore's {@code save} write and what their help says.
   */
  static final Map<ReportFormat, String> ANALYSIS_FORMATS =
      formats(
          ReportFormat.TEXT,
          "a report to read",
          ReportFormat.JSON,
          "the document in docs/json.md",
          ReportFormat.MARKDOWN,
          "the findings, carrier pool and top sites for a pull-request comment or a CI job"
              + " summary (docs/ci.md)",
          ReportFormat.HTML,
          "one self-contained page with a timeline, a flame graph and the sites (use -o)",
          ReportFormat.OPENMETRICS,
          "pinned time and events per holder, submit failures, carriers held and findings as"
              + " metrics for Prometheus (docs/metrics.md)",
          ReportFormat.OTLP_JSON,
          "the same metrics as OTLP JSON, for an OpenTelemetry collector's file receiver or"
              + " OTLP/HTTP (docs/metrics.md)");

  /**
   * The forms of a thread dump analysis' report ({@code analyze} of dumps, {@code dump}): an
   * analysis' but the metrics (OpenMetrics, OTLP JSON), whose series are a recording's.
   */
  static final Map<ReportFormat, String> DUMP_FORMATS =
      formats(
          ReportFormat.TEXT,
          "a report to read",
          ReportFormat.JSON,
          "the document in docs/json.md",
          ReportFormat.MARKDOWN,
          "the findings and a table of the waits, for a pull-request comment or a CI job summary",
          ReportFormat.HTML,
          "one self-contained page with the findings and every wait, which opens to its threads"
              + " (use -o)");

  /**
   * The forms in {@code pairs} (a form, then what it is), in that order: each command's one list,
   * from which its help, completion and the values it accepts are all made.
   */
  static Map<ReportFormat, String> formats(Object... pairs) {
    Map<ReportFormat, String> formats = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      formats.put((ReportFormat) pairs[i], (String) pairs[i + 1]);
    }
    return Collections.unmodifiableMap(formats);
  }

  /** {@code formats} without {@code left out}, in the same order. */
  static Map<ReportFormat, String> without(
      Map<ReportFormat, String> formats, ReportFormat leftOut) {
    Map<ReportFormat, String> fewer = new LinkedHashMap<>(formats);
    fewer.remove(leftOut);
    return Collections.unmodifiableMap(fewer);
  }

  /** What {@code --format} says: each form and what it is, the first the default. */
  static String help(Map<ReportFormat, String> formats) {
    StringBuilder help = new StringBuilder();
    for (Map.Entry<ReportFormat, String> format : formats.entrySet()) {
      help.append(help.isEmpty() ? "" : "; ")
          .append(format.getKey().label())
          .append(format.getKey() == ReportFormat.TEXT ? " (default)" : "")
          .append(": ")
          .append(format.getValue());
    }
    return help.append('.').toString();
  }

  /** The forms offered for {@code --format}, as the help and completion name them. */
  static final class Formats extends OptionValues {
    Formats(Set<ReportFormat> offered) {
      super(offered.stream().map(ReportFormat::label).toList());
    }
  }

  /**
   * Reads a form the command offers. A class, not a lambda: the start-up archive cannot keep a
   * lambda that implements a picocli interface.
   */
  private static final class FormatConverter implements CommandLine.ITypeConverter<ReportFormat> {
    private final Set<ReportFormat> offered;

    FormatConverter(Set<ReportFormat> offered) {
      this.offered = offered;
    }

    @Override
    public ReportFormat convert(String value) {
      ReportFormat chosen = ReportFormat.among(offered, value);
      if (chosen == null) {
        // ErrorReporter says which forms there are, from the completion candidates
        throw new CommandLine.TypeConversionException("not a format: " + value);
      }
      return chosen;
    }
  }

  private ReportFormat format = ReportFormat.TEXT;

  private Path output;

  /**
   * @param formats the forms this command's report has, each with what it is
   */
  OutputOptions(CommandSpec spec, Map<ReportFormat, String> formats) {
    Set<ReportFormat> offered = formats.keySet();
    spec.addOption(
        Specs.option(() -> format, v -> format = v, "--format")
            .paramLabel("FORMAT")
            .type(ReportFormat.class)
            .converters(new FormatConverter(offered))
            .completionCandidates(new Formats(offered))
            .description(help(formats))
            .build());
    spec.addOption(
        Specs.option(() -> output, v -> output = v, "-o", "--output")
            .paramLabel("FILE")
            .type(Path.class)
            .description(
                "Write the report to FILE instead of standard output (- is standard output;"
                    + " FILE is replaced if it exists, never one of the files read).")
            .build());
  }

  /** The form chosen. */
  ReportFormat format() {
    return format;
  }

  /** Whether the report is for programs, where nothing else may be written. */
  boolean machineReadable() {
    return format.machineReadable();
  }

  /** The renderer of the form chosen, a text report laid out as {@code text} says. */
  ReportRenderer renderer(TextReportOptions text, TerminalFacts terminal) {
    return format.renderer(text.style(terminal), text.top());
  }

  /** The renderer of the form chosen, a text report in its plain layout. */
  ReportRenderer renderer() {
    return format.renderer(TextStyle.PLAIN, TextStyle.PLAIN.topSites());
  }

  /**
   * Renders {@code report} to FILE of {@code -o}, else to {@code stdout}.
   *
   * @param read the files the command read, which the report never replaces
   */
  void print(ReportRenderer renderer, Report report, PrintWriter stdout, Collection<Path> read) {
    Path target = output == null ? Path.of(OutputFile.STDOUT) : output;
    refuseRead("-o", target, read);
    OutputFile.writeText(target, stdout, out -> renderer.render(report, out));
  }

  /**
   * Refuses {@code file}, the command's other output given as {@code option}, when the report is
   * written to it too: the one written last would replace the other.
   */
  void refuseSameFile(String option, Path file) {
    Path report = output == null ? Path.of(OutputFile.STDOUT) : output;
    if (OutputFile.sameFile(file, report)) {
      throw new ExitException(
          ExitCode.USAGE,
          OutputFile.isStandardOutput(file)
              ? option
                  + " - and the report both go to standard output: give one of them a file (-o)"
              : option + " " + file + " and -o " + output + " name one file: give each its own");
    }
  }

  /**
   * Refuses {@code file}, given as {@code option}, when it is one of the files a command reads: a
   * command never writes over its input.
   */
  static void refuseRead(String option, Path file, Collection<Path> read) {
    if (isOneOf(file, read)) {
      throw new ExitException(
          ExitCode.USAGE, option + " " + file + " is one of the files being read: choose another");
    }
  }

  /** Whether {@code file} is one of {@code read}, by the file system, not by the name. */
  static boolean isOneOf(Path file, Collection<Path> read) {
    if (OutputFile.isStandardOutput(file) || !Files.exists(file)) {
      return false;
    }
    for (Path each : read) {
      try {
        if (Files.isSameFile(each, file)) {
          return true;
        }
      } catch (IOException e) {
        // not the same file
      }
    }
    return false;
  }
}
