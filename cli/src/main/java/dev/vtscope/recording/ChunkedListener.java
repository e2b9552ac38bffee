package dev.vtscope.recording;

/**
 * A listener whose work can be done per chunk, in parallel: a reader that decodes chunks on several
 * threads hands each chunk's events to a listener of its own ({@link #newChunk}), on the thread
 * that decoded it, and then merges those listeners into this one, in whatever order they finish.
 * The result is the same as one listener taking every event in order.
 */
public interface ChunkedListener extends RecordingListener {

  /** An empty listener for one chunk's events; called on a decoding thread. */
  RecordingListener newChunk();

  /**
   * Adds what {@code chunk}, made by {@link #newChunk}, took from one chunk (its {@code chunk} call
   * included); chunks may come in any order.
   */
  void merge(RecordingListener chunk);

  /**
   * Called on the decoding thread once {@code chunk}, made by {@link #newChunk}, has taken all of
   * its chunk's events, before it is merged: work each chunk's listener can do in parallel with the
   * others' rather than in the merges, one after another. Nothing by default.
   */
  default void chunkTaken(RecordingListener chunk) {}
}
