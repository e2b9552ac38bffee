package dev.vtscope.analysis;

import dev.vtscope.recording.ChunkHeader;
import dev.vtscope.recording.ChunkedListener;
import dev.vtscope.recording.CpuFacts;
import dev.vtscope.recording.EventSetting;
import dev.vtscope.recording.JvmFacts;
import dev.vtscope.recording.MonitorEvent;
import dev.vtscope.recording.PinnedEvent;
import dev.vtscope.recording.RecordingListener;
import dev.vtscope.recording.SubmitFailedEvent;
import dev.vtscope.recording.ThreadStartEvent;
import java.util.HashMap;
import java.util.Map;

/**
 * Collects what one recording (one JVM) says; {@link Analyzer} merges several. A reader that
 * decodes chunks in parallel fills one collector per chunk on the decoding threads and merges them
 * into this one in recording order ({@link ChunkedListener}), which gives the same result as one
 * collector taking every event in order.
 */
final class InputCollector implements ChunkedListener {

  final SiteCollector pinnedSites;
  final SiteCollector monitorEnterSites;
  final SiteCollector monitorWaitSites;
  final SubmitFailureCollector submitFailures = new SubmitFailureCollector();
  final ConcurrencyTimeline timeline = new ConcurrencyTimeline();

  /** Monitor enters of virtual threads: on JDK 21–23 each holds a carrier, as a pin does. */
  final ConcurrencyTimeline monitorEnterTimeline = new ConcurrencyTimeline();

  final DurationStatistics pinnedDurations = new DurationStatistics();
  final DurationStatistics monitorEnterDurations = new DurationStatistics();
  final DurationStatistics monitorWaitDurations = new DurationStatistics();
  final LongSet pinnedThreads = new LongSet();
  final LongSet monitorEnterThreads = new LongSet();
  final LongSet monitorWaitThreads = new LongSet();
  final Map<String, String> schedulerProperties = new HashMap<>();
  final Map<String, String> settings = new HashMap<>();
  long truncatedPinnedStacks;
  int truncatedDepth;
  int carriersStarted;
  boolean systemPropertiesRecorded;
  String classPath;
  String workingDirectory;
  JvmFacts jvm;
  int hardwareThreads;
  int containerCpus;
  Integer stackDepth;
  int chunks;
  long startNanos = Long.MAX_VALUE;
  long endNanos = Long.MIN_VALUE;

  InputCollector() {
    pinnedSites = new SiteCollector();
    monitorEnterSites = new SiteCollector();
    monitorWaitSites = new SiteCollector();
  }

  @Override
  public void chunk(ChunkHeader header) {
    chunks++;
    startNanos = Math.min(startNanos, header.startNanos());
    endNanos = Math.max(endNanos, header.startNanos() + header.durationNanos());
  }

  @Override
  public void pinned(PinnedEvent e) {
    pinnedDurations.add(e.durationNanos());
    pinnedThreads.add(e.virtualThreadId());
    if (e.stack().truncated()) {
      truncatedPinnedStacks++;
      // A truncated stack holds exactly as many frames as the recording's stack depth.
      truncatedDepth = Math.max(truncatedDepth, e.stack().frames().size());
    }
    timeline.add(e.startNanos(), e.endNanos());
    pinnedSites.add(
        e.startNanos(),
        e.durationNanos(),
        e.virtualThreadId(),
        e.stack(),
        e.pinnedReason(),
        e.blockingOperation(),
        null);
  }

  @Override
  public void submitFailed(SubmitFailedEvent e) {
    submitFailures.add(e);
  }

  @Override
  public void monitor(MonitorEvent e) {
    boolean enter = e.kind() == MonitorEvent.Kind.ENTER;
    (enter ? monitorEnterDurations : monitorWaitDurations).add(e.durationNanos());
    if (enter) {
      monitorEnterTimeline.add(e.startNanos(), e.startNanos() + e.durationNanos());
    }
    (enter ? monitorEnterThreads : monitorWaitThreads).add(e.virtualThreadId());
    (enter ? monitorEnterSites : monitorWaitSites)
        .add(
            e.startNanos(),
            e.durationNanos(),
            e.virtualThreadId(),
            e.stack(),
            null,
            null,
            e.monitorClass());
  }

  @Override
  public void threadStart(ThreadStartEvent e) {
    // The default scheduler's carriers are ForkJoinPool workers in the CarrierThreads group.
    if ("CarrierThreads".equals(e.threadGroup())) {
      carriersStarted++;
    }
  }

