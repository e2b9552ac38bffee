package dev.vtscope.recording;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Reads one recording file: checks its chunk headers, then hands its events to a listener. */
public final class RecordingFiles {

  private RecordingFiles() {}

  /**
   * What reading a file gave, besides the events.
   *
   * @param problem why reading stopped before the end, or null
   * @param notes what the reader says about what it read
   * @param repeatedChunks chunks left out because one with the same identity was read before
   * @param chunksRead chunks whose events were read
   */
  public record FileRead(String problem, List<String> notes, int repeatedChunks, int chunksRead) {}

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
    return read(reader, file, listener, null);
  }

  /**
   * Reads {@code file} with {@code reader} into {@code listener}, leaving out the chunks whose
   * {@link ChunkHeader#identity() identity} is in {@code seen} and adding those it reads: a chunk
   * copied several times, into one file or several, is read once. {@code seen} may be null.
   *
   * @throws UnreadableException when no chunk of it can be read; its message starts with the file
   */
  public static FileRead read(
      RecordingReader reader, Path file, RecordingListener listener, Set<ChunkHeader.Identity> seen)
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
    String problem = problem(scan); // of every chunk of the file, repeated or not
    int repeated = 0;
    if (seen != null) {
      List<ChunkHeader> fresh = new ArrayList<>();
      for (ChunkHeader chunk : scan.chunks()) {
        if (seen.add(chunk.identity())) {
          fresh.add(chunk);
        } else {
          repeated++;
        }
      }
      if (repeated > 0 && fresh.isEmpty()) {
        return new FileRead(problem, List.of(), repeated, 0);
      }
      scan =
          new ChunkScan(
              fresh, scan.fileSize(), scan.problem(), scan.problemOffset(), scan.unflushedBytes());
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
      return new FileRead(outcome.stoppedEarly(), outcome.notes(), repeated, outcome.chunksRead());
    }
    return new FileRead(problem, outcome.notes(), repeated, outcome.chunksRead());
  }

  /** Why the file's chunks end before the file does, or null. */
  private static String problem(ChunkScan scan) {
    if (scan.complete()) {
      return null;
    }
    return "reading stopped at byte "
        + scan.problemOffset()
        + " after "
        + Counted.of(scan.chunks().size(), "valid chunk")
        + ": "
        + scan.problem();
  }
}
