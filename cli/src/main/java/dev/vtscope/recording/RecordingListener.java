package dev.vtscope.recording;

/**
 * Receives what a {@link RecordingReader} finds, in recording order. Methods have empty defaults so
 * a consumer implements only what it needs.
 */
public interface RecordingListener {

  /** A new chunk of the current input starts. */
  default void chunk(ChunkHeader header) {}

  default void pinned(PinnedEvent event) {}

  default void submitFailed(SubmitFailedEvent event) {}

  default void monitor(MonitorEvent event) {}

  default void threadStart(ThreadStartEvent event) {}

  /** A {@code jdk.ExecutionSample} or {@code jdk.NativeMethodSample} of a virtual thread. */
  default void cpuSample(CpuSampleEvent event) {}

  /** A {@code jdk.FileRead} or {@code jdk.FileWrite} of a virtual thread. */
  default void fileIo(FileIoEvent event) {}

  default void jvm(JvmFacts facts) {}

  default void cpu(CpuFacts facts) {}

  /** A {@code jdk.InitialSystemProperty} event. */
  default void systemProperty(String key, String value) {}

  /**
   * A {@code jdk.ActiveSetting} event of an event type the readers give the listener (those of
   * other types are left out).
   */
  default void setting(EventSetting setting) {}

  /** The recording's stack depth, when the recording says it. */
  default void stackDepth(int depth) {}

  /** A {@code jdk.ThreadDump} event. */
  default void threadDump(ThreadDumpEvent event) {}
}
