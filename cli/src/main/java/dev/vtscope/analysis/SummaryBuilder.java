package dev.vtscope.analysis;

import dev.vtscope.recording.ChunkHeader;
import dev.vtscope.recording.ChunkedListener;
import dev.vtscope.recording.CpuFacts;
import dev.vtscope.recording.CpuSampleEvent;
import dev.vtscope.recording.EventSetting;
import dev.vtscope.recording.FileIoEvent;
import dev.vtscope.recording.JvmFacts;
import dev.vtscope.recording.MonitorEvent;
import dev.vtscope.recording.PinnedEvent;
import dev.vtscope.recording.RecordingListener;
import dev.vtscope.recording.SubmitFailedEvent;
import dev.vtscope.recording.ThreadDumpEvent;
import dev.vtscope.recording.ThreadStartEvent;
import java.util.HashMap;
import java.util.Map;

/**
 * Builds a {@link RecordingSummary}: takes the events and facts of one chunk, one file or one
 * recording (one JVM) as a reader gives them, and merges other builders' content. A reader that
 * decodes chunks in parallel fills one builder per chunk on the decoding threads and merges them
 * into this one ({@link ChunkedListener}), in any order, which gives the same result as one builder
 * taking every event in order. Merging copies: the builder merged in is left as it was. Once made
 * into a summary, a builder takes nothing more.
 */
final class SummaryBuilder implements ChunkedListener {

  final SiteCollector pinnedSites;
  final SiteCollector monitorEnterSites;
  final SiteCollector monitorWaitSites;
  final SubmitFailureCollector submitFailures = new SubmitFailureCollector();
  final ConcurrencyTimeline timeline = new ConcurrencyTimeline();
  final CarrierWorkCollector carrierWork = new CarrierWorkCollector();

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

  /** The most frames of a pinned stack: more than a stated stack depth says it was raised later. */
  int deepestPinnedStack;

  int carriersStarted;
  boolean systemPropertiesRecorded;
  String classPath;
  String workingDirectory;

  /**
   * The folder the recording was read from: JFR leaves {@code user.dir} out of the recorded system
   * properties, and a recording written with a relative file name sits in the program's working
   * folder, against which the recorded class path's relative entries are resolved.
   */
  java.nio.file.Path recordedIn;

  JvmFacts jvm;

  /**
   * The JVM each chunk read says wrote it ({@code jdk.JVMInformation}, which JFR writes at every
   * chunk's start): a file can hold the recordings of several JVMs back to back ({@code cat a.jfr
   * b.jfr}), which are then analysed apart. Chunks that name no JVM are not in it.
   */
  private final Map<ChunkHeader.Identity, JvmFacts> chunkJvms = new HashMap<>();

  private ChunkHeader.Identity currentIdentity;

  /**
   * The recording's last two thread dumps ({@code jdk.ThreadDump}), the latest first, or null: what
   * the carriers held when the recording ended, and whether they held it since the dump before. Two
   * texts of some kilobytes each, whatever the recording's size.
   */
  ThreadDumpEvent lastDump;

  ThreadDumpEvent dumpBefore;

  /** The virtual threads sampled last, to tell a running one from a held one between dumps. */
  final RecentSamples recentSamples = new RecentSamples();

  int hardwareThreads;
  int containerCpus;
  Integer stackDepth;
  int chunks;

  /** The bytes of the chunks read, for the progress line. */
  long bytes;

  private final ReadProgress progress;

  // When facts that a recording may state more than once were stated (the start of their chunk),
  // so that merging chunks in any order keeps the same ones: the JVM of the earliest chunk, the
  // class path, working folder, stack depth and scheduler properties of the latest.
  private long currentChunk = Long.MIN_VALUE;
  private long jvmAt = Long.MAX_VALUE;
  private long classPathAt = Long.MIN_VALUE;
  private long workingDirectoryAt = Long.MIN_VALUE;
  private long stackDepthAt = Long.MIN_VALUE;
  private final Map<String, Long> schedulerPropertiesAt = new HashMap<>();
  long startNanos = Long.MAX_VALUE;
  long endNanos = Long.MIN_VALUE;

  SummaryBuilder() {
    this(ReadProgress.NONE);
  }

  /** A collector that tells {@code progress} of each chunk it takes. */
  SummaryBuilder(ReadProgress progress) {
    this(progress, null);
  }

  /**
   * A collector that tells {@code progress} of each chunk it takes, of a recording read from the
   * folder {@code recordedIn} (or null).
   */
  SummaryBuilder(ReadProgress progress, java.nio.file.Path recordedIn) {
    this.progress = progress;
    this.recordedIn = recordedIn;
    pinnedSites = new SiteCollector();
    monitorEnterSites = new SiteCollector();
    monitorWaitSites = new SiteCollector();
  }

