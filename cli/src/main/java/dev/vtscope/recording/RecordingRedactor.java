package dev.vtscope.recording;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Writes a copy of a recording that is safe to share: without the environment, the process list,
 * native library paths, absolute file names or the recording's own destination, and with only the
 * system properties that describe the JDK and the virtual-thread scheduler. The input is never
 * changed.
 */
public final class RecordingRedactor {

  /** Whether a recorded file name is relative and has no parent-folder step. */
  static boolean isRelativeBelow(String path) {
    if (path == null || path.isEmpty() || path.startsWith("/") || path.startsWith("\\")) {
      return false;
    }
    if (path.length() > 1 && path.charAt(1) == ':') {
      return false; // a Windows drive
    }
    for (String part : path.split("[/\\\\]")) {
      if (part.equals("..") || part.startsWith("~")) {
        return false;
      }
    }
    return true;
  }

  /**
   * Event types dropped whole: they name this machine's files, processes or secrets. File reads and
   * writes are kept only when they name a relative file ({@link #isRelativeBelow}).
   */
  static final Set<String> DROPPED_EVENTS =
      Set.of(
          "jdk.InitialEnvironmentVariable",
          "jdk.SystemProcess",
          "jdk.NativeLibrary",
          "jdk.ActiveRecording",
          "jdk.NativeLibraryLoad",
          "jdk.NativeLibraryUnload",
          "jdk.FileForce",
          "jdk.OpenFile",
          "jdk.Deserialization",
          "jdk.SecurityPropertyModification",
          "jdk.ProcessStart");

  /** The system properties kept: the JDK's identity and the scheduler's settings. */
  static final Set<String> KEPT_PROPERTIES =
      Set.of(
          "java.version",
          "java.vendor",
          "java.vm.name",
          "java.vm.vendor",
          "java.vm.version",
          "java.runtime.version",
          "java.specification.version",
          "os.name",
          "os.arch",
          "file.encoding");

  private RecordingRedactor() {}

  /** Copies {@code source} to {@code destination}, leaving out what {@link #keep} rejects. */
  public static void redact(Path source, Path destination) throws IOException {
    try (RecordingFile recording = new RecordingFile(source)) {
      recording.write(destination, keep());
    }
  }

  static Predicate<RecordedEvent> keep() {
    return event -> {
      String type = event.getEventType().getName();
      if (DROPPED_EVENTS.contains(type)) {
        return false;
      }
      if (type.equals("jdk.FileRead") || type.equals("jdk.FileWrite")) {
        // They hold carriers when a virtual thread makes them, but name the file: kept only when
        // that name is relative and stays below the working folder.
        return isRelativeBelow(event.hasField("path") ? event.getString("path") : null);
      }
      if (type.equals("jdk.StringFlag")) {
        // Other string flags can hold paths (error files, dump paths); this one holds the stack
        // depth.
        return "FlightRecorderOptions".equals(event.getString("name"));
      }
      if (type.equals("jdk.InitialSystemProperty")) {
        String key = event.getString("key");
        return key != null
            && (KEPT_PROPERTIES.contains(key) || key.startsWith("jdk.virtualThreadScheduler."));
      }
      return true;
    };
  }
}
