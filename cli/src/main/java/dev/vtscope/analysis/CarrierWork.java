package dev.vtscope.analysis;

import java.util.List;

/**
 * Carrier time virtual threads took without pinning: CPU work and spinning (from execution samples
 * of virtual threads), blocking file I/O, and carriers the scheduler started to compensate for
 * blocking calls.
 *
 * @param samplesEnabled whether {@code jdk.ExecutionSample} was on, or null when unknown
 * @param samplePeriod its recorded period (e.g. "10 ms"), or null
 * @param samples execution and native-method samples of virtual threads
 * @param nativeSamples of those, the native-method samples (file reads, JNI calls)
 * @param sampledThreads distinct virtual threads sampled
 * @param runs runs of samples: stretches in which one virtual thread was sampled at most {@link
 *     #maxGapNanos} apart
 * @param longRuns runs at least {@link #longRunNanos} long
 * @param longRunTotalNanos their total length
 * @param longestRunNanos the longest run's length (first to last sample: a lower bound)
 * @param runSites the long runs by site, with the stack of each run's first sample: CPU work,
 *     spinning, or file I/O when most of the run's samples were in the JDK's file calls
 * @param fileIoEnabled whether {@code jdk.FileRead} was on, or null when unknown
 * @param fileIoThreshold its threshold in nanoseconds, or null
 * @param fileIo durations of file reads and writes of virtual threads
 * @param fileIoThreads distinct virtual threads in them
 * @param fileIoSites file I/O by site
 * @param startStacks whether {@code jdk.ThreadStart} was recorded with stacks
 * @param compensatedStarts platform threads started by the scheduler's compensation for a blocking
 *     call, or -1 when no start had a stack
 * @param compensationSites those starts by the blocking call's site
 */
public record CarrierWork(
    Boolean samplesEnabled,
    String samplePeriod,
    long samples,
    long nativeSamples,
    int sampledThreads,
    long runs,
    long longRuns,
    long longRunTotalNanos,
    long longestRunNanos,
    List<Site> runSites,
    Boolean fileIoEnabled,
    Long fileIoThreshold,
    DurationSummary fileIo,
    int fileIoThreads,
    List<Site> fileIoSites,
    boolean startStacks,
    long compensatedStarts,
    List<Site> compensationSites) {

  public CarrierWork {
    runSites = List.copyOf(runSites);
    fileIoSites = List.copyOf(fileIoSites);
    compensationSites = List.copyOf(compensationSites);
  }

  /** The longest gap between two samples of one run. */
  public static long maxGapNanos() {
    return CarrierWorkCollector.MAX_GAP_NANOS;
  }

  /** Whether a frame is one of the JDK's blocking file calls. */
  public static boolean isFileApi(dev.vtscope.recording.Frame frame) {
    return CarrierWorkCollector.isFileApi(frame);
  }

  /** The shortest run kept as a site. */
  public static long longRunNanos() {
    return CarrierWorkCollector.LONG_RUN_NANOS;
  }

  /**
   * What a compensated carrier's thread blocked in, worded: the kind of wait, the JDK call, the
   * operation it was made in, and whether the recording's own instrumentation made it.
   */
  public static Message blockedIn(dev.vtscope.attribution.BlockingCall call) {
    return Message.of(
        call.kind() == dev.vtscope.attribution.BlockingKind.WAIT ? "blocked-in.wait" : "blocked-in",
        "kind",
        Message.of(
            call.kind() == null ? "blocking-call.unknown" : "blocking-call." + call.kind().name()),
        "method",
        call.method(),
        "during",
        call.during() == null ? "" : Message.of("blocked-in.during", "during", call.during()),
        "recorder",
        call.byRecorder() ? Message.of("blocked-in.recorder") : "");
  }
}
