package dev.vtscope.recording;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What both readers derive the same way from the strings a recording holds. */
final class RecordedFacts {

  private static final Pattern JRE_VERSION = Pattern.compile("JRE \\(([^)]*)\\)");
  private static final Pattern VM_VERSION = Pattern.compile("\\(([0-9][^)]*)\\)");
  private static final Pattern FEATURE = Pattern.compile("^(?:1\\.)?(\\d+)");
  private static final Pattern STACK_DEPTH = Pattern.compile("stackdepth=(\\d+)");
  private static final int DEFAULT_STACK_DEPTH = 64;

  private RecordedFacts() {}

  /** The JVM facts of a {@code jdk.JVMInformation} event. */
  static JvmFacts jvm(String jvmName, String jvmVersion, long jvmStartNanos, long pid) {
    String javaVersion = null;
    if (jvmVersion != null) {
      Matcher jre = JRE_VERSION.matcher(jvmVersion);
      Matcher vm = VM_VERSION.matcher(jvmVersion);
      if (jre.find()) {
        javaVersion = jre.group(1);
      } else if (vm.find()) {
        javaVersion = vm.group(1);
      }
    }
    int feature = 0;
    if (javaVersion != null) {
      Matcher f = FEATURE.matcher(javaVersion);
      if (f.find()) {
        try {
          feature = Integer.parseInt(f.group(1));
        } catch (NumberFormatException e) {
          feature = 0; // digits beyond an int: not a release
        }
      }
    }
    return new JvmFacts(jvmName, jvmVersion, javaVersion, feature, jvmStartNanos, pid);
  }

  /**
   * The stack depth that {@code -XX:FlightRecorderOptions} states; without a {@code stackdepth}
   * there, the JVM's default of 64 applied.
   */
  static int stackDepth(String flightRecorderOptions) {
    Matcher depth = STACK_DEPTH.matcher(flightRecorderOptions == null ? "" : flightRecorderOptions);
    if (depth.find()) {
      try {
        return Integer.parseInt(depth.group(1));
      } catch (NumberFormatException e) {
        return DEFAULT_STACK_DEPTH;
      }
    }
    return DEFAULT_STACK_DEPTH;
  }

  /** Who loaded a class, from its loader's name as JFR records it (null: the boot loader). */
  static Frame.ClassLoaderKind loaderKind(boolean classKnown, boolean loaderKnown, String name) {
    if (!classKnown) {
      return Frame.ClassLoaderKind.UNKNOWN;
    }
    if (!loaderKnown || "bootstrap".equals(name)) {
      return Frame.ClassLoaderKind.BOOT;
    }
    if ("platform".equals(name)) {
      return Frame.ClassLoaderKind.PLATFORM;
    }
    return Frame.ClassLoaderKind.APPLICATION;
  }

  /** What a report says of a chunk still being written, or null when the scan found none. */
  static String inProgressNote(ChunkScan scan) {
    ChunkHeader live = scan.inProgress();
    if (live == null) {
      return null;
    }
    return "chunk "
        + (live.index() + 1)
        + " was still being written: it was read up to its last complete flush ("
        + live.size()
        + " bytes)"
        + (scan.unflushedBytes() > 0
            ? "; the " + scan.unflushedBytes() + " bytes written after it were not"
            : "");
  }
}
