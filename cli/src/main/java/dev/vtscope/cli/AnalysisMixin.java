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

/**
 * The options of every command that analyses recordings, and the one place they become {@link
 * AnalysisOptions}: where class files come from ({@code --classpath}), which code is the
 * application's ({@code --app-package}), which reader reads ({@code --reader}), how sites are
 * grouped ({@code --group-by}) and whether a progress line shows ({@code -q}).
 */
final class AnalysisMixin {

  /** What a command does with its analysis, which decides the options it offers. */
  enum Use {
    /** analyze and record: sites grouped as asked, either reader, a progress line. */
    REPORT,
    /** explore: as a report, but with no --format, so its progress line is never left out. */
    EXPLORE,
    /** check and diff: sites by culprit, what budgets and comparisons are made of. */
    GATE,
    /**
     * watch: follows a JFR repository as the JVM writes it, which only the JDK's reader streams; no
     * file is read whole, so no progress line.
     */
    LIVE,
    /**
     * dump: thread dumps taken of a running JVM, whose frames name the application's packages and
     * whose class files say where its threads stand; no recording is read, so no reader or
     * grouping.
     */
    DUMPS
  }

  static final class Readers extends OptionValues {
    Readers() {
      super(ReaderKind.class);
    }
  }

  /** watch's only reader. */
  static final class LiveReaders extends OptionValues {
    LiveReaders() {
      super(List.of("jdk"));
    }
  }

  static final class Groupings extends OptionValues {
    Groupings() {
      super(java.util.Arrays.stream(GroupBy.values()).map(GroupBy::label).toList());
    }
  }

  /**
   * Reads watch's --reader: jdk, and nothing else. A class, not a lambda: the start-up archive
   * cannot keep a lambda that implements a picocli interface.
   */
  private static final class LiveReaderConverter
      implements picocli.CommandLine.ITypeConverter<ReaderKind> {
    @Override
    public ReaderKind convert(String value) {
      if (!value.trim().equalsIgnoreCase("jdk")) {
        // ErrorReporter says what is taken, from the completion candidates
        throw new picocli.CommandLine.TypeConversionException("not a live reader: " + value);
      }
      return ReaderKind.JDK;
    }
  }

  private List<Path> classPath = List.of();

  private List<String> appPackages = List.of();

  private ReaderKind reader;

  private GroupBy groupBy = GroupBy.CULPRIT;

  private boolean quiet;

