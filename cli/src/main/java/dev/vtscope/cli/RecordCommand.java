package dev.vtscope.cli;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.PinnedNowFinding;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.analysis.ThreadInDump;
import dev.vtscope.attribution.Attributor;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.live.AttachedJvm;
import dev.vtscope.live.LiveException;
import dev.vtscope.live.TargetRecording;
import dev.vtscope.record.ChildRecording;
import dev.vtscope.record.Jdk;
import dev.vtscope.record.JdkLocator;
import dev.vtscope.recording.InputProblemException;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.report.Report;
import dev.vtscope.workloads.Workload;
import dev.vtscope.workloads.Workloads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
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

  /** The JDK releases vtscope's data file states. */
  private static final dev.vtscope.advice.Knowledge.JdkFacts JDK =
      dev.vtscope.advice.Knowledge.standard().jdk();

  private String workload;

  /** The workloads' names, in the order 'vtscope workloads' lists them. */
  static final class WorkloadNames extends OptionValues {
    WorkloadNames() {
      super(Workloads.ALL.stream().map(Workload::name).toList());
    }
  }

  /**
   * Every workload's variants: a completion script cannot tell which workload the line names, so it
   * offers them all, and a variant the workload lacks is refused with the workload's own list.
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
                "Where to write the recording; must not exist (default: a new file in the current"
                    + " folder).")
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
    output =
        new OutputOptions(
            spec, OutputOptions.ANALYSIS_FORMATS, OutputOptions.ANALYSIS_FORMATS_HELP);
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
    String thresholdText =
        pinnedThreshold != null ? pinnedThreshold : workload != null ? "0ms" : "20ms";
    String threshold = parseDuration(thresholdText, "--pinned-threshold").toMillis() + " ms";
    List<String> command;
    String note = null;
    Map<String, String> environment = new LinkedHashMap<>();
    if (workload != null) {
      Workload w =
          Workloads.find(workload)
              .orElseThrow(
                  () ->
                      new ExitException(
                          ExitCode.USAGE,
                          "no workload named '"
                              + workload
                              + "'"
                              + NearestNames.didYouMean(
                                  NearestNames.to(
                                      workload,
                                      Workloads.ALL.stream()
                                          .map(known -> List.of(known.name()))
                                          .toList()))
                              + " ('vtscope workloads' lists them)"));
      if (variant != null && !w.variants().contains(variant)) {
        throw new ExitException(
            ExitCode.USAGE,
            "workload "
                + w.name()
                + " has no variant '"
                + variant
                + "'; its variants: "
                + String.join(", ", w.variants()));
      }
      Jdk runtime = chooseJdk();
      recordedWith = runtime.home();
      if (runtime.feature() < w.minimumJdk()) {
        // said before anything starts: the child would only fail and leave an empty recording
        throw new ExitException(
            ExitCode.USAGE,
            "workload "
                + w.name()
                + " needs JDK "
                + w.minimumJdk()
                + " or later; JDK "
                + runtime.feature()
                + " was chosen: "
                + new JdkLocator(System.getenv(), vtscopeHome())
                    .all().stream()
                        .mapToInt(Jdk::feature)
                        .filter(f -> f >= w.minimumJdk())
                        .max()
                        .stream()
                        .mapToObj(f -> "run it with --jdk " + f)
                        .findFirst()
                        .orElse(
                            "install a JDK "
                                + w.minimumJdk()
                                + " or later and choose it with --jdk"));
      }
      if (w.effectGoneFrom() > 0 && runtime.feature() >= w.effectGoneFrom()) {
        note =
            "JDK "
                + runtime.feature()
                + " cannot show this effect (it exists on JDK "
                + w.effectJdks()
                + "; JEP 491 removed monitor pinning in JDK "
                + JDK.monitorsStopPinningIn()
                + "): to see it, run with --jdk "
                + JDK.virtualThreadsFinalIn()
                + ".";
      }
      command =
          ChildRecording.workloadCommand(runtime.java(), ownJar(), w.name(), variant, arguments);
      if (out == null) {
        out =
            newFileName(
                "vtscope-"
                    + w.name()
                    + (variant == null ? "" : "-" + variant)
                    + "-jdk"
                    + runtime.feature());
      }
    } else {
      if (arguments.isEmpty()) {
        throw new ExitException(
            ExitCode.USAGE, "give --workload NAME, or the Java command to record after --");
      }
      command = arguments;
      if (jdk != null) {
        Jdk runtime = chooseJdk();
        recordedWith = runtime.home();
        command = onJdk(runtime, command, environment);
        note = jdkNote(runtime, arguments);
      }
      refuseJavaWithoutVirtualThreads(command, environment);
      if (out == null) {
        out = newFileName("vtscope-recording");
      }
    }
    refuseExistingOrUnwritable(out);
    PrintWriter stderr = spec.commandLine().getErr();
    if (workload == null && note != null) {
      stderr.println("vtscope record: " + note);
    }
    stderr.println("vtscope record: running " + String.join(" ", command));
    stderr.flush();
    ChildRecording.Result result;
    // A program still running at the timeout may hang with every carrier pinned: its threads then
    // are the evidence, as they are for --pid.
    List<PinnedNowThreads> atTimeout = new ArrayList<>();
    try {
      result =
          ChildRecording.run(
              command,
              environment,
              out,
              threshold,
              limit,
              new StderrStream(stderr),
              pid -> {
                PinnedNowThreads threads = pinnedNow(pid, stderr);
                if (threads != null) {
                  atTimeout.add(threads);
                }
              });
    } catch (IOException e) {
      throw new ExitException(
          ExitCode.INPUT_UNREADABLE,
          "could not start '" + command.get(0) + "': " + e.getMessage(),
          e);
    }
    String ending =
        result.ending() == ChildRecording.Ending.TIMED_OUT
            ? "stopped after the " + timeout + " timeout"
            : "exited with code " + result.exitCode();
    if (!result.recorded()) {
      throw new ExitException(
          ExitCode.PROGRAM_FAILED,
          "the program "
              + ending
              + " and wrote no recording to "
              + out
              + (workload == null ? " (is it a java command of JDK 11 or later?)" : ""));
    }
    stderr.println("vtscope record: the program " + ending + "; recording: " + out);
    if (workload != null && note != null) {
      stderr.println("vtscope record: " + note);
    }
    stderr.flush();
    if (!noAnalyze) {
      analyze(out, atTimeout.isEmpty() ? null : atTimeout.get(0));
    }
    return result.ending() == ChildRecording.Ending.EXITED && result.exitCode() == 0
        ? ExitCode.OK.code()
        : ExitCode.PROGRAM_FAILED.code();
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
    if (out == null) {
      out = newFileName("vtscope-pid" + pid);
    }
    refuseExistingOrUnwritable(out);
    PrintWriter stderr = spec.commandLine().getErr();
    TargetRecording recording;
    try {
      recording = LiveTarget.start(pid, threshold, length, out.toAbsolutePath());
    } catch (LiveException e) {
      throw ExitException.of(e);
    }
    // Ctrl-C (or a kill) stops the recording in the target, which writes what it has to --out.
    Thread hook =
        new Thread(
            () -> {
              try {
                recording.stop(null);
                stderr.println(
                    "vtscope record: interrupted; stopped recording "
                        + recording.name()
                        + " in pid "
                        + pid
                        + (Files.exists(out) ? "; what it recorded: " + out : ""));
              } catch (LiveException e) {
                stderr.println("vtscope record: interrupted; " + e.getMessage());
              }
              stderr.flush();
            },
            "vtscope-stop-recording");
    Runtime.getRuntime().addShutdownHook(hook);
    long started = System.nanoTime();
    boolean exited;
    try {
      stderr.println(
          "vtscope record: recording pid "
              + pid
              + " ("
              + target.summary()
              + ") for "
              + HumanDurations.format(length.toNanos())
              + " as JFR recording "
              + recording.name()
              + " into "
              + out);
      stderr.flush();
      exited = !recording.awaitEnd(length);
    } catch (LiveException e) {
      throw ExitException.of(e);
    } finally {
      try {
        recording.stop(null); // a no-op when the JVM stopped it at the end of its duration
      } catch (LiveException e) {
        stderr.println("vtscope record: " + e.getMessage());
      }
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // shutting down already: the hook runs
      }
    }
    // A pin that has not ended writes no event: what the carriers hold now comes from a thread
    // dump, taken as the recording ends.
    PinnedNowThreads pinnedNow = exited ? null : pinnedNow(pid, stderr);
    long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
    boolean written = Files.isRegularFile(out) && Files.size(out) > 0;
    if (!written && Files.isRegularFile(out)) {
      // the empty file the JVM opened for it: left there, it would refuse the same --out next time
      Files.deleteIfExists(out);
    }
    if (exited && !written) {
      throw new ExitException(
          ExitCode.TARGET_JVM,
          "pid "
              + pid
              + " exited after "
              + seconds
              + " s, before it wrote its recording (was it killed?): nothing was recorded");
    }
    if (!written) {
      throw new ExitException(
          ExitCode.TARGET_JVM,
          "pid " + pid + " wrote no recording to " + out + " (" + recording.name() + ")");
    }
    stderr.println(
        exited
            ? "vtscope record: pid "
                + pid
                + " exited after "
                + seconds
                + " s; its recording up to then: "
                + out
            : "vtscope record: recorded pid " + pid + "; recording: " + out);
    stderr.flush();
    if (!noAnalyze) {
      analyze(out, pinnedNow);
    }
    return exited ? ExitCode.TARGET_JVM.code() : ExitCode.OK.code();
  }

  /** A running JVM's threads now, and where its class files are, to attribute the pinned ones. */
  private record PinnedNowThreads(
      List<ThreadInDump> threads, String classPath, String workingDirectory) {}

  private static PinnedNowThreads pinnedNow(long pid, PrintWriter stderr) {
    try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
      java.util.Properties properties = jvm.systemProperties();
      return new PinnedNowThreads(
          ThreadDumps.take(pid),
          properties.getProperty("java.class.path"),
          properties.getProperty("user.dir"));
    } catch (LiveException e) {
      stderr.println(
          "vtscope record: no thread dump of pid "
              + pid
              + " ("
              + e.getMessage()
              + "): pins that have not ended are not shown");
      stderr.flush();
      return null;
    }
  }

  /** A new file vtscope may write: not there yet, in a folder that is. */
  static void refuseExistingOrUnwritable(Path file) {
    if (Files.exists(file)) {
      throw new ExitException(
          ExitCode.USAGE,
          file + " already exists; vtscope never overwrites a file, choose another --out");
    }
    Path folder = file.toAbsolutePath().getParent();
    if (folder == null || !Files.isDirectory(folder)) {
      throw new ExitException(
          ExitCode.USAGE, "the folder of --out " + file + " does not exist; create it first");
    }
  }

  /**
   * Analyses {@code recording}; with the threads of the JVM as its recording ended, the virtual
   * threads pinned then come first, whose pins wrote no event.
   */
  private void analyze(Path recording, PinnedNowThreads now) {
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
      List<PinnedNow> pinned;
      try (ClassBytesSource classes =
          ClassBytesSource.of(
              options.classPath(),
              List.of(
                  new ClassBytesSource.RecordedClassPath(
                      now.classPath(), now.workingDirectory(), null)),
              analysis.jvm() == null ? null : analysis.jvm().javaVersion(),
              analysis.feature(),
              options.jdkHomes())) {
        pinned =
            PinnedNow.find(
                PinnedNow.candidates(now.threads()),
                new Attributor(classes, new FrameOwnership(options.appPackages())));
      }
      advice = PinnedNowFinding.addTo(advice, analysis, pinned);
    }
    output.print(
        output.renderer(text, TerminalFacts.detect()),
        new Report.Analyzed(analysis, advice),
        spec.commandLine().getOut(),
        List.of(recording));
  }

  /** The JDK the program was recorded with (--jdk), if one was chosen. */
  private Path recordedWith;

  private Jdk chooseJdk() {
    JdkLocator locator = new JdkLocator(System.getenv(), vtscopeHome());
    if (jdk == null) {
      return new Jdk(Path.of(System.getProperty("java.home")), Runtime.version().feature());
    }
    if (jdk.matches("\\d+")) {
      int feature = Integer.parseInt(jdk);
      Optional<Jdk> found = locator.feature(feature);
      if (found.isEmpty()) {
        String seen =
            locator.all().stream()
                .map(j -> "JDK " + j.feature() + " at " + j.home())
                .collect(Collectors.joining(", "));
        throw new ExitException(
            ExitCode.NO_JAVA,
            "no JDK "
                + feature
                + " found ("
                + (seen.isEmpty() ? "none at all" : "found " + seen)
                + "); install one or pass --jdk PATH");
      }
      return found.get();
    }
    return locator
        .at(Path.of(jdk))
        .orElseThrow(
            () ->
                new ExitException(
                    ExitCode.NO_JAVA,
                    jdk + " is not a Java runtime (no bin/java and release file)"));
  }

  /**
   * The command to run on {@code runtime}: a bare {@code java} becomes that JDK's java, and the
   * child's {@code JAVA_HOME} and {@code PATH} point at it, so build tools and scripts that look
   * there ({@code mvn}, {@code gradle}, a start script) use it too.
   */
  static List<String> onJdk(Jdk runtime, List<String> command, Map<String, String> environment) {
    environment.put("JAVA_HOME", runtime.home().toString());
    String path = System.getenv("PATH");
    String bin = runtime.java().getParent().toString();
    environment.put(
        "PATH", path == null || path.isEmpty() ? bin : bin + java.io.File.pathSeparator + path);
    if (isBareJava(command.get(0))) {
      List<String> replaced = new ArrayList<>(command);
      replaced.set(0, runtime.java().toString());
      return List.copyOf(replaced);
    }
    return command;
  }

  /** What --jdk did to a command, for the user: nothing is changed silently. */
  static String jdkNote(Jdk runtime, List<String> command) {
    String first = command.get(0);
    if (isBareJava(first)) {
      return "--jdk " + runtime.feature() + ": 'java' runs as " + runtime.java();
    }
    String name =
        Path.of(first).getFileName() == null ? first : Path.of(first).getFileName().toString();
    if (name.equals("java") || name.equals("java.exe")) {
      return "--jdk "
          + runtime.feature()
          + " does not replace the java named in the command ("
          + first
          + "); it runs as given";
    }
    return "--jdk "
        + runtime.feature()
        + ": the command runs with JAVA_HOME="
        + runtime.home()
        + " and that JDK's bin first on PATH";
  }

  /**
   * A command whose java has no virtual threads (a JDK older than 21, say the system's default
   * java) would run and leave a recording with nothing to show: refused before it starts.
   */
  private static void refuseJavaWithoutVirtualThreads(
      List<String> command, Map<String, String> environment) {
    String first = command.get(0);
    Path executable = null;
    if (isBareJava(first)) {
      String path = environment.getOrDefault("PATH", System.getenv("PATH"));
      for (String dir : path == null ? new String[0] : path.split(java.io.File.pathSeparator)) {
        if (!dir.isBlank() && Files.isExecutable(Path.of(dir, first))) {
          executable = Path.of(dir, first);
          break;
        }
      }
    } else {
      Path named = Path.of(first).getFileName();
      if (named != null && isBareJava(named.toString())) {
        executable = Path.of(first);
      }
    }
    if (executable == null) {
      return; // not java itself (a script, mvn, gradle): what it runs is its business
    }
    Path real;
    try {
      real = executable.toRealPath();
    } catch (IOException e) {
      return;
    }
    Optional<Jdk> runtime = new JdkLocator(System.getenv(), vtscopeHome()).at(real);
    if (runtime.isPresent() && runtime.get().feature() < JDK.virtualThreadsFinalIn()) {
      throw new ExitException(
          ExitCode.NO_JAVA,
          "'"
              + first
              + "' is JDK "
              + runtime.get().feature()
              + " ("
              + real
              + "), which has no virtual threads: run with --jdk "
              + JDK.virtualThreadsFinalIn()
              + " (or later), or put a JDK "
              + JDK.virtualThreadsFinalIn()
              + "+ first on PATH");
    }
  }

  private static boolean isBareJava(String program) {
    return program.equals("java") || program.equals("java.exe");
  }

  /** vtscope's checkout, when the launcher says where it is. */
  static Path vtscopeHome() {
    String home = System.getProperty("vtscope.home");
    return home == null || home.isBlank() ? null : Path.of(home);
  }

  private static Path ownJar() {
    try {
      return Path.of(Workloads.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Path newFileName(String stem) {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path candidate = Path.of(stem + "-" + stamp + ".jfr");
    for (int i = 2; Files.exists(candidate); i++) {
      candidate = Path.of(stem + "-" + stamp + "-" + i + ".jfr");
    }
    return candidate;
  }

  static Duration parseDuration(String text, String option) {
    return Duration.ofNanos(DurationParser.nanos(text, option));
  }

  /** Copies the child's output to vtscope's stderr writer. */
  private static final class StderrStream extends OutputStream {
    private final PrintWriter err;

    StderrStream(PrintWriter err) {
      this.err = err;
    }

    @Override
    public void write(int b) {
      err.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      err.write(new String(b, off, len, StandardCharsets.UTF_8));
    }

    @Override
    public void flush() {
      err.flush();
    }
  }
}
