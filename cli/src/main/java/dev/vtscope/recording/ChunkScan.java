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
 * @param unflushedBytes bytes after the last flush of a chunk still being written (not yet whole,
 *     so not read), or 0
 */
public record ChunkScan(
    List<ChunkHeader> chunks,
    long fileSize,
    String problem,
    long problemOffset,
    long unflushedBytes) {

  public ChunkScan {
    chunks = List.copyOf(chunks);
  }

  /** The chunk a JVM was still writing, or null. */
  public ChunkHeader inProgress() {
    return chunks.isEmpty() || !chunks.get(chunks.size() - 1).inProgress()
        ? null
        : chunks.get(chunks.size() - 1);
  }

  /** Whether every byte of the file belongs to a valid chunk. */
  public boolean complete() {
    return problem == null;
  }
}
