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
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingListener;
import dev.vtscope.recording.SubmitFailedEvent;
import dev.vtscope.recording.ThreadStartEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Analyses a running JVM's events as they arrive. Each interval's events go to a builder of their
 * own, whose summary is merged into the total when the interval ends, as a reader merges a
 * recording's chunks; a {@link #snapshot} analyses the total, which no later event changes. Events
 * arrive on the stream's thread, snapshots are taken on another.
 */
public final class LiveAnalysis implements RecordingListener {

  private final Analyzer analyzer;
  private final AnalysisOptions options;
  private final String name;
  private final Path workingFolder;
  private RecordingSummary total = RecordingSummary.of(new SummaryBuilder());
  private SummaryBuilder interval;
  private long intervalStart;
  private int intervals;
  private final Map<String, DurationSummary> previousSites = new HashMap<>();
  private long previousPinned;
  private long previousPinnedNanos;
  private long previousSubmitFailures;

  /**
   * @param options how to analyse
   * @param name what to call the input in the analysis (e.g. {@code pid 4242})
   * @param workingFolder the JVM's working folder, against which its relative class path is
   *     resolved; or null
   * @param startNanos when watching starts, nanoseconds since the epoch
   */
  public LiveAnalysis(AnalysisOptions options, String name, Path workingFolder, long startNanos) {
    this.analyzer = new Analyzer(ReaderKind.JDK.create(), options);
    this.options = options;
    this.name = name;
    this.workingFolder = workingFolder;
    this.interval = newInterval(startNanos);
  }

  private SummaryBuilder newInterval(long startNanos) {
    SummaryBuilder next = new SummaryBuilder();
    next.recordedIn = workingFolder;
    next.chunk(new ChunkHeader(intervals++, 0, 2, 0, 0, 0, 0, startNanos, 0, 0));
    intervalStart = startNanos;
    return next;
  }

  /**
   * Ends the current interval at {@code nowNanos} and analyses everything read so far.
   *
   * @param nowNanos the end of the interval, nanoseconds since the epoch
   */
  public LiveSnapshot snapshot(long nowNanos) {
    return snapshot(nowNanos, null, null);
  }

  /**
   * Ends the current interval at {@code nowNanos}, analyses everything read so far, and names the
   * virtual threads of {@code threadDump} that hold their carriers now.
   *
   * @param threadDump the JVM's threads at the end of the interval, or null when none was taken
   * @param scheduler the scheduler's counts then (JDK 24+), or null
   */
  public LiveSnapshot snapshot(
      long nowNanos, List<ThreadInDump> threadDump, LiveSnapshot.Scheduler scheduler) {
    List<PinnedNow> pinnedNow = threadDump == null ? null : pinnedNow(threadDump);
    RecordingSummary sofar;
    long intervalNanos;
    int held;
    synchronized (this) {
      SummaryBuilder ended = interval;
      ended.endNanos = Math.max(ended.endNanos, nowNanos);
      intervalNanos = Math.max(0, nowNanos - intervalStart);
      RecordingSummary last = RecordingSummary.of(ended);
      total = total.merge(last);
      ConcurrencyTimeline holds =
          total.content().monitorsHoldCarrier(options.jdk())
              ? ConcurrencyTimeline.union(ended.timeline, ended.monitorEnterTimeline)
              : ended.timeline;
      held = holds.compute(0).peak();
      interval = newInterval(nowNanos);
      sofar = total;
    }
    Analysis analysis = analyzer.analyze(name, sofar);
    return activity(analysis, intervalNanos, held, pinnedNow, scheduler);
  }

  /**
   * The virtual threads of a thread dump blocked while pinned, attributed as pinned events are,
   * with the class files of the JVM's class path as far as its events have said it.
   */
  private List<PinnedNow> pinnedNow(List<ThreadInDump> threads) {
    List<ThreadInDump> candidates = PinnedNow.candidates(threads);
    if (candidates.isEmpty()) {
      return List.of();
    }
    ClassBytesSource.RecordedClassPath recorded;
    String javaVersion;
    int feature;
    synchronized (this) {
      SummaryBuilder so = total.content();
      recorded =
          new ClassBytesSource.RecordedClassPath(
              so.classPath != null ? so.classPath : interval.classPath,
              so.workingDirectory != null ? so.workingDirectory : interval.workingDirectory,
              workingFolder);
      JvmFacts jvm = so.jvm != null ? so.jvm : interval.jvm;
      javaVersion = jvm == null ? null : jvm.javaVersion();
      feature = jvm == null ? 0 : jvm.feature();
    }
    try (ClassBytesSource classes =
        ClassBytesSource.of(
            options.classPath(), List.of(recorded), javaVersion, feature, options.jdkHomes())) {
      return PinnedNow.find(
          candidates, new Attributor(classes, new FrameOwnership(options.appPackages())));
    }
  }

  /** The snapshot: what changed since the previous one. */
  private LiveSnapshot activity(
      Analysis analysis,
      long intervalNanos,
      int held,
      List<PinnedNow> pinnedNow,
      LiveSnapshot.Scheduler scheduler) {
    List<LiveSnapshot.SiteActivity> sites = new ArrayList<>();
    Map<String, DurationSummary> now = new HashMap<>();
    for (Site site : analysis.pinned().sites()) {
      sites.add(activity("pinned " + site.key(), site, false, now));
    }
    if (analysis.monitorEnter() != null) {
      for (Site site : analysis.monitorEnter().sites()) {
        sites.add(activity("enter " + site.key(), site, true, now));
      }
    }
    previousSites.clear();
    previousSites.putAll(now);
    sites.sort(
        Comparator.comparingLong(LiveSnapshot.SiteActivity::nanosInInterval)
            .reversed()
            .thenComparing(
                Comparator.comparingLong(
                        (LiveSnapshot.SiteActivity a) -> a.site().durations().totalNanos())
                    .reversed()));
    DurationSummary pinned = analysis.pinned().durations();
    long failures = analysis.submitFailed().events();
    LiveSnapshot snapshot =
        new LiveSnapshot(
            analysis,
            intervalNanos,
            pinned.count() - previousPinned,
            pinned.totalNanos() - previousPinnedNanos,
            held,
            failures - previousSubmitFailures,
            sites,
            pinnedNow,
            scheduler);
    previousPinned = pinned.count();
    previousPinnedNanos = pinned.totalNanos();
    previousSubmitFailures = failures;
    return snapshot;
  }

  private LiveSnapshot.SiteActivity activity(
      String key, Site site, boolean monitorEnter, Map<String, DurationSummary> now) {
    DurationSummary before = previousSites.getOrDefault(key, DurationSummary.EMPTY);
    DurationSummary after = site.durations();
    now.put(key, after);
    return new LiveSnapshot.SiteActivity(
        site,
        monitorEnter,
        Math.max(0, after.count() - before.count()),
        Math.max(0, after.totalNanos() - before.totalNanos()));
  }

  @Override
  public synchronized void pinned(PinnedEvent event) {
    interval.pinned(event);
  }

  @Override
  public synchronized void submitFailed(SubmitFailedEvent event) {
    interval.submitFailed(event);
  }

  @Override
  public synchronized void monitor(MonitorEvent event) {
    interval.monitor(event);
  }

  @Override
  public synchronized void threadStart(ThreadStartEvent event) {
    interval.threadStart(event);
  }

  @Override
  public synchronized void cpuSample(CpuSampleEvent event) {
    interval.cpuSample(event);
  }

  @Override
  public synchronized void fileIo(FileIoEvent event) {
    interval.fileIo(event);
  }

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
