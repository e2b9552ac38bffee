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

/**
 * Passes everything on to another listener and reports each chunk to a {@link ReadProgress} once
 * the next one starts or the file ends, when the chunk's events have all been handed on.
 */
final class ProgressListener implements ChunkedListener {

  private final InputCollector next;
  private final ReadProgress progress;
  private long pending;

  ProgressListener(InputCollector next, ReadProgress progress) {
    this.next = next;
    this.progress = progress;
  }

  /** The last chunk of a file was read. */
  void fileDone() {
    if (pending > 0) {
      progress.chunkRead(pending);
      pending = 0;
    }
  }

  @Override
  public void chunk(ChunkHeader header) {
    fileDone();
    pending = header.size();
    next.chunk(header);
  }

  @Override
  public RecordingListener newChunk() {
    return next.newChunk();
  }

  @Override
  public void merge(RecordingListener chunk, ChunkHeader header) {
    next.merge(chunk, header);
    progress.chunkRead(header.size());
  }

  @Override
  public void pinned(PinnedEvent event) {
    next.pinned(event);
  }

  @Override
  public void submitFailed(SubmitFailedEvent event) {
    next.submitFailed(event);
  }

  @Override
  public void monitor(MonitorEvent event) {
    next.monitor(event);
  }

  @Override
  public void threadStart(ThreadStartEvent event) {
    next.threadStart(event);
  }

  @Override
  public void jvm(JvmFacts facts) {
    next.jvm(facts);
  }

  @Override
  public void cpu(CpuFacts facts) {
    next.cpu(facts);
  }

  @Override
  public void systemProperty(String key, String value) {
    next.systemProperty(key, value);
  }

  @Override
  public void setting(EventSetting setting) {
    next.setting(setting);
  }

  @Override
  public void stackDepth(int depth) {
    next.stackDepth(depth);
  }
}
