package dev.vtscope.analysis;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.recording.ChunkHeader;
import dev.vtscope.recording.CpuFacts;
import dev.vtscope.recording.CpuSampleEvent;
import dev.vtscope.recording.EventSetting;
import dev.vtscope.recording.FileIoEvent;
import dev.vtscope.recording.JvmFacts;
import dev.vtscope.recording.MonitorEvent;
import dev.vtscope.recording.PinnedEvent;
import dev.vtscope.recording.RecordingListener;
import dev.vtscope.recording.SubmitFailedEvent;
import dev.vtscope.recording.ThreadStartEvent;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.waits.Deadlock;
import dev.vtscope.waits.Deadlocks;
import dev.vtscope.waits.SchedulerLimits;
import dev.vtscope.waits.WaitClassifier;
import dev.vtscope.waits.WaitSeries;
import java.nio.file.Path;
import java.util.List;

/**
 * A running JVM's events, cut into intervals: what {@code vtscope watch} and vtscope-agent read.
 * Each interval's events go to a builder of their own; {@link #next} seals them into a {@link
 * RecordingSummary}, which no later event changes, and analyses it, so that what an interval says
 * comes from its own events, never from the difference of two totals. A stream that keeps a total
 * merges each sealed interval into it, as a reader merges a recording's chunks, and analyses the
 * merge; one that does not keeps nothing of an interval once it is analysed: memory is one
 * interval's builder (its sites, and a few bytes per pin for the carriers held at once), whatever
 * the JVM's uptime.
 *
 * <p>The JVM's facts (release, CPUs, class path, scheduler properties, JFR settings), which JFR
 * writes once per chunk, are carried from each interval into the next, so that every interval is
 * analysed as a recording of its own. Events arrive on the stream's thread; intervals end on
 * another.
 */
public final class IntervalStream implements RecordingListener {

  private final Analyzer analyzer;
  private final AnalysisOptions options;
  private final String name;
  private final Path workingFolder;
  private final boolean keepTotal;
  private SummaryBuilder interval;
  private int intervals;
  private boolean anyEvent;

  /** Only the ticking thread reads and writes it. */
  private RecordingSummary total;

  private IntervalStream(
      AnalysisOptions options,
      String name,
      Path workingFolder,
      long startNanos,
      boolean keepTotal) {
    this.analyzer = new Analyzer(options);
    this.options = options;
    this.name = name;
    this.workingFolder = workingFolder;
    this.keepTotal = keepTotal;
    this.interval = newInterval(startNanos, null);
  }

  /**
   * A stream whose every interval is also merged into a total, analysed at each {@link #next}.
   *
   * @param options how to analyse
   * @param name what to call the input in the analyses (e.g. {@code pid 4242})
   * @param workingFolder the JVM's working folder, against which its relative class path is
   *     resolved; or null
   * @param startNanos when the first interval starts, nanoseconds since the epoch
   */
  public static IntervalStream keepingTotal(
      AnalysisOptions options, String name, Path workingFolder, long startNanos) {
    return new IntervalStream(options, name, workingFolder, startNanos, true);
  }

  /** A stream that analyses each interval alone and keeps nothing of it afterwards. */
  public static IntervalStream intervalsOnly(
      AnalysisOptions options, String name, long startNanos) {
    return new IntervalStream(options, name, null, startNanos, false);
  }

  /**
   * A builder for the interval that starts at {@code startNanos}, knowing the facts of {@code
   * previous} (the interval before, or null). An interval is a chunk of the JVM's recording to the
   * builder: its own start, its own index.
   */
  private SummaryBuilder newInterval(long startNanos, SummaryBuilder previous) {
    SummaryBuilder next = new SummaryBuilder(ReadProgress.NONE, workingFolder);
    next.chunk(new ChunkHeader(intervals++, 0, 2, 0, 0, 0, 0, startNanos, 0, 0));
    if (previous != null) {
      next.takeFacts(previous);
    }
    return next;
  }

  /**
   * One interval's end.
   *
   * @param startNanos when the interval started, nanoseconds since the epoch
   * @param endNanos when it ended
   * @param summary the interval's events and the JVM's facts, sealed
   * @param interval the analysis of {@code summary} alone, or null when no pin, monitor event,
   *     rejected task or file I/O arrived in the interval (nothing to analyse: every figure is 0)
   * @param totalSummary every interval so far merged, or null when the stream keeps no total
   * @param total the analysis of {@code totalSummary}, or null when the stream keeps no total
   */
  public record Tick(
      long startNanos,
      long endNanos,
      RecordingSummary summary,
      Analysis interval,
      RecordingSummary totalSummary,
      Analysis total) {

    /** Whether nothing to analyse arrived in the interval. */
    public boolean quiet() {
      return interval == null;
    }

    /** The interval's length. */
    public long intervalNanos() {
      return Math.max(0, endNanos - startNanos);
    }
  }

