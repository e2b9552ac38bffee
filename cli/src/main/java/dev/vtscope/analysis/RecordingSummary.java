package dev.vtscope.analysis;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.recording.JvmFacts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What one chunk, one file or one JVM's recording says, reduced to what an analysis needs: pins,
 * monitor waits and carrier work by stack, their duration statistics and distinct threads, the
 * pins' intervals for the exact carriers-at-once sweep, submit failures, and the JVM's facts and
 * recording settings. Nothing is kept per event except those intervals (a few bytes a pin).
 *
 * <p>A summary never changes once made. Summaries of the same JVM merge into a new one, in any
 * order and any grouping, to the summary one pass over all their events makes: a reader reduces
 * each chunk on its own thread and merges the results, live watching merges one summary an interval
 * into the total. Summaries of different JVMs are not merged: {@link Analyzer} keeps one per
 * recording, so that carriers held at once are counted within each JVM.
 */
public final class RecordingSummary {

  private static final String PINNED = "jdk.VirtualThreadPinned";

  private final SummaryBuilder content;

  private RecordingSummary(SummaryBuilder content) {
    this.content = content;
  }

  /** The summary of what {@code builder} took; the builder takes nothing more. */
  static RecordingSummary of(SummaryBuilder builder) {
    builder.seal();
    return new RecordingSummary(builder);
  }

  /** The summary of what {@code builder} took so far; the builder goes on as it was. */
  static RecordingSummary copyOf(SummaryBuilder builder) {
    SummaryBuilder copy = new SummaryBuilder(ReadProgress.NONE, builder.recordedIn);
    copy.merge(builder);
    return of(copy);
  }

  /** A summary of both this and {@code other}, recordings of the same JVM. */
  public RecordingSummary merge(RecordingSummary other) {
    return mergeAll(List.of(this, other));
  }

  /**
   * The summary of all of {@code summaries}, recordings of the same JVM; the same whatever their
   * order.
   *
   * @throws IllegalArgumentException when there are none
   */
  public static RecordingSummary mergeAll(List<RecordingSummary> summaries) {
    if (summaries.isEmpty()) {
      throw new IllegalArgumentException("no summary to merge");
    }
    SummaryBuilder merged = new SummaryBuilder();
    for (RecordingSummary s : summaries) {
      merged.merge(s.content);
    }
    return of(merged);
  }

  /** Chunks summarised. */
  public int chunks() {
    return content.chunks;
  }

  /** Bytes of the chunks summarised. */
  public long bytes() {
    return content.bytes;
  }

  /** Pinned events summarised. */
  public long pinnedEvents() {
    return content.pinnedDurations.count();
  }

  /** When the first chunk summarised started, nanoseconds since the epoch; 0 without chunks. */
  long startNanos() {
    return content.startNanos == Long.MAX_VALUE ? 0 : content.startNanos;
  }

  /** When the last chunk summarised ended, never before {@link #startNanos}. */
  long endNanos() {
    return content.endNanos == Long.MIN_VALUE
        ? startNanos()
        : Math.max(startNanos(), content.endNanos);
  }

  /** The recorded JVM's facts, or null when the recording stated none. */
  JvmFacts jvm() {
    return content.jvm;
  }

  /** The JDK feature release recorded, or 0 when unknown. */
  int feature() {
    return content.feature();
  }

  /** The CPU count the JVM saw: the container's limit when there is one. */
  int cpus() {
    return content.cpus();
  }

  /** Whether monitor events held the carrier in the recorded JDK; unknown JDKs are kept. */
  boolean monitorsHoldCarrier(JdkReleases jdk) {
    return content.monitorsHoldCarrier(jdk);
  }

  /** The recorded class path, or null. */
  String classPath() {
    return content.classPath;
  }

  /** The recorded working folder, or null. */
  String workingDirectory() {
    return content.workingDirectory;
  }

  /** The folder the recording was read from, or null. */
  Path recordedIn() {
    return content.recordedIn;
  }

  /** The scheduler's settings, as far as the recording says them. */
  SchedulerSettings scheduler() {
    // carriers started are known only where thread starts were recorded
    int started =
        Boolean.TRUE.equals(content.enabled("jdk.ThreadStart")) ? content.carriersStarted : -1;
    return SchedulerSettings.derive(
        content.schedulerProperties, content.systemPropertiesRecorded, content.cpus(), started);
  }

  /** The recording settings of the events an analysis reads. */
  RecordingSettings settings() {
    return new RecordingSettings(
        content.enabled(PINNED),
        content.threshold(PINNED),
        content.enabled("jdk.VirtualThreadSubmitFailed"),
        content.enabled("jdk.JavaMonitorEnter"),
        content.threshold("jdk.JavaMonitorEnter"),
        content.enabled("jdk.JavaMonitorWait"),
        content.threshold("jdk.JavaMonitorWait"),
        stackDepth());
  }

