package dev.vtscope.cli;

import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.live.LiveException;
import dev.vtscope.live.Watching;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;

/** {@code vtscope watch}: a running JVM's pinning, live. */
final class WatchCommand implements Callable<Integer> {

  private final CommandSpec spec =
      Specs.command(
          this,
          "watch",
          "Shows a running JVM's pinning live, as it happens",
          "Shows a running JVM's pinning live, refreshed every --interval: pins and carrier time"
              + " per site in the last interval and in all, the most carriers held at once against"
              + " parallelism, rejected tasks, and findings as they appear. With --pid it also"
              + " shows the virtual threads pinned now, from the JVM's thread dump (a pin writes"
              + " its JFR event only when it ends), and on JDK 24+ the scheduler's mounted and"
              + " queued counts. With --pid it starts vtscope's JFR recording in the JVM (vtscope"
              + " jvms lists them) and stops it again when watching ends; given a JFR repository"
              + " folder instead, it reads what the JVM writes there. On a terminal the screen is"
              + " redrawn and q quits; in a pipe or file it writes one line per interval. Ctrl-C"
              + " stops either.",
          "Examples:",
          "  vtscope watch --pid 4242",
          "  vtscope watch --pid 4242 --duration 5m --out app.jfr > watch.log",
          "  vtscope watch --pid 4242 --duration 10m --fail-on high   # in CI, beside a load test",
          "  vtscope watch /tmp/2026_11_22_10_00_00_4242");

  /** A JFR repository's per-process folder ends with the pid of the JVM writing it. */
  private static final Pattern REPOSITORY_PID = Pattern.compile(".*_(\\d+)$");

  private Long pid;

  private Path repository;

  private String interval;

  private String duration;

  private Path out;

  private String pinnedThreshold;

  private int top = 10;

  private String failOn = "none";

  private final AnalysisMixin analysisOptions;

  WatchCommand() {
    spec.addOption(
        Specs.option(() -> pid, v -> pid = v, "--pid")
            .paramLabel("PID")
            .type(Long.class)
            .description("The running JVM to watch; it must be of this user, on this machine.")
            .build());
    spec.addPositional(
        Specs.parameters(() -> repository, v -> repository = v)
            .paramLabel("REPOSITORY")
            .arity("0..1")
            .type(Path.class)
            .description(
                "A running JVM's JFR repository folder (e.g. /tmp/2026_11_22_10_00_00_4242),"
                    + " instead of --pid.")
            .build());
    spec.addOption(
        Specs.option(() -> interval, v -> interval = v, "--interval")
            .paramLabel("DURATION")
            .type(String.class)
            .description("How often to refresh, at least 500ms (default: 2s).")
            .build());
    spec.addOption(
        Specs.option(() -> duration, v -> duration = v, "--duration")
            .paramLabel("DURATION")
            .type(String.class)
            .description("Stop after this long, e.g. 5m (default: until q or Ctrl-C).")
            .build());
    spec.addOption(
        Specs.option(() -> out, v -> out = v, "--out")
            .paramLabel("FILE")
            .type(Path.class)
            .description(
                "With --pid: keep the recording in FILE (must not exist) when watching ends, also"
                    + " when the JVM exits meanwhile.")
            .build());
    spec.addOption(
        Specs.option(() -> pinnedThreshold, v -> pinnedThreshold = v, "--pinned-threshold")
            .paramLabel("DURATION")
            .type(String.class)
            .description(
                "With --pid: threshold of jdk.VirtualThreadPinned (default: 20ms, the JDK's).")
            .build());
    spec.addOption(
        CheckCommand.failOnOption(
            () -> failOn,
            v -> failOn = v,
            "Stop watching as soon as a finding of this severity or higher appears, with exit code "
                + ExitCode.CHECK_FAILED.code()
                + ", as check fails: info, low, medium, high, or none (default) to watch on."));
    analysisOptions = new AnalysisMixin(spec, AnalysisMixin.Use.LIVE);
    Specs.verboseOption(spec);
    spec.addOption(
        Specs.option(() -> top, this::top, "--top")
            .paramLabel("N")
            .type(int.class)
            .description("Sites shown on the screen (default: 10).")
            .build());
    Specs.helpOptions(spec);
  }

  private void top(Integer n) {
    if (n < 1) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--top must be 1 or more, not " + n);
    }
    top = n;
  }

  /** The command's model, which picocli runs. */
  CommandSpec spec() {
    return spec;
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    if ((pid == null) == (repository == null)) {
      throw new ExitException(
          ExitCode.USAGE, "give --pid PID or a JFR repository folder (one of them)");
    }
    Duration every = RecordCommand.parseDuration(interval == null ? "2s" : interval, "--interval");
    if (every.toMillis() < 500) {
      throw new ExitException(ExitCode.USAGE, "--interval must be 500ms or more, not " + interval);
    }
    Duration limit = duration == null ? null : RecordCommand.parseDuration(duration, "--duration");
    // a --classpath entry that does not exist is said before anything starts in the JVM
    AnalysisOptions options = analysisOptions.options();
    PrintWriter err = spec.commandLine().getErr();
    Watching watching = new Watching(options, every, limit, CheckCommand.severity(failOn), err);
    if (repository != null) {
      if (out != null || pinnedThreshold != null) {
        throw new ExitException(
            ExitCode.USAGE,
            "--out and --pinned-threshold go with --pid: a repository folder is recorded already");
      }
      if (!Files.isDirectory(repository)) {
        throw new ExitException(
            ExitCode.INPUT_UNREADABLE, repository + " is not a folder (a JVM's JFR repository)");
      }
      Matcher m = REPOSITORY_PID.matcher(repository.toAbsolutePath().normalize().toString());
      long writer = m.matches() ? Long.parseLong(m.group(1)) : -1;
      try {
        return exitCode(
            watching.watchRepository(repository, writer, repository.toString(), screen()));
      } catch (LiveException e) {
        throw ExitException.of(e);
      }
    }
    String threshold =
        RecordCommand.parseDuration(
                    pinnedThreshold == null ? "20ms" : pinnedThreshold, "--pinned-threshold")
                .toMillis()
            + "ms";
    if (out != null) {
      RecordCommand.refuseExistingOrUnwritable(out);
    }
    LiveTarget target = LiveTarget.describe(pid);
    try {
      return exitCode(
          watching.watchPid(
              pid,
              target.jvm().feature(),
              target.summary(),
              out,
              () ->
                  LiveTarget.start(pid, threshold, null, out == null ? null : out.toAbsolutePath()),
              screen()));
    } catch (LiveException e) {
      throw ExitException.of(e);
    }
  }

  private WatchScreen screen() {
    return new WatchScreen(spec.commandLine().getOut(), spec.commandLine().getErr(), top);
  }

  private static int exitCode(Watching.Outcome outcome) {
    return switch (outcome) {
      case WATCHED -> ExitCode.OK.code();
      case JVM_EXITED -> ExitCode.TARGET_JVM.code();
      case FAILED -> ExitCode.CHECK_FAILED.code();
    };
  }
}
