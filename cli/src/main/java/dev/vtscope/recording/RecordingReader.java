package dev.vtscope.recording;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads the valid chunks of one JFR file and reports the events vtscope needs. Kept behind this
 * interface so that a faster engine can replace the JDK's {@code jdk.jfr.consumer} later.
 */
public interface RecordingReader {

  /**
   * Reads {@code file}, whose chunk headers were checked by {@link ChunkScanner}, and reports its
   * events to {@code listener}.
   *
   * @return what was read, and where and why reading stopped early, if it did
   * @throws IOException when the file cannot be read at all
   */
  ReadOutcome read(Path file, ChunkScan scan, RecordingListener listener) throws IOException;

  /**
   * What a read achieved.
   *
   * @param chunksRead chunks read to their end
   * @param stoppedEarly where and why reading stopped before the end of the valid chunks, or null
   * @param failure just why, without where, or null
   */
  record ReadOutcome(int chunksRead, String stoppedEarly, String failure) {}
}
