package dev.vtscope.cli;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.DumpAdvisor;
import dev.vtscope.advice.DumpsNow;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.attribution.Attributor;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.live.LiveException;
import dev.vtscope.live.TargetRecording;
import dev.vtscope.record.ChildRecording;
import dev.vtscope.record.JdkLocator;
import dev.vtscope.record.JvmAtEnd;
import dev.vtscope.record.ProgramRecorder;
import dev.vtscope.record.RecordException;
import dev.vtscope.record.RunningJvmRecorder;
import dev.vtscope.recording.InputProblemException;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.report.Report;
import dev.vtscope.waits.Deadlocks;
import dev.vtscope.waits.WaitClassifier;
import dev.vtscope.waits.WaitSeries;
import dev.vtscope.workloads.Workload;
import dev.vtscope.workloads.WorkloadArgs;
import dev.vtscope.workloads.Workloads;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code vtscope record}: run a workload or any Java command under JFR, then analyse it. */
final class RecordCommand implements Callable<Integer> {

  private final CommandSpec spec =
      Specs.command(
          this,
          "record",
          "Records a workload or a Java program, then analyses it",
          "Runs a workload (--workload) or any Java command (after --) in a child JVM with JFR on"
              + " and vtscope's settings (vtscope record --settings prints them), then analyses the"
              + " recording. The program's own output goes to stderr, so stdout carries only the"
              + " report.",
          "With --pid, records a JVM that is running already (vtscope jvms lists them) for"
              + " --duration, under a recording name of vtscope's own, and stops that recording"
              + " again, also when vtscope is interrupted.",
          "Examples:",
          "  vtscope record --workload pinning --jdk 21",
          "  vtscope record --workload pinning --variant reentrant-lock -- --tasks 200",
          "  vtscope record --out app.jfr -- java -jar app.jar",
          "  vtscope record --pid 4242 --duration 30s");

  private String workload;

  /** The workloads' names, in the order 'vtscope workloads' lists them. */
  static final class WorkloadNames extends OptionValues {
    WorkloadNames() {
      super(Workloads.ALL.stream().map(Workload::name).toList());
    }
  }

  /**
   * Every workload's variants, which completion offers when the line names no workload (bash then
   * offers that workload's own, {@link CompletionCommand#bash}; fish always all); a variant the
   * workload lacks is refused with the workload's own list.
   */
  static final class VariantNames extends OptionValues {
    VariantNames() {
      super(Workloads.ALL.stream().flatMap(w -> w.variants().stream()).distinct().toList());
    }
  }

  private Long pid;

  private String duration;

  private String variant;

  private String jdk;

  private Path out;

  private String pinnedThreshold;

  private String timeout;

  private boolean noAnalyze;

  private boolean printSettings;

  private final OutputOptions output;

  private final TextReportOptions text;

  private final AnalysisMixin analysisOptions;

  private List<String> arguments = List.of();

