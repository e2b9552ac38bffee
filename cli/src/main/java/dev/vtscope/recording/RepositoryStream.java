package dev.vtscope.recording;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import jdk.jfr.consumer.EventStream;

/**
 * Streams the events of a running JVM's JFR repository as the JVM flushes them (about once a
 * second), with the JDK's {@code EventStream.openRepository}, to a {@link RecordingListener}: the
 * same records the JDK reader makes of a file. The listener is called on the stream's own thread.
 */
public final class RepositoryStream implements AutoCloseable {

  private final EventStream stream;
  private volatile Throwable failure;
  private volatile long lastFlushNanos = System.nanoTime();

  private RepositoryStream(EventStream stream) {
    this.stream = stream;
  }

  /**
   * Opens a repository folder.
   *
   * @param repository the folder the JVM writes its chunks to
   * @param start the first moment to read events from, or null for what the repository holds
   * @param listener where the events go
   * @throws InputProblemException when the folder cannot be read as a repository
   */
  public static RepositoryStream open(Path repository, Instant start, RecordingListener listener)
      throws InputProblemException {
    EventStream stream;
    try {
      stream = EventStream.openRepository(repository);
    } catch (IOException | RuntimeException e) {
      throw new InputProblemException(
          repository + " cannot be read as a JFR repository: " + e.getMessage());
    }
    RepositoryStream live = new RepositoryStream(stream);
    if (start != null) {
      stream.setStartTime(start);
    }
    new JfrStreamReader.Handlers(listener).register(stream);
    stream.onFlush(() -> live.lastFlushNanos = System.nanoTime());
    stream.onError(e -> live.failure = e);
    return live;
  }

  /** Starts reading on a thread of its own; returns at once. */
  public void start() {
    stream.startAsync();
  }

  /** When the JVM last flushed events that were read ({@link System#nanoTime()}). */
  public long lastFlushNanos() {
    return lastFlushNanos;
  }

  /** What stopped the stream, or null while it reads. */
  public Throwable failure() {
    return failure;
  }

  @Override
  public void close() {
    stream.close();
  }
}
