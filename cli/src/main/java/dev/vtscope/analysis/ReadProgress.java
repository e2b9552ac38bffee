package dev.vtscope.analysis;

/** Told as each chunk of the inputs is read, so that a long read can show how far it got. */
public interface ReadProgress {

  /** Shows nothing. */
  ReadProgress NONE = bytes -> {};

  /**
   * A chunk of {@code bytes} bytes was read (damaged or skipped chunks are not counted); with a
   * reader that hands on events in order, as its events begin.
   */
  void chunkRead(long bytes);

  /** Reading is over (also when it failed). */
  default void done() {}
}