  RecordCommand() {
    spec.addOption(
        Specs.option(() -> workload, v -> workload = v, "--workload")
            .paramLabel("NAME")
            .type(String.class)
            .completionCandidates(new WorkloadNames())
            .description("A workload of 'vtscope workloads'.")
            .build());
    spec.addOption(
        Specs.option(() -> pid, v -> pid = v, "--pid")
            .paramLabel("PID")
            .type(Long.class)
            .description(
                "Record this running JVM (vtscope jvms lists them) instead of starting one; it must"
                    + " be of this user, on this machine.")
            .build());
    spec.addOption(
        Specs.option(() -> duration, v -> duration = v, "--duration")
            .paramLabel("DURATION")
            .type(String.class)
            .description("With --pid: how long to record, e.g. 30s or 5m (default: 30s).")
            .build());
    spec.addOption(
        Specs.option(() -> variant, v -> variant = v, "--variant")
            .paramLabel("V")
            .type(String.class)
            .completionCandidates(new VariantNames())
            .description("The workload's variant (default: its first).")
            .build());
    spec.addOption(
        Specs.option(() -> jdk, v -> jdk = v, "--jdk")
            .paramLabel("21|25|PATH")
            .type(String.class)
            .description(
                "The JDK to run on: a feature release, found like the launcher finds JDKs, or a JDK"
                    + " folder (default for workloads: the JDK running vtscope). With a command, a"
                    + " bare 'java' becomes that JDK's, and JAVA_HOME and PATH point at it.")
            .build());
    spec.addOption(
        Specs.option(() -> out, v -> out = v, "--out")
            .paramLabel("FILE")
            .type(Path.class)
            .description(
                "Where to write the recording; must not exist, nor be the file of -o (default: a"
                    + " new file in the current folder).")
            .build());
    spec.addOption(
        Specs.option(() -> pinnedThreshold, v -> pinnedThreshold = v, "--pinned-threshold")
            .paramLabel("DURATION")
            .type(String.class)
            .description(
                "Threshold of jdk.VirtualThreadPinned, e.g. 0ms or 20ms. Default: 0ms for"
                    + " workloads, so every pin shows; 20ms (the JDK's) for a command.")
            .build());
    spec.addOption(
        Specs.option(() -> timeout, v -> timeout = v, "--timeout")
            .paramLabel("DURATION")
            .type(String.class)
            .description(
                "Stop the program after this long (e.g. 90s, 5m); its recording is kept and"
                    + " analysed.")
            .build());
    spec.addOption(
        Specs.option(() -> noAnalyze, v -> noAnalyze = v, "--no-analyze")
            .type(boolean.class)
            .description("Only record.")
            .build());
    spec.addOption(
        Specs.option(() -> printSettings, v -> printSettings = v, "--settings")
            .type(boolean.class)
            .description("Print vtscope's JFR settings (.jfc) and exit.")
            .build());
    Specs.verboseOption(spec);
    output = new OutputOptions(spec, OutputOptions.ANALYSIS_FORMATS);
    text = new TextReportOptions(spec);
    analysisOptions = new AnalysisMixin(spec, AnalysisMixin.Use.REPORT);
    spec.addPositional(
        Specs.parameters(() -> arguments, v -> arguments = v)
            .paramLabel("ARGS")
            .arity("0..*")
            .type(List.class)
            .auxiliaryTypes(String.class)
            .description(
                "With --workload: the workload's options. Otherwise: the Java command to record.")
            .build());
    Specs.helpOptions(spec);
  }

