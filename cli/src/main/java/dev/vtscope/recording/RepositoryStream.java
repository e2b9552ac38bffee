package dev.vtscope.recording;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
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
  private volatile boolean sawRecording;

  /** Flushes left at which to look again for the facts, while none were found. */
  private int factLookups;

  /** Flushes at which a JVM that has not written its facts yet is looked at again. */
  private static final int FACT_LOOKUPS = 10;

  private RepositoryStream(EventStream stream) {
    this.stream = stream;
  }

  /**
   * Opens a repository folder. Without {@code start}, the stream begins with the JVM's next flush,
   * after the facts the JVM writes when a chunk begins (its JDK, CPUs, system properties and
   * settings, from which the scheduler's parallelism is derived): the listener is first given
   * those, read from the repository's newest chunk that holds them, or, when the JVM has not
   * written them yet, at one of its next flushes.
   *
   * @param repository the folder the JVM writes its chunks to
   * @param start the first moment to read events from, or null for the events the JVM flushes from
   *     now on
   * @param listener where the events go
   * @throws InputProblemException when the folder cannot be read as a repository
   */
  public static RepositoryStream open(Path repository, Instant start, RecordingListener listener)
      throws InputProblemException {
    boolean factsFound = start != null || readFacts(repository, listener);
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
    live.factLookups = factsFound ? 0 : FACT_LOOKUPS;
    live.sawRecording = factsFound;
    stream.onFlush(
        () -> {
          live.lastFlushNanos = System.nanoTime();
          live.sawRecording = true;
          // the stream's own thread: the facts reach the listener before the flush's events
          if (live.factLookups > 0) {
            live.factLookups = readFacts(repository, listener) ? 0 : live.factLookups - 1;
          }
        });
    stream.onError(e -> live.failure = e);
    return live;
  }

  /**
   * Hands {@code listener} the facts of the newest chunk file of {@code repository} that has any.
   *
   * @return whether one had any; none has before the JVM's first flush
   */
  private static boolean readFacts(Path repository, RecordingListener listener) {
    List<Path> chunks;
    try (Stream<Path> files = Files.list(repository)) {
      chunks =
          files
              .filter(
                  f ->
                      RecordingInputs.REPOSITORY_CHUNK
                          .matcher(f.getFileName().toString())
                          .matches())
              .sorted(Comparator.comparing((Path f) -> f.getFileName().toString()).reversed())
              .toList();
    } catch (IOException | java.io.UncheckedIOException e) {
      return false; // opening the stream says what is wrong with the folder
    }
    try (JfrFileReader reader = new JfrFileReader()) {
      for (Path chunk : chunks) {
        Facts facts = new Facts();
        try {
          RecordingFiles.read(reader, chunk, facts);
        } catch (RecordingFiles.UnreadableException e) {
          continue; // a chunk file just created, or deleted meanwhile
        }
        if (!facts.calls.isEmpty()) {
          facts.calls.forEach(call -> call.accept(listener));
          return true;
        }
      }
    }
    return false;
  }

  /** The facts of what a reader reads, kept as calls to repeat; events are left out. */
  private static final class Facts implements RecordingListener {
    final List<Consumer<RecordingListener>> calls = new ArrayList<>();

    @Override
    public void jvm(JvmFacts facts) {
      calls.add(l -> l.jvm(facts));
    }

    @Override
    public void cpu(CpuFacts facts) {
      calls.add(l -> l.cpu(facts));
    }

    @Override
    public void systemProperty(String key, String value) {
      calls.add(l -> l.systemProperty(key, value));
    }

    @Override
    public void setting(EventSetting setting) {
      calls.add(l -> l.setting(setting));
    }

    @Override
    public void stackDepth(int depth) {
      calls.add(l -> l.stackDepth(depth));
    }
  }

  /** Starts reading on a thread of its own; returns at once. */
  public void start() {
    stream.startAsync();
  }

  /** When the JVM last flushed events that were read ({@link System#nanoTime()}). */
  public long lastFlushNanos() {
    return lastFlushNanos;
  }

  /**
   * Whether the folder held a recording: a chunk file with the JVM's facts, or a flush read since.
   * A folder that is no JVM's repository (or a JVM's that has not started recording) holds none.
   */
  public boolean sawRecording() {
    return sawRecording;
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