  /** Set when the builder became a summary: it takes nothing more. */
  private boolean sealed;

  /**
   * Ends building: what is pending at the edges of the chunks taken is put in its final form, and
   * the builder takes nothing more. Called once, by {@link RecordingSummary#of}.
   */
  void seal() {
    carrierWork.seal();
    recentSamples.seal();
    // the intervals still buffered become a run now: a summary's queries change nothing in it
    timeline.sort();
    monitorEnterTimeline.sort();
    sealed = true;
  }

  /** Extends what the builder took to {@code nanos}: a stretch of a live JVM ends then. */
  void endAt(long nanos) {
    open();
    endNanos = Math.max(endNanos, nanos);
  }

  private void open() {
    if (sealed) {
      throw new IllegalStateException("this builder is already a summary");
    }
  }

  @Override
  public void chunk(ChunkHeader header) {
    open();
    currentChunk = header.startNanos();
    currentIdentity = header.identity();
    carrierWork.chunk(header.startNanos());
    chunks++;
    bytes += header.size();
    progress.chunkRead(header.size());
    startNanos = Math.min(startNanos, header.startNanos());
    endNanos = Math.max(endNanos, header.startNanos() + header.durationNanos());
  }

  @Override
  public void pinned(PinnedEvent e) {
    open();
    pinnedDurations.add(e.durationNanos());
    pinnedThreads.add(e.virtualThreadId());
    deepestPinnedStack = Math.max(deepestPinnedStack, e.stack().frames().size());
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
    open();
    submitFailures.add(e);
  }

  @Override
  public void monitor(MonitorEvent e) {
    open();
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
    open();
    // The default scheduler's carriers are ForkJoinPool workers ("ForkJoinPool-1-worker-3") in the
    // CarrierThreads group. Not every thread of that group carries virtual threads: from JDK 25 the
    // pool's timer thread ("ForkJoinPool-1-delayScheduler") is there too.
    if ("CarrierThreads".equals(e.threadGroup()) && isWorker(e.threadName())) {
      carriersStarted++;
    }
    carrierWork.threadStart(e);
  }

  @Override
  public void cpuSample(CpuSampleEvent e) {
    open();
    carrierWork.sample(e);
    if (e.virtualThreadId() >= 0) {
      recentSamples.sample(e.virtualThreadId(), e.startNanos());
    }
  }

  @Override
  public void fileIo(FileIoEvent e) {
    open();
    carrierWork.fileIo(e);
  }

