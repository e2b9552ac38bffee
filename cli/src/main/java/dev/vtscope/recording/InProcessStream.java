package dev.vtscope.recording;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Configuration;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.RecordingStream;

/**
 * Streams this JVM's own events with vtscope's JFR settings ({@code vtscope.jfc}) to a {@link
 * RecordingListener}, with the JDK's {@code RecordingStream}: the records the JDK reader makes of a
 * file, as JFR flushes them (about once a second). Nothing is written to a file the user keeps;
 * JFR's own repository holds the last chunks on disk, as for any recording. The listener is called
 * on the stream's own thread.
 */
public final class InProcessStream implements AutoCloseable {

  private static final String SETTINGS = "/dev/vtscope/vtscope.jfc";

  private final RecordingStream stream;
  private volatile Throwable failure;

  private InProcessStream(RecordingStream stream) {
    this.stream = stream;
  }

  /**
   * Opens a stream of this JVM's events; call {@link #start} to begin.
   *
   * @param pinnedThreshold the shortest pin recorded
   * @param listener where the events go
   * @throws IllegalStateException when JFR is turned off in this JVM or refuses the settings
   */
  public static InProcessStream open(Duration pinnedThreshold, RecordingListener listener) {
    if (!FlightRecorder.isAvailable()) {
      throw new IllegalStateException("JFR is turned off in this JVM (-XX:-FlightRecorder)");
    }
    RecordingStream stream = new RecordingStream(settings());
    stream.enable("jdk.VirtualThreadPinned").withThreshold(pinnedThreshold).withStackTrace();
    // Events are turned into vtscope's records as they arrive and then dropped: keep none on disk
    // longer than JFR needs to hand them over.
    stream.setMaxAge(Duration.ofMinutes(1));
    InProcessStream live = new InProcessStream(stream);
    new JfrStreamReader.Handlers(listener).register(stream);
    stream.onError(e -> live.failure = e);
    return live;
  }

  private static Configuration settings() {
    try (InputStream in = InProcessStream.class.getResourceAsStream(SETTINGS)) {
      if (in == null) {
        throw new IllegalStateException(SETTINGS + " is missing from vtscope's jar");
      }
      try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
        return Configuration.create(reader);
      }
    } catch (IOException | ParseException e) {
      throw new IllegalStateException(SETTINGS + " cannot be read: " + e.getMessage(), e);
    }
  }

  /**
   * Starts streaming on a daemon thread of its own, and returns once JFR records (at most 10 s
   * later): what happens after it is in the stream. Not {@code startAsync}: its thread is not a
   * daemon, and would keep the JVM running after the application's {@code main} returned.
   */
  public void start() {
    CountDownLatch recording = new CountDownLatch(1);
    // Any recording that starts now is taken for this one: another starting in the same instant
    // only makes the wait shorter.
    FlightRecorderListener started =
        new FlightRecorderListener() {
          @Override
          public void recordingStateChanged(Recording r) {
            if (r.getState() == RecordingState.RUNNING) {
              recording.countDown();
            }
          }
        };
    FlightRecorder.addListener(started);
    try {
      Thread thread = new Thread(stream::start, "vtscope-jfr-stream");
      thread.setDaemon(true);
      thread.start();
      recording.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      FlightRecorder.removeListener(started);
    }
  }

  /** What stopped the stream, or null while it streams. */
  public Throwable failure() {
    return failure;
  }

  @Override
  public void close() {
    stream.close();
  }
}
