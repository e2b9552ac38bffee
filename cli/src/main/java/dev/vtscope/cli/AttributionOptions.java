package dev.vtscope.cli;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.Analyzer;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.RecordingProblemException;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingInput;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/** Where class files come from and which code is the application's; shared by the commands. */
final class AttributionOptions {

  static final class Readers extends OptionValues {
    Readers() {
      super(ReaderKind.class);
    }
  }

  private List<Path> classPath = List.of();

  private List<String> appPackages = List.of();

  private ReaderKind reader = ReaderKind.VTSCOPE;

  private boolean quiet;

  AttributionOptions(CommandSpec spec) {
    spec.addOption(
        Specs.option(() -> classPath, v -> classPath = v, "--classpath", "-cp")
            .paramLabel("PATH")
            .type(List.class)
            .auxiliaryTypes(Path.class)
            .splitRegex(java.io.File.pathSeparator)
            .description(
                "Jars and folders of the recorded application, to find synchronized blocks (JDK"
                    + " 21-23) and name artifacts. The recording's own java.class.path is searched"
                    + " after it, where its files exist on this machine; JDK classes come from an"
                    + " installed JDK of the recording's release. Every entry must exist (lib/*"
                    + " needs the folder lib).")
            .build());
    spec.addOption(
        Specs.option(() -> appPackages, v -> appPackages = v, "--app-package")
            .paramLabel("PREFIX")
            .type(List.class)
            .auxiliaryTypes(String.class)
            .splitRegex(",")
            .description(
                "Package prefixes of your application (e.g. com.acme). Default: the first two"
                    + " package segments of the outermost frame that is neither the JDK's nor a"
                    + " known server or test framework's, i.e. the code that started the thread's"
                    + " task.")
            .build());
    spec.addOption(
        Specs.option(() -> reader, v -> reader = v, "--reader")
            .paramLabel("vtscope|jdk")
            .type(ReaderKind.class)
            .completionCandidates(new Readers())
            .defaultValue("vtscope")
            .description(
                "The JFR reader: vtscope (default: its own, parallel, in bounded memory, reads"
                    + " chunks still being written) or jdk (the JDK's jdk.jfr.consumer, for a"
                    + " second"
                    + " opinion).")
            .build());
    spec.addOption(
        Specs.flag(
            () -> quiet,
            v -> quiet = v,
            "No progress line on stderr. (It shows only on a terminal, for inputs of 64 MB or"
                + " more, and never with --format json.)",
            "-q",
            "--quiet"));
  }

  /**
   * A class path entry that does not exist is a mistake to say at once: ignored, it would leave
   * synchronized blocks unfound and the report asking for the --classpath that was given.
   */
  private void checkClassPath() {
    for (Path entry : classPath) {
      String text = entry.toString();
      Path mustExist =
          text.endsWith("*")
              ? java.util.Objects.requireNonNullElse(entry.toAbsolutePath().getParent(), entry)
              : entry;
      if (!java.nio.file.Files.exists(mustExist)) {
        throw new ExitException(
            ExitCode.USAGE,
            "--classpath: " + mustExist + ": no such file or folder (check the path)");
      }
    }
  }

  /** Analyses the inputs without a progress line. */
  Analysis analyze(List<RecordingInput> inputs, GroupBy groupBy) {
    return analyze(inputs, groupBy, null);
  }

  /**
   * Analyses the inputs; unreadable input becomes an {@link ExitException}.
   *
   * @param progressTo where a progress line may show while large inputs are read (stderr), or null
   *     for none (a machine-readable report)
   */
  Analysis analyze(List<RecordingInput> inputs, GroupBy groupBy, PrintWriter progressTo) {
    return analyze(analyzer(inputs, groupBy, progressTo), inputs);
  }

  /** An analyzer with these options, which {@link #analyze(Analyzer, List)} then runs. */
  Analyzer analyzer(List<RecordingInput> inputs, GroupBy groupBy, PrintWriter progressTo) {
    checkClassPath();
    return new Analyzer(
            reader.create(),
            new AnalysisOptions(
                groupBy,
                classPath,
                appPackages,
                Prefetch.jdkHomes(),
                dev.vtscope.advice.Knowledge.standard().jdk().releases()))
        .progress(ProgressLine.forInputs(inputs, progressTo != null && !quiet, progressTo));
  }

  /** Runs {@code analyzer} over the inputs; unreadable input becomes an {@link ExitException}. */
  Analysis analyze(Analyzer analyzer, List<RecordingInput> inputs) {
    try {
      return analyzer.analyze(inputs);
    } catch (RecordingProblemException e) {
      // standard input read through a temporary copy is named as the user named it
      String message = e.getMessage();
      for (RecordingInput input : inputs) {
        if (input.name().equals(dev.vtscope.recording.RecordingInputs.STDIN)) {
          for (java.nio.file.Path file : input.files()) {
            message = message.replace(file.toString(), "-");
          }
        }
      }
      throw new ExitException(
          e.unreadable() ? ExitCode.INPUT_UNREADABLE : ExitCode.NOT_A_RECORDING,
          message
              + (e.unreadable()
                  ? ""
                  : e.getMessage().contains("truncated")
                      ? " (a chunk cut short has lost the constants and metadata JFR writes at its"
                          + " end; the whole file, or the JVM's repository folder, can be read)"
                      : " (vtscope reads .jfr files written by JDK 11 or later)"),
          e);
    }
  }
}
