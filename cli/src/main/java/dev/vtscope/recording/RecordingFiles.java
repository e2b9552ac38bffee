package dev.vtscope.recording;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
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
   * copied several times, into one file or several, is read once, from its first copy that is not
   * damaged. {@code seen} may be null.
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
    } catch (java.nio.file.NoSuchFileException e) {
      throw new UnreadableException(file + ": cannot read (" + missing(file) + ")", true);
    } catch (IOException e) {
      throw new UnreadableException(file + ": cannot read (" + e.getMessage() + ")", true);
    }
    String problem = problem(scan); // of every chunk of the file, repeated or not
    List<ChunkHeader> later = new ArrayList<>(); // this file's copies of chunks read before
    if (seen != null) {
      List<ChunkHeader> fresh = new ArrayList<>();
      for (ChunkHeader chunk : scan.chunks()) {
        (seen.add(chunk.identity()) ? fresh : later).add(chunk);
      }
      if (!later.isEmpty() && fresh.isEmpty()) {
        return new FileRead(problem, List.of(), later.size(), 0);
      }
      scan = withChunks(scan, fresh);
    }
    RecordingReader.ReadOutcome outcome = read(reader, file, scan, listener);
    String stoppedEarly = outcome.stoppedEarly();
    List<String> notes = new ArrayList<>(outcome.notes());
    int chunksRead = outcome.chunksRead();
    while (seen != null && !outcome.untouched().isEmpty()) {
      // A chunk skipped as damaged is not read yet: the first intact copy of it is, here (later in
      // this file) or in a file read after this one.
      List<ChunkHeader> retry = new ArrayList<>();
      List<String> instead = new ArrayList<>();
      for (ChunkHeader damaged : outcome.untouched()) {
        seen.remove(damaged.identity());
        for (ChunkHeader copy : later) {
          if (copy.fileOffset() > damaged.fileOffset()
              && copy.identity().equals(damaged.identity())
              && seen.add(copy.identity())) {
            retry.add(copy);
            instead.add("chunk " + (copy.index() + 1) + " for chunk " + (damaged.index() + 1));
          }
        }
      }
      if (retry.isEmpty()) {
        break;
      }
      later.removeAll(retry);
      retry.sort(Comparator.comparingLong(ChunkHeader::fileOffset));
      outcome = read(reader, file, withChunks(scan, retry), listener);
      stoppedEarly =
          (stoppedEarly == null ? "" : stoppedEarly + "; ")
              + "read instead, as an intact copy: "
              + String.join(", ", instead)
              + (outcome.chunksRead() == retry.size() ? "" : " (not all of them were intact)");
      chunksRead += outcome.chunksRead();
      outcome.notes().stream().filter(n -> !notes.contains(n)).forEach(notes::add);
      if (outcome.stoppedEarly() != null) {
        stoppedEarly = stoppedEarly + "; " + outcome.stoppedEarly();
      }
    }
    int repeated = later.size();
    if (stoppedEarly != null) {
      if (chunksRead == 0) {
        throw new UnreadableException(
            file + ": not a readable JFR recording: " + outcome.failure(), false);
      }
      return new FileRead(stoppedEarly, List.copyOf(notes), repeated, chunksRead);
    }
    return new FileRead(problem, List.copyOf(notes), repeated, chunksRead);
  }

  /** Why a file listed a moment ago is not there: a link that points nowhere says where. */
  private static String missing(Path file) {
    try {
      if (Files.isSymbolicLink(file)) {
        return "a link to " + Files.readSymbolicLink(file) + ", which does not exist";
      }
    } catch (IOException e) {
      // said as any missing file is
    }
    return "no such file";
  }

  private static ChunkScan withChunks(ChunkScan scan, List<ChunkHeader> chunks) {
    return new ChunkScan(
        chunks, scan.fileSize(), scan.problem(), scan.problemOffset(), scan.unflushedBytes());
  }

  private static RecordingReader.ReadOutcome read(
      RecordingReader reader, Path file, ChunkScan scan, RecordingListener listener)
      throws UnreadableException {
    try {
      return reader.read(file, scan, listener);
    } catch (IOException e) {
      throw new UnreadableException(file + ": cannot read (" + e.getMessage() + ")", true);
    }
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
