package dev.vtscope.cli;

import dev.vtscope.report.Report;
import dev.vtscope.report.ReportRenderer;
import dev.vtscope.report.TextStyle;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Which form a command's report takes and where it goes: {@code --format} and {@code -o}, for every
 * command that prints a report. How a text report is laid out is {@link TextReportOptions}.
 */
final class OutputOptions {

  /** The forms of an analysis' report, and what each is. */
  static final Set<ReportFormat> ANALYSIS_FORMATS = EnumSet.allOf(ReportFormat.class);

  static final String ANALYSIS_FORMATS_HELP =
      "text (default): a report to read; json: the document in docs/json.md; markdown:"
          + " the findings, carrier pool and top sites for a pull-request comment or a CI"
          + " job summary (docs/ci.md); html: one self-contained page with a timeline, a"
          + " flame graph and the sites (use -o; of recordings, not of merged reports);"
          + " openmetrics: pinned time and events per holder, submit failures, carriers"
          + " held and findings as metrics for Prometheus (docs/metrics.md).";

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
   * @param offered the forms this command's report has
   * @param formatHelp what each of them is
   */
  OutputOptions(CommandSpec spec, Set<ReportFormat> offered, String formatHelp) {
    spec.addOption(
        Specs.option(() -> format, v -> format = v, "--format")
            .paramLabel("FORMAT")
            .type(ReportFormat.class)
            .converters(new FormatConverter(offered))
            .completionCandidates(new Formats(offered))
            .description(formatHelp)
            .build());
    spec.addOption(
        Specs.option(() -> output, v -> output = v, "-o", "--output")
            .paramLabel("FILE")
            .type(Path.class)
            .description(
                "Write the report to FILE instead of standard output (replaced if it exists; never"
                    + " one of the files read).")
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
    if (output == null) {
      renderer.render(report, stdout);
      stdout.flush();
      return;
    }
    refuseRead("-o", output, read);
    OutputFile.writeText(output, out -> renderer.render(report, out));
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
    if (!Files.exists(file)) {
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