  /** The command's model, which picocli runs. */
  CommandSpec spec() {
    return spec;
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    PrintWriter stdout = spec.commandLine().getOut();
    if (printSettings) {
      try (InputStream in = ChildRecording.settings()) {
        stdout.print(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
      stdout.flush();
      return ExitCode.OK.code();
    }
    if (out != null) {
      output.refuseSameFile("--out", out);
    }
    Workload w = workload == null ? null : workload(workload);
    if (w != null && pid == null) {
      if (WorkloadArgs.asksForHelp(arguments)) {
        stdout.print(WorkloadArgs.usage(w));
        stdout.flush();
        return ExitCode.OK.code();
      }
      checkArguments(w, arguments);
    }
    if (!noAnalyze) {
      // a --classpath entry that does not exist is said before anything is recorded
      analysisOptions.options();
    }
    if (pid != null) {
      return recordRunningJvm();
    }
    if (duration != null) {
      throw new ExitException(
          ExitCode.USAGE,
          "--duration goes with --pid; to stop a program after a while use --timeout");
    }
    Duration limit = timeout == null ? null : parseDuration(timeout, "--timeout");
    Duration threshold =
        pinnedThreshold == null ? null : parseDuration(pinnedThreshold, "--pinned-threshold");
    ProgramRecorder.Outcome recorded;
    try {
      recorded =
          new ProgramRecorder(
                  new JdkLocator(System.getenv(), vtscopeHome()), spec.commandLine().getErr())
              .record(
                  new ProgramRecorder.Request(
                      w, variant, jdk, arguments, out, threshold, limit, timeout));
    } catch (RecordException e) {
      throw exit(e);
    }
    if (!noAnalyze) {
      analyze(recorded.recording(), recorded.recordedWith(), recorded.atTimeout());
    }
    return recorded.succeeded() ? ExitCode.OK.code() : ExitCode.PROGRAM_FAILED.code();
  }

  /** The workload of this name, or a usage error that names the nearest one. */
  private static Workload workload(String name) {
    return Workloads.find(name)
        .orElseThrow(
            () ->
                new ExitException(
                    ExitCode.USAGE,
                    "no workload named '"
                        + name
                        + "'"
                        + NearestNames.didYouMean(
                            NearestNames.to(
                                name,
                                Workloads.ALL.stream()
                                    .map(known -> List.of(known.name()))
                                    .toList()))
                        + " ('vtscope workloads' lists them)"));
  }

  /**
   * Checks the workload's arguments as its JVM will parse them, before that JVM starts: a mistyped
   * option or value is a usage error here rather than an error, or nothing, there.
   */
  private static void checkArguments(Workload w, List<String> arguments) {
    try {
      if (WorkloadArgs.parse(arguments, w).variantGiven()) {
        // the variant names the recording's file too: it is record's own option
        throw new ExitException(
            ExitCode.USAGE,
            "--variant goes before --, as record's own option (record --workload "
                + w.name()
                + " --variant "
                + w.variants().get(w.variants().size() - 1)
                + "): after -- the recording's file would name another variant");
      }
    } catch (WorkloadArgs.BadArgumentException e) {
      String typed = e.unknownOption();
      if (typed == null) {
        throw new ExitException(ExitCode.USAGE, "workload " + w.name() + ": " + e.getMessage());
      }
      throw new ExitException(
          ExitCode.USAGE,
          "workload "
              + w.name()
              + " has no option '"
              + typed
              + "'"
              + NearestNames.didYouMean(
                  NearestNames.to(
                      typed, WorkloadArgs.optionNames(w).stream().map(List::of).toList()))
              + " ('vtscope record --workload "
              + w.name()
              + " -- --help' lists its options)");
    }
  }

  /** {@code record --pid}: records a running JVM for --duration, then analyses the recording. */
  private int recordRunningJvm() throws IOException, InterruptedException {
    if (workload != null || !arguments.isEmpty() || jdk != null || timeout != null) {
      throw new ExitException(
          ExitCode.USAGE,
          "--pid records a running JVM: it takes no --workload, command, --jdk or --timeout (use"
              + " --duration)");
    }
    Duration length = parseDuration(duration == null ? "30s" : duration, "--duration");
    if (length.toSeconds() < 1) {
      throw new ExitException(ExitCode.USAGE, "--duration must be 1s or more, not " + duration);
    }
    String threshold =
        parseDuration(pinnedThreshold == null ? "20ms" : pinnedThreshold, "--pinned-threshold")
                .toMillis()
            + "ms";
    LiveTarget target = LiveTarget.describe(pid);
    Path file = out != null ? out : ProgramRecorder.newFileName("vtscope-pid" + pid);
    refuseExistingOrUnwritable(file);
    RunningJvmRecorder.Outcome recorded;
    try {
      TargetRecording recording = LiveTarget.start(pid, threshold, length, file.toAbsolutePath());
      recorded =
          new RunningJvmRecorder(spec.commandLine().getErr())
              .await(pid, target.summary(), recording, length, file);
    } catch (LiveException e) {
      throw ExitException.of(e);
    } catch (RecordException e) {
      throw exit(e);
    }
    if (!noAnalyze) {
      analyze(recorded.recording(), null, recorded.atEnd());
    }
    return recorded.exited() ? ExitCode.TARGET_JVM.code() : ExitCode.OK.code();
  }

  /** A new file vtscope may write: not there yet, in a folder that is. */
  static void refuseExistingOrUnwritable(Path file) {
    try {
      ProgramRecorder.refuseExistingOrUnwritable(file);
    } catch (RecordException e) {
      throw exit(e);
    }
  }

  /** The exit code of each way recording fails. */
  private static ExitException exit(RecordException e) {
    ExitCode code =
        switch (e.problem()) {
          case USAGE -> ExitCode.USAGE;
          case CANNOT_WRITE -> ExitCode.INPUT_UNREADABLE;
          case NO_JAVA -> ExitCode.NO_JAVA;
          case CANNOT_START -> ExitCode.INPUT_UNREADABLE;
          case PROGRAM_FAILED -> ExitCode.PROGRAM_FAILED;
          case TARGET_JVM -> ExitCode.TARGET_JVM;
        };
    return new ExitException(code, e.getMessage(), e);
  }

  /**
   * Analyses {@code recording}; with the threads of the JVM as its recording ended, the virtual
   * threads pinned then come first, whose pins wrote no event.
   */
  private void analyze(Path recording, Path recordedWith, JvmAtEnd now) {
    List<RecordingInput> inputs;
    try {
      inputs = RecordingInputs.resolve(List.of(recording));
    } catch (InputProblemException e) {
      throw new ExitException(ExitCode.NOT_A_RECORDING, recording + ": " + e.getMessage(), e);
    }
    // the JDK it was recorded with has the class files of the recording's JDK frames
    AnalysisOptions options = analysisOptions.options().preferringJdk(recordedWith);
    Analysis analysis =
        analysisOptions.analyze(
            analysisOptions
                .analyzer(
                    options, inputs, output.machineReadable() ? null : spec.commandLine().getErr())
                // the JVM's relative class path is relative to its folder, not to vtscope's
                .workingFolder(
                    now == null || now.workingDirectory() == null
                        ? null
                        : Path.of(now.workingDirectory())),
            inputs);
    Advice advice = Advisor.standard().advise(analysis);
    if (now != null) {
      advice = DumpAdvisor.addTo(advice, analysis, dumpsNow(now, analysis, options));
    }
    output.print(
        output.renderer(text, TerminalFacts.detect()),
        new Report.Analyzed(analysis, advice),
        spec.commandLine().getOut(),
        List.of(recording));
  }

  /** What the JVM's thread dumps taken as its recording ended show. */
  private static DumpsNow dumpsNow(JvmAtEnd now, Analysis analysis, AnalysisOptions options) {
    if (now.threads() == null) {
      return DumpsNow.unknown(Message.of("pinned-now-unknown.dump-failed", "why", now.failure()));
    }
    try (ClassBytesSource classes =
        ClassBytesSource.of(
            options.classPath(),
            List.of(
                new ClassBytesSource.RecordedClassPath(
                    now.classPath(), now.workingDirectory(), null)),
            analysis.jvm() == null ? null : analysis.jvm().javaVersion(),
            analysis.feature(),
            options.jdkHomes())) {
      Attributor attributor = new Attributor(classes, new FrameOwnership(options.appPackages()));
      boolean framesKnown = now.threads().mountedFramesKnown();
      return new DumpsNow(
          framesKnown
              ? PinnedNow.find(now.series(), attributor, options.jdk()::monitorsHoldCarrier)
              : null,
          framesKnown ? null : Message.of("pinned-now-unknown.frames-not-printed"),
          Deadlocks.find(
              now.series(),
              analysis.scheduler().limits(),
              attributor,
              options.jdk()::monitorsHoldCarrier),
          WaitSeries.of(
              now.series(),
              new WaitClassifier(
                  new FrameOwnership(options.appPackages()),
                  attributor,
                  options.jdk()::monitorsHoldCarrier)));
    }
  }

  /** vtscope's checkout, when the launcher says where it is. */
  static Path vtscopeHome() {
    String home = System.getProperty("vtscope.home");
    return home == null || home.isBlank() ? null : Path.of(home);
  }

  static Duration parseDuration(String text, String option) {
    return Duration.ofNanos(DurationParser.nanos(text, option));
  }
}
