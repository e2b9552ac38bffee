package dev.vtscope.live;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.DumpAdvisor;
import dev.vtscope.advice.DumpsNow;
import dev.vtscope.advice.Finding;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.IntervalStream;
import dev.vtscope.analysis.LiveSnapshot;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.recording.InputProblemException;
import dev.vtscope.recording.RepositoryStream;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.waits.Deadlock;
import dev.vtscope.waits.SchedulerLimits;
import dev.vtscope.waits.WaitSeries;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code vtscope watch}'s loop: streams a running JVM's JFR repository into a live analysis and
 * hands it to a {@link Display} every interval, until q, the duration, or the end of the JVM. With
 * a pid it also starts and stops vtscope's recording in the JVM and takes paced thread dumps (the
 * carriers pinned now). The command wires its options to it and shows what it hands over; what
 * happens to the JVM is said on stderr here.
 */
public final class Watching {

  // dumps kept for the deadlocks: how long a chain stands unchanged is read over them
  private static final int SERIES = 6;

  /** How watching ended. */
  public enum Outcome {
    /** q, Ctrl-C or the duration ended it, or the JVM writing a repository folder exited. */
    WATCHED,
    /** The JVM watched with a pid exited. */
    JVM_EXITED,
    /** A finding reached the severity watching was to stop at. */
    FAILED
  }

  /**
   * What is watched, for the display to name.
   *
   * @param title what to call it: the folder, or the pid and its JVM
   * @param recordingName vtscope's recording in the JVM, or null when watching a folder
   * @param folder the JFR repository read
   * @param every how often an interval ends
   */
  public record Watched(String title, String recordingName, Path folder, Duration every) {}

  /** Ends watching early: q on a terminal, Ctrl-C anywhere. */
  public interface Quit extends AutoCloseable {
    /**
     * Waits until {@code deadline} ({@link System#nanoTime}); true when quitting was asked for
     * meanwhile.
     */
    boolean awaitQuitUntil(long deadline) throws InterruptedException;

    @Override
    void close();
  }

  /** Where each interval is shown: the command implements it. */
  public interface Display {
    /** Opens what ends watching early, as watching starts. */
    Quit openQuit();

    /** Watching has started. */
    void started(Watched watched);

    /** No recording in the folder yet, {@code elapsedNanos} after watching started. */
    void waiting(Watched watched, long elapsedNanos);

    /**
     * One interval's analysis.
     *
     * @param findings the findings now, first the carriers pinned now
     * @param fresh the ids of the findings that are new in this interval
     * @param was of the findings whose severity changed in this interval, the one before, by id
     */
    void interval(
        Watched watched,
        LiveSnapshot snapshot,
        List<Finding> findings,
        Set<String> fresh,
        Map<String, Severity> was,
        long elapsedNanos);
  }

  /** Starts vtscope's recording in the JVM, with vtscope's settings. */
  @FunctionalInterface
  public interface RecordingStart {
    TargetRecording start() throws LiveException;
  }

  private final AnalysisOptions options;
  private final Duration every;
  private final Duration limit;
  private final PrintWriter stderr;
  private final Severity failOn;

  /**
   * @param every how often an interval ends
   * @param limit how long to watch, or null for until quit
   * @param failOn the severity of a finding that ends watching ({@link Outcome#FAILED}), or null to
   *     watch on whatever is found
   * @param stderr where what happens is said
   */
  public Watching(
      AnalysisOptions options,
      Duration every,
      Duration limit,
      Severity failOn,
      PrintWriter stderr) {
    this.options = options;
    this.every = every;
    this.limit = limit;
    this.failOn = failOn;
    this.stderr = stderr;
  }

  /** The first finding at or above {@link #failOn} that is not the healthy verdict, or null. */
  private Finding failing(List<Finding> findings) {
    if (failOn == null) {
      return null;
    }
    for (Finding f : findings) {
      if (f.severity().compareTo(failOn) >= 0 && !f.healthy()) {
        return f;
      }
    }
    return null;
  }

  /**
   * Watches a JVM's JFR repository folder, written by {@code writer} (or -1 when unknown).
   *
   * @param title what to call it on the screen
   */
  public Outcome watchRepository(Path folder, long writer, String title, Display display)
      throws LiveException, InterruptedException {
    return watch(folder, null, null, writer, 0, title, null, display);
  }

