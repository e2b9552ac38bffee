package dev.vtscope.threaddump;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * Reads a thread dump of any format from a file or a stream, telling the format from its first
 * bytes: a JSON object holding {@code "threadDump"}; a pid line, an instant line and a version line
 * (plain text); {@code Full thread dump} among the first lines, after jcmd's {@code PID:} and the
 * local time ({@code Thread.print}, {@code jstack}). Anything else is refused in one line.
 */
public final class ThreadDumpFiles {

  /** How much of the start is looked at. */
  private static final int SNIFF = 8192;

  private static final byte[] JFR_MAGIC = {'F', 'L', 'R', 0};
  private static final Pattern INSTANT =
      Pattern.compile("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z$");

  private ThreadDumpFiles() {}

  /** The dump in {@code file}. */
  public static ThreadDump read(Path file) throws IOException, NotAThreadDumpException {
    try (InputStream in = Files.newInputStream(file)) {
      return read(in);
    }
  }

  /** The dump {@code in} holds, read to its end. */
  public static ThreadDump read(InputStream in) throws IOException, NotAThreadDumpException {
    BufferedInputStream buffered = new BufferedInputStream(in, SNIFF);
    buffered.mark(SNIFF);
    byte[] start = buffered.readNBytes(SNIFF);
    buffered.reset();
    DumpFormat format = format(start);
    return switch (format) {
      case JSON -> ThreadDumpJson.read(buffered);
      case PLAIN_TEXT ->
          ThreadDumpText.read(new InputStreamReader(buffered, StandardCharsets.UTF_8));
      case THREAD_PRINT ->
          ThreadPrint.parse(new String(buffered.readAllBytes(), StandardCharsets.UTF_8));
    };
  }

  /** Whether {@code file} starts as a thread dump of one of the formats read. */
  public static boolean startsAsDump(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      format(in.readNBytes(SNIFF));
      return true;
    } catch (NotAThreadDumpException e) {
      return false;
    }
  }

  /** The format of a dump that starts with {@code start}. */
  static DumpFormat format(byte[] start) throws NotAThreadDumpException {
    if (start.length >= 4 && Arrays.equals(start, 0, 4, JFR_MAGIC, 0, 4)) {
      throw new NotAThreadDumpException("a JFR recording, not a thread dump");
    }
    String text = new String(start, StandardCharsets.UTF_8);
    String trimmed = text.stripLeading();
    if (trimmed.startsWith("\uFEFF")) {
      trimmed = trimmed.substring(1).stripLeading();
    }
    if (trimmed.startsWith("{")) {
      if (trimmed.contains("\"threadDump\"")) {
        return DumpFormat.JSON;
      }
      throw new NotAThreadDumpException(
          "JSON, but no thread dump: Thread.dump_to_file -format=json writes {\"threadDump\": …}");
    }
    String[] lines = trimmed.split("\\R", 12);
    if (lines.length >= 3
        && lines[0].strip().matches("\\d{1,18}")
        && INSTANT.matcher(lines[1].strip()).matches()) {
      return DumpFormat.PLAIN_TEXT;
    }
    for (int i = 0; i < Math.min(lines.length, 11); i++) {
      if (lines[i].startsWith("Full thread dump ")) {
        return DumpFormat.THREAD_PRINT;
      }
    }
    if (start.length == 0) {
      throw new NotAThreadDumpException("empty, not a thread dump");
    }
    throw new NotAThreadDumpException(
        "not a thread dump: none of Thread.dump_to_file's JSON or plain text, or Thread.print's"
            + " text");
  }
}
