package dev.vtscope.junit;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import jdk.jfr.Configuration;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;

/**
 * A JFR recording of this JVM with vtscope's settings, written to a file when it stops: the only
 * class of the extension that touches {@code jdk.jfr}, and only to start and stop recordings.
 * Reading the file is the recording package's work, as for {@code vtscope analyze}.
 */
final class InProcessRecording implements AutoCloseable {

  /**
   * Frames kept per stack: JFR's default of 64 cuts the stacks of virtual threads that run inside a
   * framework before the frame that holds the carrier.
   */
  static final int STACK_DEPTH = 256;

  private static final String SETTINGS = "/dev/vtscope/vtscope.jfc";
  private static final Pattern CURRENT_DEPTH = Pattern.compile("Stack depth: (\\d+)");
  private static final Object FIRST_START = new Object();
  private static boolean depthChecked;

  private final Recording recording;
  private final Path file;

  private InProcessRecording(Recording recording, Path file) {
    this.recording = recording;
    this.file = file;
  }

  /**
   * Why this JVM cannot record, or empty when it can: JFR was turned off ({@code
   * -XX:-FlightRecorder}). Call only where the {@code jdk.jfr} module exists.
   */
  static Optional<String> turnedOff() {
    return FlightRecorder.isAvailable()
        ? Optional.empty()
        : Optional.of("JFR is turned off in this JVM (-XX:-FlightRecorder)");
  }

  /**
   * Starts recording into {@code file}: vtscope's settings, with pinned events of {@code
   * pinnedThreshold} or longer.
   *
   * @throws IllegalStateException when JFR refuses to start, with its reason
   */
  static InProcessRecording start(Path file, Duration pinnedThreshold) throws IOException {
    deepenStacksBeforeFirstRecording();
    Recording recording = new Recording(settings());
    try {
      recording.setName("vtscope-junit");
      recording.enable("jdk.VirtualThreadPinned").withThreshold(pinnedThreshold).withStackTrace();
      recording.setToDisk(true);
      recording.setDestination(file);
      recording.start();
    } catch (IOException e) {
      recording.close();
      throw e;
    } catch (RuntimeException e) {
      recording.close();
      throw new IllegalStateException(
          "vtscope: JFR did not start a recording for this test: " + e.getMessage(), e);
    }
    return new InProcessRecording(recording, file);
  }

  /** Stops recording; the file holds everything recorded since {@link #start}. */
  Path stop() {
    recording.stop();
    return file;
  }

  @Override
  public void close() {
    recording.close();
  }

  private static Configuration settings() throws IOException {
    try (InputStream in = InProcessRecording.class.getResourceAsStream(SETTINGS)) {
      if (in == null) {
        throw new IllegalStateException(
            SETTINGS + " is missing: vtscope-cli's jar is not on the test class path");
      }
      try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
        return Configuration.create(reader);
      }
    } catch (ParseException e) {
      throw new IllegalStateException(SETTINGS + " cannot be read: " + e.getMessage(), e);
    }
  }

  /**
   * Raises JFR's stack depth to {@link #STACK_DEPTH} unless the JVM's options set one. JFR takes
   * the depth only before its first recording in the JVM; later the request changes nothing, and
   * stacks deeper than the depth in force are reported as truncated.
   */
  private static void deepenStacksBeforeFirstRecording() {
    synchronized (FIRST_START) {
      if (depthChecked) {
        return;
      }
      depthChecked = true;
      try {
        boolean chosen =
            ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(
                    o -> o.startsWith("-XX:FlightRecorderOptions") && o.contains("stackdepth"));
        if (chosen) {
          return;
        }
        String current = jfrConfigure();
        Matcher m = CURRENT_DEPTH.matcher(current);
        if (m.find() && Integer.parseInt(m.group(1)) < STACK_DEPTH) {
          jfrConfigure("stackdepth=" + STACK_DEPTH);
        }
      } catch (Exception | LinkageError e) {
        // No diagnostic command here (no jdk.management module): JFR's default depth, and the
        // report says when stacks were truncated.
      }
    }
  }

  /** {@code jcmd <this JVM> JFR.configure ARGS}, through the platform MBean server. */
  private static String jfrConfigure(String... args) throws Exception {
    Object out =
        ManagementFactory.getPlatformMBeanServer()
            .invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"),
                "jfrConfigure",
                new Object[] {args},
                new String[] {String[].class.getName()});
    return String.valueOf(out);
  }

  /** Deletes the file, which a passed test does not need. */
  static void delete(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a temporary file left behind is harmless
    }
  }
}