  /**
   * Starts vtscope's recording in the JVM {@code pid}, watches it, and stops it when watching ends,
   * also when vtscope is stopped.
   *
   * @param feature the JVM's JDK feature release, or 0 when unknown
   * @param summary what to call the JVM in a message: its JDK and what it runs
   * @param out the file the recording is kept in when watching ends, or null
   */
  public Outcome watchPid(
      long pid, int feature, String summary, Path out, RecordingStart starting, Display display)
      throws LiveException, InterruptedException {
    Path workingFolder;
    try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
      String dir = jvm.systemProperties().getProperty("user.dir");
      workingFolder = dir == null ? null : Path.of(dir);
    }
    Instant start = Instant.now();
    TargetRecording recording = starting.start();
    StopRecordingOnExit stopper =
        StopRecordingOnExit.install(
            recording,
            "watch",
            "",
            () -> out != null && Files.exists(out) ? "; recording: " + out : "",
            stderr);
    try {
      Path folder = recording.repository();
      return watch(
          folder,
          start,
          workingFolder,
          pid,
          feature,
          "pid " + pid + " · " + summary,
          recording,
          display);
    } finally {
      stopper.close();
      if (out != null) {
        stderr.println(
            Files.exists(out)
                ? "vtscope watch: recording kept: " + out + " (vtscope analyze " + out + ")"
                : "vtscope watch: pid " + pid + " wrote no recording to " + out);
      }
      stderr.flush();
    }
  }

  /**
   * Streams {@code folder} into a live analysis and shows it every interval until q, the duration,
   * or the end of the JVM that writes it ({@code writer}, or -1 when unknown; {@code feature} is
   * its JDK's feature release, or 0 when unknown).
   */
  private Outcome watch(
      Path folder,
      Instant start,
      Path workingFolder,
      long writer,
      int feature,
      String title,
      TargetRecording recording,
      Display display)
      throws LiveException, InterruptedException {
    Instant began = start != null ? start : Instant.now();
    IntervalStream live = IntervalStream.keepingTotal(options, title, workingFolder, nanos(began));
    Watched watched =
        new Watched(title, recording == null ? null : recording.name(), folder, every);
    // the severity each finding (its rule and the classes it blames) was last seen with
    Map<String, Severity> seen = new HashMap<>();
    long startedNanos = System.nanoTime();
    long everyNanos = every.toNanos();
    boolean writerExited = false;
    Finding failed = null;
    boolean sawRecording = false;
    long watchedNanos = 0;
    boolean dumpFailed = false;
    // Thread.vthread_scheduler exists from JDK 24
    boolean schedulerCounts = recording != null && (feature == 0 || feature >= 24);
    PacedThreadDumps.Latest<JvmNow> dumped = null;
    List<PinnedNow> pinnedNow = null;
    // the latest dumps, oldest first: a chain unchanged in several is stuck
    List<ThreadDump> series = new ArrayList<>();
    // whether a dump's notes (a fallback taken, and why) were said: once while dumps fall back,
    // again when they fall back after one that did not
    boolean notesSaid = false;
    try (RepositoryStream stream = RepositoryStream.open(folder, start, live);
        Quit quitting = display.openQuit();
        PacedThreadDumps<JvmNow> dumps =
            recording == null
                ? null
                : new PacedThreadDumps<>(() -> jvmNow(writer, schedulerCounts))) {
      stream.start();
      display.started(watched);
      // Intervals end at a fixed rate, whatever the work of each: a late one is followed at once by
      // the next, so that every interval of the clock gets its line.
      long tickAt = startedNanos;
      while (true) {
        tickAt += everyNanos;
        boolean quit = quitting.awaitQuitUntil(tickAt);
        long elapsed = System.nanoTime() - startedNanos;
        LiveSnapshot.DumpAge dumpAge = null;
        // why pinned now is not known, when a dump was asked for and none could be read
        Message unknown = null;
        if (dumps != null && TargetRecording.alive(writer)) {
          // the dump runs on a thread of its own: an interval waits for it half its length (the
          // first dump a whole one), and shows the latest dump that finished
          long now = System.nanoTime();
          long deadline =
              quit ? now : Math.min(now, tickAt) + (dumped == null ? everyNanos : everyNanos / 2);
          PacedThreadDumps.Latest<JvmNow> latest = dumps.latest(deadline);
          if (latest != dumped) {
            dumped = latest;
            ThreadDump dump = latest.result() == null ? null : latest.result().dump();
            if (dump != null) {
              series.add(dump);
              if (series.size() > SERIES) {
                series.remove(0);
              }
            }
            // a dump that does not show what the mounted virtual threads run cannot say none pins
            pinnedNow = dump == null || !dump.mountedFramesKnown() ? null : live.pinnedNow(series);
            if (latest.result() != null) {
              List<String> notes = latest.result().dump().notes();
              if (!notesSaid) {
                notes.forEach(note -> stderr.println("vtscope watch: " + note));
                stderr.flush();
              }
              notesSaid = !notes.isEmpty();
            }
            if (latest.failure() != null && !dumpFailed && TargetRecording.alive(writer)) {
              stderr.println(
                  "vtscope watch: "
                      + latest.failure().getMessage()
                      + "; carriers pinned now are not shown while this lasts");
              stderr.flush();
              dumpFailed = true;
            }
          }
          if (pinnedNow == null) {
            unknown =
                latest.failure() != null
                    ? Message.of(
                        "pinned-now-unknown.dump-failed", "why", latest.failure().getMessage())
                    : latest.result() != null
                        ? Message.of("pinned-now-unknown.frames-not-printed")
                        : Message.of(
                            "pinned-now-unknown.dump-running",
                            "took",
                            Duration.ofNanos(latest.tookNanos()));
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
          display.waiting(watched, elapsed);
        } else {
          LiveSnapshot snapshot =
              LiveSnapshot.of(live.next(nanos(Instant.now())), pinnedNow, scheduler, dumpAge);
          List<Finding> findings =
              withPinnedNow(
                  snapshot,
                  unknown,
                  deadlocks(live, series, snapshot, scheduler),
                  series.isEmpty() ? null : live.waits(series));
          Set<String> fresh = new HashSet<>();
          Map<String, Severity> was = new HashMap<>();
          for (Finding f : findings) {
            // the same finding's figures change every interval: it is new when its rule or the
            // classes it blames are, and changed when its severity is
            Severity before = seen.put(f.id() + " " + f.classes(), f.severity());
            if (before == null) {
              fresh.add(f.id());
            } else if (before != f.severity()) {
              was.put(f.id(), before);
            }
          }
          display.interval(watched, snapshot, findings, fresh, was, elapsed);
          failed = failing(findings);
        }
        sawRecording = stream.sawRecording();
        watchedNanos = elapsed;
        if (stream.failure() != null) {
          throw new LiveException(
              LiveException.Reason.NOT_A_RECORDING,
              "reading " + folder + " stopped: " + stream.failure().getMessage(),
              stream.failure());
        }
        if (writer > 0 && !TargetRecording.alive(writer)) {
          writerExited = true;
          break;
        }
        // the duration counts intervals by the clock: late ones are not fewer
        if (failed != null || quit || (limit != null && tickAt - startedNanos >= limit.toNanos())) {
          break;
        }
      }
    } catch (InputProblemException e) {
      throw new LiveException(LiveException.Reason.UNREADABLE, e.getMessage(), e);
    }
    if (!sawRecording && !(writerExited && recording != null)) {
      throw new LiveException(
          LiveException.Reason.UNREADABLE,
          "no JFR recording appeared in "
              + folder
              + " in "
              + HumanDurations.format(watchedNanos)
              + ": a JVM's repository holds the chunk files it is writing (jcmd PID JFR.check"
              + " names recordings; the folder is under the JVM's temporary folder, or set by"
              + " -XX:FlightRecorderOptions:repository=)");
    }
    if (failed != null) {
      stderr.println(
          "vtscope watch: stopped: a finding reached --fail-on "
              + failOn.label()
              + " ("
              + failed.severity().label()
              + " "
              + failed.id()
              + ")");
      stderr.flush();
      return Outcome.FAILED;
    }
    if (writerExited) {
      if (recording != null) {
        stderr.println("vtscope watch: pid " + writer + " exited");
        stderr.flush();
        return Outcome.JVM_EXITED;
      }
      stderr.println("vtscope watch: pid " + writer + ", which wrote " + folder + ", exited");
      stderr.flush();
    }
    return Outcome.WATCHED;
  }

  /**
   * What a thread dump says of the JVM now: its threads, and on JDK 24+ the scheduler's counts.
   *
   * @param dump the thread dump: its platform threads and mounted virtual threads
   * @param scheduler the scheduler's counts, or null
   */
  private record JvmNow(ThreadDump dump, LiveSnapshot.Scheduler scheduler) {}

  private static JvmNow jvmNow(long pid, boolean schedulerCounts) throws LiveException {
    ThreadDump threads = ThreadDumpTaker.take(pid, ThreadDumpTaker.Scope.LIVE_VIEW);
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
   * The analysis' findings, and first what the thread dumps show now ({@link DumpAdvisor#addTo}),
   * without the note that the recording is short: watching reads a recording as it grows.
   *
   * @param unknown why pinned now is not known, or null
   * @param deadlocks the deadlocks and starvations of the latest dumps
   * @param waits what the threads of the latest dumps wait for, or null when none was read
   */
  private static List<Finding> withPinnedNow(
      LiveSnapshot snapshot, Message unknown, List<Deadlock> deadlocks, WaitSeries waits) {
    Advice events = Advisor.standard().advise(snapshot.analysis()).withoutRecordingLength();
    return DumpAdvisor.addTo(
            events,
            snapshot.analysis(),
            new DumpsNow(snapshot.pinnedNow(), unknown, deadlocks, waits))
        .findings();
  }

  /**
   * The deadlocks of the latest dumps, with the scheduler's carriers as the JVM says them (JDK
   * 24+), else as the recording does, else as the dump shows, and its maximum pool size as the
   * recording says it.
   */
  private static List<Deadlock> deadlocks(
      IntervalStream live,
      List<ThreadDump> series,
      LiveSnapshot snapshot,
      LiveSnapshot.Scheduler scheduler) {
    if (series.isEmpty()) {
      return List.of();
    }
    int parallelism =
        scheduler != null && scheduler.parallelism() > 0
            ? scheduler.parallelism()
            : Math.max(0, snapshot.analysis().scheduler().parallelism().value());
    return live.deadlocks(
        series,
        new SchedulerLimits(
            parallelism, Math.max(0, snapshot.analysis().scheduler().maxPoolSize().value())));
  }

  private static long nanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }
}