  @Override
  public void jvm(JvmFacts facts) {
    if (jvm == null) {
      jvm = facts;
    }
  }

  @Override
  public void cpu(CpuFacts facts) {
    hardwareThreads = Math.max(hardwareThreads, facts.hardwareThreads());
    containerCpus = Math.max(containerCpus, facts.containerCpus());
  }

  @Override
  public void systemProperty(String key, String value) {
    systemPropertiesRecorded = true;
    if (key != null && key.startsWith(SchedulerSettings.PREFIX)) {
      schedulerProperties.put(key, value);
    } else if ("java.class.path".equals(key)) {
      classPath = value;
    } else if ("user.dir".equals(key)) {
      workingDirectory = value;
    }
  }

  @Override
  public void setting(EventSetting setting) {
    // Every recording running in a chunk writes its own settings there, and the JVM applies
    // their union: an event is on when any recording enables it, at the lowest threshold. Over
    // the chunks, the same union says what the recording as a whole may hold: events were on
    // somewhere, and no pin shorter than the lowest threshold was recorded anywhere.
    combine(setting.eventType() + "#" + setting.name(), setting.name(), setting.value());
  }

  private void combine(String key, String name, String value) {
    String other = settings.get(key);
    if (other != null && value != null) {
      if ("enabled".equals(name)) {
        value = Boolean.parseBoolean(other.trim()) ? other : value;
      } else if ("threshold".equals(name)) {
        Long mine = Timespans.parseNanos(value);
        Long theirs = Timespans.parseNanos(other);
        value = theirs != null && (mine == null || theirs < mine) ? other : value;
      }
    }
    settings.put(key, value);
  }

  @Override
  public RecordingListener newChunk() {
    return new InputCollector();
  }

  @Override
  public void merge(RecordingListener chunk, ChunkHeader header) {
    InputCollector o = (InputCollector) chunk;
    pinnedSites.addAll(o.pinnedSites);
    monitorEnterSites.addAll(o.monitorEnterSites);
    monitorWaitSites.addAll(o.monitorWaitSites);
    submitFailures.addAll(o.submitFailures);
    timeline.addAll(o.timeline);
    monitorEnterTimeline.addAll(o.monitorEnterTimeline);
    pinnedDurations.addAll(o.pinnedDurations);
    monitorEnterDurations.addAll(o.monitorEnterDurations);
    monitorWaitDurations.addAll(o.monitorWaitDurations);
    pinnedThreads.addAll(o.pinnedThreads, 0);
    monitorEnterThreads.addAll(o.monitorEnterThreads, 0);
    monitorWaitThreads.addAll(o.monitorWaitThreads, 0);
    // What a later chunk says replaces what an earlier one said, as it would in one pass.
    schedulerProperties.putAll(o.schedulerProperties);
    o.settings.forEach((key, value) -> combine(key, key.substring(key.indexOf('#') + 1), value));
    truncatedPinnedStacks += o.truncatedPinnedStacks;
    truncatedDepth = Math.max(truncatedDepth, o.truncatedDepth);
    carriersStarted += o.carriersStarted;
    systemPropertiesRecorded |= o.systemPropertiesRecorded;
    classPath = o.classPath != null ? o.classPath : classPath;
    workingDirectory = o.workingDirectory != null ? o.workingDirectory : workingDirectory;
    jvm = jvm != null ? jvm : o.jvm;
    hardwareThreads = Math.max(hardwareThreads, o.hardwareThreads);
    containerCpus = Math.max(containerCpus, o.containerCpus);
    stackDepth = o.stackDepth != null ? o.stackDepth : stackDepth;
    chunks += o.chunks;
    startNanos = Math.min(startNanos, o.startNanos);
    endNanos = Math.max(endNanos, o.endNanos);
  }

  @Override
  public void stackDepth(int depth) {
    stackDepth = depth;
  }

  /** The CPU count the JVM saw: the container's limit when there is one. */
  int cpus() {
    return containerCpus > 0 ? containerCpus : hardwareThreads;
  }

  int feature() {
    return jvm == null ? 0 : jvm.feature();
  }

  /** Monitor events hold the carrier only before JDK 24; unknown JDKs are kept. */
  boolean monitorsHoldCarrier() {
    int feature = feature();
    return feature == 0 || feature < 24;
  }

  Boolean enabled(String eventType) {
    String value = settings.get(eventType + "#enabled");
    return value == null ? null : Boolean.valueOf(value.trim());
  }

  Long threshold(String eventType) {
    return Timespans.parseNanos(settings.get(eventType + "#threshold"));
  }
}
