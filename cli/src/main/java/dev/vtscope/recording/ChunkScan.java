package dev.vtscope.recording;

import java.util.List;

/**
 * The result of checking a file's chunk headers: the chunks that are whole, and what stopped the
 * scan, if anything did.
 *
 * @param chunks the chunks whose headers are valid and whose bytes are all present
 * @param fileSize the file's size
 * @param problem why the scan stopped before the end of the file, or null when the file is whole
 * @param problemOffset the byte offset where the problem was found, or -1
 */
public record ChunkScan(
    List<ChunkHeader> chunks, long fileSize, String problem, long problemOffset) {

  public ChunkScan {
    chunks = List.copyOf(chunks);
  }

  /** Whether every byte of the file belongs to a valid chunk. */
  public boolean complete() {
    return problem == null;
  }
}
