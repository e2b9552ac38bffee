package dev.vtscope.recording;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.List;

/** Reads one recording file: checks its chunk headers, then hands its events to a listener. */
public final class RecordingFiles {

  private RecordingFiles() {}

  /**
   * What reading a file gave, besides the events.
   *
   * @param problem why reading stopped before the end, or null
   * @param notes what the reader says about what it read
   */
  public record FileRead(String problem, List<String> notes) {}

  /** A file that could not be read at all. */
  public static final class UnreadableException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean io;

    UnreadableException(String message, boolean io) {
      super(message);
      this.io = io;
    }

    /** True when the file could not be opened or read; false when it is not a usable recording. */
    public boolean io() {
      return io;
    }
  }

  /**
   * Reads {@code file} with {@code reader} into {@code listener}.
   *
   * @throws UnreadableException when no chunk of it can be read; its message starts with the file
   */
  public static FileRead read(RecordingReader reader, Path file, RecordingListener listener)
      throws UnreadableException {
    ChunkScan scan;
    try {
      scan = ChunkScanner.scan(file, reader.needsRecordCheck());
    } catch (NotARecordingException e) {
      throw new UnreadableException(file + ": " + e.getMessage(), false);
    } catch (AccessDeniedException e) {
      throw new UnreadableException(file + ": permission denied", true);
    } catch (IOException e) {
      throw new UnreadableException(file + ": cannot read (" + e.getMessage() + ")", true);
    }
    RecordingReader.ReadOutcome outcome;
    try {
      outcome = reader.read(file, scan, listener);
    } catch (IOException e) {
      throw new UnreadableException(file + ": cannot read (" + e.getMessage() + ")", true);
    }
    if (outcome.stoppedEarly() != null) {
      if (outcome.chunksRead() == 0) {
        throw new UnreadableException(
            file + ": not a readable JFR recording: " + outcome.failure(), false);
      }
      return new FileRead(outcome.stoppedEarly(), outcome.notes());
    }
    if (!scan.complete()) {
      return new FileRead(
          "reading stopped at byte "
              + scan.problemOffset()
              + " after "
              + Counted.of(scan.chunks().size(), "valid chunk")
              + ": "
              + scan.problem(),
          outcome.notes());
    }
    return new FileRead(null, outcome.notes());
  }
}
