package dev.vtscope.analysis;

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

/**
 * Analyses a running JVM's events one interval at a time, keeping nothing of an interval once it is
 * analysed: memory is what one interval's collector holds (its sites, and 16 bytes per pin for the
 * carriers held at once), whatever the JVM's uptime. The JVM's facts (release, CPUs, scheduler
 * properties, JFR settings), which JFR writes once per chunk, are kept and given to every
 * interval's analysis. Events arrive on the stream's thread; intervals end on another.
 */
public final class IntervalAnalysis implements RecordingListener {

  private final Analyzer analyzer;
  private final String name;
  private final SummaryBuilder facts = new SummaryBuilder();
  private SummaryBuilder interval;
  private boolean anyEvent;

  /**
   * @param options how to analyse
   * @param name what to call the input in each analysis
   * @param startNanos when the first interval starts, nanoseconds since the epoch
   */
  public IntervalAnalysis(AnalysisOptions options, String name, long startNanos) {
    this.analyzer = new Analyzer(ReaderKind.JDK.create(), options);
    this.name = name;
    this.interval = newInterval(startNanos);
  }

  private static SummaryBuilder newInterval(long startNanos) {
    SummaryBuilder next = new SummaryBuilder();
    next.chunk(new ChunkHeader(0, 0, 2, 0, 0, 0, 0, startNanos, 0, 0));
    return next;
  }

  /**
   * Ends the current interval at {@code nowNanos} and analyses it.
   *
   * @return the interval's analysis, or null when no event arrived in it (nothing to analyse)
   */
  public Analysis next(long nowNanos) {
    SummaryBuilder ended;
    synchronized (this) {
      ended = interval;
      boolean empty = !anyEvent;
      interval = newInterval(nowNanos);
      anyEvent = false;
      if (empty) {
        return null;
      }
      ended.endNanos = Math.max(ended.endNanos, nowNanos);
      ended.merge(facts);
    }
    return analyzer.analyzeCollected(name, ended);
  }

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
  public synchronized void threadStart(ThreadStartEvent event) {
    interval.threadStart(event);
  }

  @Override
  public synchronized void cpuSample(CpuSampleEvent event) {
    interval.cpuSample(event);
  }

  @Override
  public synchronized void fileIo(FileIoEvent event) {
    anyEvent = true;
    interval.fileIo(event);
  }

  @Override
  public synchronized void jvm(JvmFacts jvm) {
    facts.jvm(jvm);
  }

  @Override
  public synchronized void cpu(CpuFacts cpu) {
    facts.cpu(cpu);
  }

  @Override
  public synchronized void systemProperty(String key, String value) {
    facts.systemProperty(key, value);
  }

  @Override
  public synchronized void setting(EventSetting setting) {
    facts.setting(setting);
  }

  @Override
  public synchronized void stackDepth(int depth) {
    facts.stackDepth(depth);
  }
}
