package dev.vtscope.cli;

import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.Finding;
import dev.vtscope.advice.PinnedNowFinding;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.IntervalStream;
import dev.vtscope.analysis.LiveSnapshot;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.analysis.ThreadInDump;
import dev.vtscope.live.AttachedJvm;
import dev.vtscope.live.LiveException;
import dev.vtscope.live.PacedThreadDumps;
import dev.vtscope.live.SchedulerCounts;
import dev.vtscope.live.StopRecordingOnExit;
import dev.vtscope.live.TargetRecording;
import dev.vtscope.recording.InputProblemException;
import dev.vtscope.recording.RepositoryStream;
import dev.vtscope.report.WatchView;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.NonBlockingReader;
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
    analysisOptions.options();
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
      return watch(repository, null, null, writer, 0, repository.toString(), null, every, limit);
    }
    return watchPid(every, limit);
  }

  private int watchPid(Duration every, Duration limit) throws IOException, InterruptedException {
    String threshold =
        RecordCommand.parseDuration(
                    pinnedThreshold == null ? "20ms" : pinnedThreshold, "--pinned-threshold")
                .toMillis()
            + "ms";
    if (out != null) {
      RecordCommand.refuseExistingOrUnwritable(out);
    }
    LiveTarget target = LiveTarget.describe(pid);
    Path workingFolder;
    try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
      String dir = jvm.systemProperties().getProperty("user.dir");
      workingFolder = dir == null ? null : Path.of(dir);
    } catch (LiveException e) {
      throw ExitException.of(e);
    }
    Instant start = Instant.now();
    TargetRecording recording;
    Path folder;
    try {
      recording = LiveTarget.start(pid, threshold, null, out == null ? null : out.toAbsolutePath());
    } catch (LiveException e) {
      throw ExitException.of(e);
    }
    PrintWriter err = spec.commandLine().getErr();
    StopRecordingOnExit stopper =
        StopRecordingOnExit.install(
            recording,
            "watch",
            "",
            () -> out != null && Files.exists(out) ? "; recording: " + out : "",
            err);
    try {
      folder = recording.repository();
      return watch(
          folder,
          start,
          workingFolder,
          pid,
          target.jvm().feature(),
          "pid " + pid + " · " + target.summary(),
          recording,
          every,
          limit);
    } catch (LiveException e) {
      throw ExitException.of(e);
    } finally {
      stopper.close();
      if (out != null) {
        err.println(
            Files.exists(out)
                ? "vtscope watch: recording kept: " + out + " (vtscope analyze " + out + ")"
                : "vtscope watch: pid " + pid + " wrote no recording to " + out);
      }
      err.flush();
    }
  }

  /**
   * Streams {@code folder} into a live analysis and shows it every interval until q, the duration,
   * or the end of the JVM that writes it ({@code writer}, or -1 when unknown; {@code feature} is
   * its JDK's feature release, or 0 when unknown).
   */
  private int watch(
      Path folder,
      Instant start,
      Path workingFolder,
      long writer,
      int feature,
      String title,
      TargetRecording recording,
      Duration every,
      Duration limit)
      throws InterruptedException {
    AnalysisOptions options = analysisOptions.options();
    Instant began = start != null ? start : Instant.now();
    IntervalStream live = IntervalStream.keepingTotal(options, title, workingFolder, nanos(began));
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    TerminalFacts facts = TerminalFacts.detect();
    WatchView view = new WatchView(facts.interactive() ? facts.width() : 0, top);
    Set<String> seen = new HashSet<>();
    long startedNanos = System.nanoTime();
    long everyNanos = every.toNanos();
    boolean writerExited = false;
    boolean waitingSaid = false;
    boolean sawRecording = false;
    long watchedNanos = 0;
    boolean dumpFailed = false;
    // Thread.vthread_scheduler exists from JDK 24
    boolean schedulerCounts = recording != null && (feature == 0 || feature >= 24);
    PacedThreadDumps.Latest<JvmNow> dumped = null;
    List<PinnedNow> pinnedNow = null;
    try (RepositoryStream stream = RepositoryStream.open(folder, start, live);
        Keys keys = Keys.open(facts.interactive());
        PacedThreadDumps<JvmNow> dumps =
            recording == null
                ? null
                : new PacedThreadDumps<>(() -> jvmNow(writer, schedulerCounts))) {
      stream.start();
      if (!facts.interactive()) {
        err.println(
            "vtscope watch: watching "
                + title
                + (recording == null ? "" : " (JFR recording " + recording.name() + ")")
                + ", a line every "
                + HumanDurations.format(everyNanos)
                + "; Ctrl-C stops");
        err.flush();
      }
      // Intervals end at a fixed rate, whatever the work of each: a late one is followed at once by
      // the next, so that every interval of the clock gets its line.
      long tickAt = startedNanos;
      while (true) {
        tickAt += everyNanos;
        boolean quit = keys.awaitQuitUntil(tickAt);
        long elapsed = System.nanoTime() - startedNanos;
        LiveSnapshot.DumpAge dumpAge = null;
        if (dumps != null && TargetRecording.alive(writer)) {
          // the dump runs on a thread of its own: an interval waits for it half its length (the
          // first dump a whole one), and shows the latest dump that finished
          long now = System.nanoTime();
          long deadline =
              quit ? now : Math.min(now, tickAt) + (dumped == null ? everyNanos : everyNanos / 2);
          PacedThreadDumps.Latest<JvmNow> latest = dumps.latest(deadline);
          if (latest != dumped) {
            dumped = latest;
            pinnedNow = latest.result() == null ? null : live.pinnedNow(latest.result().threads());
            if (latest.failure() != null && !dumpFailed && TargetRecording.alive(writer)) {
              err.println(
                  "vtscope watch: "
                      + latest.failure().getMessage()
                      + "; carriers pinned now are not shown while this lasts");
              err.flush();
              dumpFailed = true;
            }
          }
          if (latest.failure() == null) {
            dumpAge =
                new LiveSnapshot.DumpAge(
                    latest.startedNanos() < 0 ? -1 : System.nanoTime() - latest.startedNanos(),
                    latest.tookNanos());
          }
        }
        LiveSnapshot.Scheduler scheduler =
            dumped == null || dumped.result() == null ? null : dumped.result().scheduler();
        if (!stream.sawRecording()) {
          // nothing to analyse: a report now would call an empty folder healthy
          if (facts.interactive()) {
            stdout.print("\033[H\033[2J");
            stdout.println(title);
            stdout.println(
                "waiting for a JFR recording in "
                    + folder
                    + " ("
                    + HumanDurations.format(elapsed)
                    + "); q stops");
          } else if (!waitingSaid) {
            err.println("vtscope watch: no JFR recording in " + folder + " yet; waiting");
            err.flush();
            waitingSaid = true;
          }
        } else {
          LiveSnapshot snapshot =
              LiveSnapshot.of(live.next(nanos(Instant.now())), pinnedNow, scheduler, dumpAge);
          List<Finding> findings = withPinnedNow(snapshot);
          Set<String> fresh = new HashSet<>();
          for (Finding f : findings) {
            // the same finding's figures change every interval: it is new when its rule, the
            // classes it blames or its severity are
            if (seen.add(f.id() + " " + f.classes() + " " + f.severity())) {
              fresh.add(f.id());
            }
          }
          if (facts.interactive()) {
            stdout.print("\033[H\033[2J");
            // the recording's name on screen: after a kill -9 of vtscope, JFR.stop needs it
            view.screen(
                    recording == null ? title : title + " · JFR recording " + recording.name(),
                    snapshot,
                    findings,
                    fresh,
                    elapsed,
                    every.toNanos())
                .forEach(stdout::println);
          } else {
            view.lines(
                    snapshot,
                    findings.stream().filter(f -> fresh.contains(f.id())).toList(),
                    elapsed)
                .forEach(stdout::println);
          }
        }
        stdout.flush();
        sawRecording = stream.sawRecording();
        watchedNanos = elapsed;
        if (stream.failure() != null) {
          throw new ExitException(
              ExitCode.NOT_A_RECORDING,
              "reading " + folder + " stopped: " + stream.failure().getMessage(),
              stream.failure());
        }
        if (writer > 0 && !TargetRecording.alive(writer)) {
          writerExited = true;
          break;
        }
        // the duration counts intervals by the clock: late ones are not fewer
        if (quit || (limit != null && tickAt - startedNanos >= limit.toNanos())) {
          break;
        }
      }
    } catch (InputProblemException e) {
      throw new ExitException(ExitCode.INPUT_UNREADABLE, e.getMessage(), e);
    }
    if (!sawRecording && !(writerExited && recording != null)) {
      throw new ExitException(
          ExitCode.INPUT_UNREADABLE,
          "no JFR recording appeared in "
              + folder
              + " in "
              + HumanDurations.format(watchedNanos)
              + ": a JVM's repository holds the chunk files it is writing (jcmd PID JFR.check"
              + " names recordings; the folder is under the JVM's temporary folder, or set by"
              + " -XX:FlightRecorderOptions:repository=)");
    }
    if (writerExited) {
      if (recording != null) {
        err.println("vtscope watch: pid " + writer + " exited");
        err.flush();
        return ExitCode.TARGET_JVM.code();
      }
      err.println("vtscope watch: pid " + writer + ", which wrote " + folder + ", exited");
      err.flush();
    }
    return ExitCode.OK.code();
  }

  /**
   * What a thread dump says of the JVM now: its threads, and on JDK 24+ the scheduler's counts.
   *
   * @param threads every thread of the dump
   * @param scheduler the scheduler's counts, or null
   */
  private record JvmNow(List<ThreadInDump> threads, LiveSnapshot.Scheduler scheduler) {}

  private static JvmNow jvmNow(long pid, boolean schedulerCounts) throws LiveException {
    List<ThreadInDump> threads = ThreadDumps.take(pid);
    LiveSnapshot.Scheduler scheduler =
        !schedulerCounts
            ? null
            : SchedulerCounts.read(pid)
                .map(
                    c ->
                        new LiveSnapshot.Scheduler(
                            c.parallelism(), c.poolSize(), c.mounted(), c.queued()))
                .orElse(null);
    return new JvmNow(threads, scheduler);
  }

  /**
   * The analysis' findings, and first the carriers pinned now when the thread dump shows any: the
   * events alone would call such a JVM healthy, since its pins have not ended.
   */
  private static List<Finding> withPinnedNow(LiveSnapshot snapshot) {
    return PinnedNowFinding.addTo(
            Advisor.standard().advise(snapshot.analysis()),
            snapshot.analysis(),
            snapshot.pinnedNow())
        .findings();
  }

  private static long nanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }

  /**
   * The q key on a terminal, and Ctrl-C (SIGINT) anywhere: both end watching the same way, with the
   * recording stopped and exit code 0. On a terminal the keys are read raw; a terminal library left
   * to itself would let Ctrl-C end the JVM at once, before vtscope stops its recording in the
   * target.
   */
  private static final class Keys implements AutoCloseable {
    private static final long SLICE_MILLIS = 100;

    private final Terminal terminal;
    private final NonBlockingReader reader;
    private final java.util.concurrent.atomic.AtomicBoolean interrupted =
        new java.util.concurrent.atomic.AtomicBoolean();
    private Object previousHandler;

    private Keys(Terminal terminal) {
      this.terminal = terminal;
      this.reader = terminal == null ? null : terminal.reader();
    }

    static Keys open(boolean interactive) {
      Keys keys = null;
      if (interactive) {
        try {
          Terminal terminal =
              TerminalBuilder.builder()
                  .system(true)
                  .signalHandler(Terminal.SignalHandler.SIG_IGN)
                  .build();
          terminal.enterRawMode();
          keys = new Keys(terminal);
          Keys opened = keys;
          terminal.handle(Terminal.Signal.INT, signal -> opened.interrupted.set(true));
          return keys;
        } catch (IOException | RuntimeException e) {
          keys = null; // no raw mode: Ctrl-C is caught as below
        }
      }
      Keys plain = new Keys(null);
      plain.previousHandler =
          org.jline.utils.Signals.register("INT", () -> plain.interrupted.set(true));
      return plain;
    }

    /**
     * Waits until {@code deadline} ({@link System#nanoTime}); true when q or Ctrl-C was pressed
     * meanwhile.
     */
    boolean awaitQuitUntil(long deadline) throws InterruptedException {
      while (!interrupted.get()) {
        long leftNanos = deadline - System.nanoTime();
        if (leftNanos <= 0) {
          return false;
        }
        // rounded up: a wait that ended a fraction of a millisecond early would end an interval
        // before its time
        long slice = Math.min((leftNanos + 999_999) / 1_000_000, SLICE_MILLIS);
        if (reader == null) {
          Thread.sleep(slice);
          continue;
        }
        int c;
        try {
          c = reader.read(slice);
        } catch (IOException e) {
          Thread.sleep(slice);
          continue;
        }
        if (c == 'q' || c == 'Q' || c == 3) {
          return true;
        }
        if (c == NonBlockingReader.EOF) {
          Thread.sleep(slice);
        }
      }
      return true;
    }

    @Override
    public void close() {
      if (previousHandler != null) {
        org.jline.utils.Signals.unregister("INT", previousHandler);
      }
      if (terminal != null) {
        try {
          terminal.close();
        } catch (IOException e) {
          // the terminal is restored when the process ends
        }
      }
    }
  }
}