  /**
   * The stack depth the recording had: as its JVM was started with, unless its stacks say more. JFR
   * takes a new depth before it starts (the JFR.configure command, as the JUnit extension uses),
   * and the flag keeps the old one: a truncated stack then shows the depth, a deeper one that it is
   * unknown.
   */
  private Integer stackDepth() {
    Integer stated = content.stackDepth;
    if (content.truncatedDepth > 0 && (stated == null || content.truncatedDepth > stated)) {
      return content.truncatedDepth;
    }
    if (stated != null && content.deepestPinnedStack > stated) {
      return null;
    }
    return stated;
  }

  /** The scheduler's parallelism, or 0 when unknown: what carriers held at once are counted of. */
  private int parallelism() {
    return Math.max(0, scheduler().parallelism().value());
  }

  /**
   * Carriers held at once.
   *
   * @param pinned by pins alone
   * @param held by everything that held one: pins, and monitor enters where they hold carriers
   * @param timeline both, slice by slice, with the times tasks could not be submitted
   */
  record CarriersHeld(Concurrency pinned, Concurrency held, CarrierTimeline timeline) {}

  /** Carriers held at once, monitor enters counted when {@code monitorEntersHold}. */
  CarriersHeld carriersHeld(boolean monitorEntersHold) {
    int parallelism = parallelism();
    long from = startNanos();
    long to = endNanos();
    int buckets = CarrierTimeline.BUCKETS;
    ConcurrencyTimeline.Swept pinned = content.timeline.sweep(parallelism, from, to, buckets);
    ConcurrencyTimeline.Swept held =
        monitorEntersHold
            ? ConcurrencyTimeline.union(content.timeline, content.monitorEnterTimeline)
                .sweep(parallelism, from, to, buckets)
            : pinned;
    List<Long> marks = new ArrayList<>(content.submitFailures.times);
    marks.sort(null);
    CarrierTimeline timeline =
        new CarrierTimeline(
            from,
            Math.max(1, (to - from) / buckets),
            pinned.maxPerBucket(),
            held.maxPerBucket(),
            parallelism,
            marks);
    return new CarriersHeld(pinned.concurrency(), held.concurrency(), timeline);
  }

  /** The pins' sites, grouped by {@code grouping}. */
  List<Site> pinnedSites(SiteCollector.Grouping grouping) {
    return content.pinnedSites.sites(grouping);
  }

  /** The pins, at {@code sites} (of {@link #pinnedSites}), with {@code atOnce} carriers held. */
  PinnedSummary pinned(List<Site> sites, Concurrency atOnce) {
    return new PinnedSummary(
        content.pinnedDurations.summary(),
        content.pinnedThreads.size(),
        content.truncatedPinnedStacks,
        atOnce,
        sites);
  }

  /** The pins' stacks as a tree, grouped by {@code grouping}. */
  StackTree pinnedTree(SiteCollector.Grouping grouping) {
    return content.pinnedSites.tree(grouping);
  }

  /** The monitor enters of virtual threads, their sites grouped by {@code grouping}. */
  MonitorSummary monitorEnters(SiteCollector.Grouping grouping) {
    return new MonitorSummary(
        content.monitorEnterDurations.summary(),
        content.monitorEnterThreads.size(),
        content.monitorEnterSites.sites(grouping));
  }

  /** The monitor waits of virtual threads, their sites grouped by {@code grouping}. */
  MonitorSummary monitorWaits(SiteCollector.Grouping grouping) {
    return new MonitorSummary(
        content.monitorWaitDurations.summary(),
        content.monitorWaitThreads.size(),
        content.monitorWaitSites.sites(grouping));
  }

  /** The tasks the scheduler could not take. */
  SubmitFailedSummary submitFailures() {
    SubmitFailureCollector failures = new SubmitFailureCollector();
    failures.addAll(content.submitFailures, 0);
    return new SubmitFailedSummary(failures.events(), failures.groups());
  }

  /** Carrier work: CPU runs, file I/O and compensation, their sites grouped by {@code grouping}. */
  CarrierWork carrierWork(SiteCollector.Grouping grouping) {
    CarrierWorkCollector w = content.carrierWork.finished();
    boolean startStacks = w.startsWithStacks > 0;
    return new CarrierWork(
        content.enabled("jdk.ExecutionSample"),
        content.period("jdk.ExecutionSample"),
        w.samples,
        w.nativeSamples,
        w.sampledThreads.size(),
        w.runs,
        w.longRuns,
        w.longRunNanos,
        w.longestRunNanos,
        w.runSites.sites(grouping),
        content.enabled("jdk.FileRead"),
        content.threshold("jdk.FileRead"),
        w.fileIoDurations.summary(),
        w.fileIoThreads.size(),
        w.fileIoSites.sites(grouping),
        startStacks,
        startStacks ? w.compensatedStarts : -1,
        w.compensationSites.sites(grouping));
  }

  /**
   * What the carriers held when the recording ended, from its last two thread dumps, or null when
   * it has none.
   */
  CarriersAtEnd carriersAtEnd(Attributor attributor) {
    return content.lastDump == null
        ? null
        : CarriersAtEnd.of(
            content.lastDump, content.dumpBefore, content.recentSamples, attributor, 0);
  }

  /** What the summary holds, for tests to look into; never to be changed. */
  SummaryBuilder content() {
    return content;
  }
}
