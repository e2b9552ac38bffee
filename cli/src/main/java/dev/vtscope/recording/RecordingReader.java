package dev.vtscope.recording;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the valid chunks of one JFR file and reports the events vtscope needs: vtscope's own reader
 * ({@link JfrFileReader}, the default) or the JDK's {@code jdk.jfr.consumer} ({@link
 * JfrStreamReader}, {@code --reader jdk}), which the tests hold each other to.
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
   * Whether {@link ChunkScanner} must walk each chunk's records before this reader sees them: the
   * JDK's reader needs it, vtscope's own reader checks every record as it reads.
   */
  default boolean needsRecordCheck() {
    return true;
  }

  /** How the report names this reader, e.g. {@code vtscope} or {@code jdk}. */
  String name();

  /**
   * What a read achieved.
   *
   * @param chunksRead chunks read to their end
   * @param stoppedEarly where and why reading stopped before the end of the valid chunks, or null
   * @param failure just why, without where, or null
   * @param notes what a reader of the report must know about what was read: a chunk still being
   *     written read up to its last flush, events that refer to constants the chunk lacks
   * @param untouched chunks none of whose events reached the listener (a damaged chunk skipped
   *     whole, those after the one where reading stopped): an intact copy of one, given later, is
   *     still read
   */
  record ReadOutcome(
      int chunksRead,
      String stoppedEarly,
      String failure,
      List<String> notes,
      List<ChunkHeader> untouched) {

    public ReadOutcome {
      notes = List.copyOf(notes);
      untouched = List.copyOf(untouched);
    }

    public ReadOutcome(int chunksRead, String stoppedEarly, String failure, List<String> notes) {
      this(chunksRead, stoppedEarly, failure, notes, List.of());
    }

    public ReadOutcome(int chunksRead, String stoppedEarly, String failure) {
      this(chunksRead, stoppedEarly, failure, List.of(), List.of());
    }
  }
}