  /** Whether a thread name is a ForkJoinPool worker's: {@code …-worker-N}. */
  static boolean isWorker(String name) {
    if (name == null) {
      return false;
    }
    int dash = name.lastIndexOf('-');
    if (dash < 0 || dash == name.length() - 1 || !name.startsWith("-worker", dash - 7)) {
      return false;
    }
    for (int i = dash + 1; i < name.length(); i++) {
      if (!Character.isDigit(name.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void jvm(JvmFacts facts) {
    open();
    if (currentIdentity != null) {
      chunkJvms.putIfAbsent(currentIdentity, facts);
    }
    if (jvm == null || currentChunk < jvmAt) {
      jvm = facts;
      jvmAt = currentChunk;
    }
  }

  @Override
  public void cpu(CpuFacts facts) {
    open();
    hardwareThreads = Math.max(hardwareThreads, facts.hardwareThreads());
    containerCpus = Math.max(containerCpus, facts.containerCpus());
  }

  @Override
  public void systemProperty(String key, String value) {
    open();
    systemPropertiesRecorded = true;
    if (key != null && key.startsWith(SchedulerSettings.PREFIX)) {
      Long at = schedulerPropertiesAt.get(key);
      if (at == null || newer(currentChunk, value, at, schedulerProperties.get(key))) {
        schedulerProperties.put(key, value);
        schedulerPropertiesAt.put(key, currentChunk);
      }
    } else if ("java.class.path".equals(key)) {
      if (newer(currentChunk, value, classPathAt, classPath)) {
        classPath = value;
        classPathAt = currentChunk;
      }
    } else if ("user.dir".equals(key)) {
      if (newer(currentChunk, value, workingDirectoryAt, workingDirectory)) {
        workingDirectory = value;
        workingDirectoryAt = currentChunk;
      }
    }
  }

  @Override
  public void setting(EventSetting setting) {
    open();
    // Every recording running in a chunk writes its own settings there, and the JVM applies
    // their union: an event is on when any recording enables it, at the lowest threshold. Over
    // the chunks, the same union says what the recording as a whole may hold: events were on
    // somewhere, and no pin shorter than the lowest threshold was recorded anywhere.
    if ("enabled".equals(setting.name())
        || "threshold".equals(setting.name())
        || "period".equals(setting.name())) {
      combine(setting.eventType() + "#" + setting.name(), setting.name(), setting.value());
    }
  }

  private void combine(String key, String name, String value) {
    String other = settings.get(key);
    if (other != null && value != null) {
      if ("enabled".equals(name)) {
        value = Boolean.parseBoolean(other.trim()) ? other : value;
      } else if ("threshold".equals(name) || "period".equals(name)) {
        Long mine = Timespans.parseNanos(value);
        Long theirs = Timespans.parseNanos(other);
        value = theirs != null && (mine == null || theirs < mine) ? other : value;
      }
    }
    settings.put(key, value);
  }

  @Override
  public void threadDump(ThreadDumpEvent dump) {
    open();
    keepDump(dump);
  }

  /**
   * Keeps {@code dump} if it is one of the two latest: the same two whatever the order dumps arrive
   * or builders merge in; a repeated dump (a duplicated chunk) counts once.
   */
  private void keepDump(ThreadDumpEvent dump) {
    if (dump == null || dump.equals(lastDump) || dump.equals(dumpBefore)) {
      return;
    }
    if (later(dump, lastDump)) {
      dumpBefore = lastDump;
      lastDump = dump;
    } else if (later(dump, dumpBefore)) {
      dumpBefore = dump;
    }
  }

  private static boolean later(ThreadDumpEvent dump, ThreadDumpEvent than) {
    if (than == null || dump.startNanos() != than.startNanos()) {
      return than == null || dump.startNanos() > than.startNanos();
    }
    return dump.text().compareTo(than.text()) > 0;
  }

  @Override
  public RecordingListener newChunk() {
    return new SummaryBuilder();
  }

  /** Sorts the chunk's intervals on the thread that read it: the merge then only takes them. */
  @Override
  public void chunkTaken(RecordingListener chunk) {
    SummaryBuilder o = (SummaryBuilder) chunk;
    o.timeline.sort();
    o.monitorEnterTimeline.sort();
  }

  @Override
  public void merge(RecordingListener chunk) {
    open();
    SummaryBuilder o = (SummaryBuilder) chunk;
    if (recordedIn == null) {
      recordedIn = o.recordedIn;
    }
    bytes += o.bytes;
    progress.chunkRead(o.bytes);
    pinnedSites.addAll(o.pinnedSites);
    monitorEnterSites.addAll(o.monitorEnterSites);
    monitorWaitSites.addAll(o.monitorWaitSites);
    submitFailures.addAll(o.submitFailures);
    carrierWork.merge(o.carrierWork);
    timeline.addAll(o.timeline);
    monitorEnterTimeline.addAll(o.monitorEnterTimeline);
    pinnedDurations.addAll(o.pinnedDurations);
    monitorEnterDurations.addAll(o.monitorEnterDurations);
    monitorWaitDurations.addAll(o.monitorWaitDurations);
    pinnedThreads.addAll(o.pinnedThreads, 0);
    monitorEnterThreads.addAll(o.monitorEnterThreads, 0);
    monitorWaitThreads.addAll(o.monitorWaitThreads, 0);
    // Facts stated more than once: the same choice whatever the order of merging (see newer).
    o.schedulerProperties.forEach(
        (key, value) -> {
          long at = o.schedulerPropertiesAt.get(key);
          Long knownAt = schedulerPropertiesAt.get(key);
          if (knownAt == null || newer(at, value, knownAt, schedulerProperties.get(key))) {
            schedulerProperties.put(key, value);
            schedulerPropertiesAt.put(key, at);
          }
        });
    o.settings.forEach((key, value) -> combine(key, key.substring(key.indexOf('#') + 1), value));
    truncatedPinnedStacks += o.truncatedPinnedStacks;
    truncatedDepth = Math.max(truncatedDepth, o.truncatedDepth);
    deepestPinnedStack = Math.max(deepestPinnedStack, o.deepestPinnedStack);
    carriersStarted += o.carriersStarted;
    systemPropertiesRecorded |= o.systemPropertiesRecorded;
    if (o.classPath != null && newer(o.classPathAt, o.classPath, classPathAt, classPath)) {
      classPath = o.classPath;
      classPathAt = o.classPathAt;
    }
    if (o.workingDirectory != null
        && newer(o.workingDirectoryAt, o.workingDirectory, workingDirectoryAt, workingDirectory)) {
      workingDirectory = o.workingDirectory;
      workingDirectoryAt = o.workingDirectoryAt;
    }
    if (o.jvm != null && (jvm == null || o.jvmAt < jvmAt)) {
      jvm = o.jvm;
      jvmAt = o.jvmAt;
    }
    o.chunkJvms.forEach(chunkJvms::putIfAbsent);
    keepDump(o.lastDump);
    keepDump(o.dumpBefore);
    recentSamples.addAll(o.recentSamples);
    hardwareThreads = Math.max(hardwareThreads, o.hardwareThreads);
    containerCpus = Math.max(containerCpus, o.containerCpus);
    if (o.stackDepth != null
        && newer(
            o.stackDepthAt,
            String.valueOf(o.stackDepth),
            stackDepthAt,
            stackDepth == null ? null : String.valueOf(stackDepth))) {
      stackDepth = o.stackDepth;
      stackDepthAt = o.stackDepthAt;
    }
    chunks += o.chunks;
    startNanos = Math.min(startNanos, o.startNanos);
    endNanos = Math.max(endNanos, o.endNanos);
  }

  /**
   * Takes the facts {@code o} knows (the JVM, its CPUs, class path and working folder, scheduler
   * properties, recording settings and stack depth, each with the chunk that stated it) and none of
   * its events: how the next stretch of the same JVM's events starts, so that each stretch is
   * analysed alone as well as merged with the others. This builder has taken no fact yet.
   */
  void takeFacts(SummaryBuilder o) {
    open();
    recordedIn = o.recordedIn;
    schedulerProperties.putAll(o.schedulerProperties);
    schedulerPropertiesAt.putAll(o.schedulerPropertiesAt);
    settings.putAll(o.settings);
    systemPropertiesRecorded = o.systemPropertiesRecorded;
    classPath = o.classPath;
    classPathAt = o.classPathAt;
    workingDirectory = o.workingDirectory;
    workingDirectoryAt = o.workingDirectoryAt;
    jvm = o.jvm;
    jvmAt = o.jvmAt;
    hardwareThreads = o.hardwareThreads;
    containerCpus = o.containerCpus;
    stackDepth = o.stackDepth;
    stackDepthAt = o.stackDepthAt;
  }

  @Override
  public void stackDepth(int depth) {
    open();
    String known = stackDepth == null ? null : String.valueOf(stackDepth);
    if (newer(currentChunk, String.valueOf(depth), stackDepthAt, known)) {
      stackDepth = depth;
      stackDepthAt = currentChunk;
    }
  }

  /**
   * Whether a value stated at {@code at} replaces one stated at {@code knownAt}: a later chunk's
   * does; within one chunk time (duplicated chunks), the greater value, so that the outcome does
   * not depend on the order chunks are merged in.
   */
  private static boolean newer(long at, String value, long knownAt, String known) {
    if (at != knownAt) {
      return at > knownAt;
    }
    return known == null || (value != null && value.compareTo(known) >= 0);
  }

  /**
   * The class path and working folder stated so far, with the folder read from: where a live JVM's
   * class files are looked for before its stretch ends.
   */
  dev.vtscope.attribution.ClassBytesSource.RecordedClassPath recordedClassPath() {
    return new dev.vtscope.attribution.ClassBytesSource.RecordedClassPath(
        classPath, workingDirectory, recordedIn);
  }

  /** The JVM's facts stated so far, or null. */
  JvmFacts jvmFacts() {
    return jvm;
  }

  /** The JVM each chunk read names, for the chunks that name one. */
  Map<ChunkHeader.Identity, JvmFacts> chunkJvms() {
    return java.util.Collections.unmodifiableMap(chunkJvms);
  }

  /** The CPU count the JVM saw: the container's limit when there is one. */
  int cpus() {
    return containerCpus > 0 ? containerCpus : hardwareThreads;
  }

  int feature() {
    return jvm == null ? 0 : jvm.feature();
  }

  /** Whether monitor events hold the carrier in this recording's JDK; unknown JDKs are kept. */
  boolean monitorsHoldCarrier(JdkReleases jdk) {
    return jdk.monitorsHoldCarrier(feature());
  }

  Boolean enabled(String eventType) {
    String value = settings.get(eventType + "#enabled");
    return value == null ? null : Boolean.valueOf(value.trim());
  }

  String period(String eventType) {
    return settings.get(eventType + "#period");
  }

  Long threshold(String eventType) {
    return Timespans.parseNanos(settings.get(eventType + "#threshold"));
  }
}