  AnalysisMixin(CommandSpec spec, Use use) {
    reader = use == Use.LIVE ? ReaderKind.JDK : ReaderKind.VTSCOPE;
    if (use == Use.DUMPS) {
      classPathOption(
          spec,
          "Jars and folders of the dumped application, to tell where a virtual thread waits to"
              + " enter a monitor (JDK 21-23: a dump does not say) and who holds a carrier. A"
              + " running JVM's own java.class.path is searched after it. Every entry must exist"
              + " (lib/* needs the folder lib).");
      appPackageOption(spec);
      spec.addOption(
          Specs.flag(
              () -> quiet,
              v -> quiet = v,
              "No progress line on stderr while a series of dumps is taken. (It shows only on a"
                  + " terminal.)",
              "-q",
              "--quiet"));
      return;
    }
    if (use != Use.GATE) {
      spec.addOption(
          Specs.option(() -> groupBy, v -> groupBy = v, "--group-by")
              .paramLabel("GROUPING")
              .type(GroupBy.class)
              .converters(new GroupByConverter())
              .completionCandidates(new Groupings())
              .description(
                  "culprit (default): who holds the carrier (docs/attribution.md); stack: each"
                      + " distinct stack; top-frame: the first frame not loaded by the boot loader,"
                      + " as 'jfr view pinned-threads' groups; reason: the pinned reason (JDK"
                      + " 24+).")
              .build());
    }
    classPathOption(
        spec,
        "Jars and folders of the recorded application, to find synchronized blocks (JDK 21-23)"
            + " and name artifacts. The recording's own java.class.path is searched after it,"
            + " where its files exist on this machine; JDK classes come from an installed JDK of"
            + " the recording's release. Every entry must exist (lib/* needs the folder lib).");
    appPackageOption(spec);
    if (use == Use.LIVE) {
      spec.addOption(
          Specs.option(() -> reader, v -> reader = v, "--reader")
              .paramLabel("jdk")
              .type(ReaderKind.class)
              .converters(new LiveReaderConverter())
              .completionCandidates(new LiveReaders())
              .defaultValue("jdk")
              .description(
                  "The JFR reader: jdk (the JDK's jdk.jfr.consumer), the only one that follows a"
                      + " repository as the JVM writes it; taken for the same command line as"
                      + " analyze's.")
              .build());
      return;
    }
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
                + " more"
                + (use == Use.EXPLORE ? ".)" : ", and never with --format json.)"),
            "-q",
            "--quiet"));
  }

  private void appPackageOption(CommandSpec spec) {
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

  private void classPathOption(CommandSpec spec, String description) {
    spec.addOption(
        Specs.option(() -> classPath, v -> classPath = v, "--classpath", "-cp")
            .paramLabel("PATH")
            .type(List.class)
            .auxiliaryTypes(Path.class)
            .splitRegex(java.io.File.pathSeparator)
            .description(description)
            .build());
  }

  /**
   * What the analysis is asked to do, from these options; a {@code --classpath} entry that does not
   * exist is a usage error.
   */
  AnalysisOptions options() {
    checkClassPath();
    return options(groupBy, classPath, appPackages);
  }

  private static AnalysisOptions options(
      GroupBy groupBy, List<Path> classPath, List<String> appPackages) {
    return new AnalysisOptions(
        groupBy,
        classPath,
        appPackages,
        Prefetch.jdkHomes(),
        dev.vtscope.advice.Knowledge.standard().jdk().releases());
  }

  /** The {@code --classpath} entries given, as given ({@code lib/*} included); checked. */
  List<Path> classPath() {
    checkClassPath();
    return classPath;
  }

  /**
   * Analyses recordings as {@code analyze} does with none of its options but a class path
   * (vtscope's reader, sites by culprit): for a command that reads recordings beside its own work,
   * {@code scan --recording}, without offering analyze's options. Unreadable input becomes an
   * {@link ExitException}.
   */
  static Analysis analyzeAsDefault(List<Path> classPath, List<RecordingInput> inputs) {
    return run(
        new Analyzer(ReaderKind.VTSCOPE.create(), options(GroupBy.CULPRIT, classPath, List.of())),
        inputs);
  }

  /** The reader {@code --reader} chose. */
  ReaderKind reader() {
    return reader;
  }

  /** Whether {@code -q} asks for no progress line. */
  boolean quiet() {
    return quiet;
  }

  /**
   * Analyses the inputs; unreadable input becomes an {@link ExitException}.
   *
   * @param progressTo where a progress line may show while large inputs are read (stderr), or null
   *     for none (a machine-readable report)
   */
  Analysis analyze(List<RecordingInput> inputs, PrintWriter progressTo) {
    return analyze(analyzer(inputs, progressTo), inputs);
  }

  /** Analyses the inputs as these options say, but with their sites grouped by {@code other}. */
  Analysis analyze(List<RecordingInput> inputs, GroupBy other) {
    return analyze(new Analyzer(reader.create(), options().withGroupBy(other)), inputs);
  }

  /** An analyzer with these options, which {@link #analyze(Analyzer, List)} then runs. */
  Analyzer analyzer(List<RecordingInput> inputs, PrintWriter progressTo) {
    return analyzer(options(), inputs, progressTo);
  }

  /**
   * An analyzer with {@code options}, which are these options with what a command knows besides
   * (record: the JDK it recorded with).
   */
  Analyzer analyzer(AnalysisOptions options, List<RecordingInput> inputs, PrintWriter progressTo) {
    return new Analyzer(reader.create(), options)
        .progress(ProgressLine.forInputs(inputs, progressTo != null && !quiet, progressTo));
  }

  /** Runs {@code analyzer} over the inputs; unreadable input becomes an {@link ExitException}. */
  Analysis analyze(Analyzer analyzer, List<RecordingInput> inputs) {
    return run(analyzer, inputs);
  }

  private static Analysis run(Analyzer analyzer, List<RecordingInput> inputs) {
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