  /**
   * Ends the current interval at {@code nowNanos}, seals and analyses it, and, when the stream
   * keeps one, merges it into the total and analyses that. Called from one thread at a time.
   *
   * @param nowNanos the end of the interval, nanoseconds since the epoch
   */
  public Tick next(long nowNanos) {
    SummaryBuilder ended;
    boolean quiet;
    synchronized (this) {
      ended = interval;
      quiet = !anyEvent;
      anyEvent = false;
      interval = newInterval(nowNanos, ended);
    }
    ended.endAt(nowNanos);
    RecordingSummary sealed = RecordingSummary.of(ended);
    long startNanos = sealed.startNanos();
    Analysis alone = quiet ? null : analyzer.analyze(name, sealed);
    if (!keepTotal) {
      return new Tick(startNanos, nowNanos, sealed, alone, null, null);
    }
    total = total == null ? sealed : total.merge(sealed);
    return new Tick(startNanos, nowNanos, sealed, alone, total, analyzer.analyze(name, total));
  }

  /**
   * The virtual threads of the latest thread dump of the JVM that hold their carrier now, of the
   * latest dumps (oldest first), attributed as pinned events are, with the class files of the JVM's
   * class path as far as its events have said it, which also tell where a virtual thread waits to
   * enter a monitor when the dumps do not (JDK 21–23).
   */
  public List<PinnedNow> pinnedNow(List<ThreadDump> series) {
    try (ClassBytesSource classes = classes()) {
      return PinnedNow.find(
          series,
          new Attributor(classes, new FrameOwnership(options.appPackages())),
          options.jdk()::monitorsHoldCarrier);
    }
  }

  /**
   * The deadlocks and starvations of the latest thread dumps of the JVM (oldest first), with the
   * class files of its class path, which tell where a virtual thread waits to enter a monitor when
   * the dumps do not (JDK 21–23).
   *
   * @param scheduler the scheduler's parallelism and maximum pool size, as far as known
   */
  public List<Deadlock> deadlocks(List<ThreadDump> series, SchedulerLimits scheduler) {
    try (ClassBytesSource classes = classes()) {
      return Deadlocks.find(
          series,
          scheduler,
          new Attributor(classes, new FrameOwnership(options.appPackages())),
          options.jdk()::monitorsHoldCarrier);
    }
  }

  /**
   * What the threads of the latest thread dumps of the JVM (oldest first) wait for, grouped as
   * {@code analyze} groups a dump's threads, with the class files that tell where a virtual thread
   * waits to enter a monitor when the dumps do not (JDK 21–23).
   */
  public WaitSeries waits(List<ThreadDump> series) {
    try (ClassBytesSource classes = classes()) {
      FrameOwnership ownership = new FrameOwnership(options.appPackages());
      return WaitSeries.of(
          series,
          new WaitClassifier(
              ownership, new Attributor(classes, ownership), options.jdk()::monitorsHoldCarrier));
    }
  }

  /** The class files of the JVM's class path, as far as its events have said it so far. */
  private ClassBytesSource classes() {
    ClassBytesSource.RecordedClassPath recorded;
    String javaVersion;
    int feature;
    synchronized (this) {
      // the current interval knows every fact stated so far
      recorded = interval.recordedClassPath();
      JvmFacts jvm = interval.jvmFacts();
      javaVersion = jvm == null ? null : jvm.javaVersion();
      feature = jvm == null ? 0 : jvm.feature();
    }
    return ClassBytesSource.of(
        options.classPath(), List.of(recorded), javaVersion, feature, options.jdkHomes());
  }

  // Events: what the agent's and watch's intervals count. Thread starts and CPU samples alone do
  // not make an interval worth analysing; they are kept in its summary all the same.

  @Override
  public synchronized void pinned(PinnedEvent event) {
    anyEvent = true;
    interval.pinned(event);
  }

  @Override
  public synchronized void submitFailed(SubmitFailedEvent event) {
    anyEvent = true;
    interval.submitFailed(event);
  }

  @Override
  public synchronized void monitor(MonitorEvent event) {
    anyEvent = true;
    interval.monitor(event);
  }

  @Override
  public synchronized void fileIo(FileIoEvent event) {
    anyEvent = true;
    interval.fileIo(event);
  }

  @Override
  public synchronized void threadStart(ThreadStartEvent event) {
    interval.threadStart(event);
  }

  @Override
  public synchronized void cpuSample(CpuSampleEvent event) {
    interval.cpuSample(event);
  }

  // Facts: stated in the interval they arrive in, and carried into every later one.

  @Override
  public synchronized void jvm(JvmFacts facts) {
    interval.jvm(facts);
  }

  @Override
  public synchronized void cpu(CpuFacts facts) {
    interval.cpu(facts);
  }

  @Override
  public synchronized void systemProperty(String key, String value) {
    interval.systemProperty(key, value);
  }

  @Override
  public synchronized void setting(EventSetting setting) {
    interval.setting(setting);
  }

  @Override
  public synchronized void stackDepth(int depth) {
    interval.stackDepth(depth);
  }
}
