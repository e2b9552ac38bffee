package dev.vtscope.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Runs the JDK's own {@code jfr view pinned-threads} on a recording and reads its table: the oracle
 * for vtscope's per-top-application-frame counts, longest and total pins.
 */
public final class JfrViewOracle {

  /** One row of the table: the method column and the three figures as jfr printed them. */
  public record Row(String method, long count, String longest, String total) {}

  private JfrViewOracle() {}

  public static List<Row> pinnedThreads(Path recording) {
    String output = run(recording);
    List<String> lines = output.lines().toList();
    int dashes = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("---")) {
        dashes = i;
        break;
      }
    }
    List<Row> rows = new ArrayList<>();
    if (dashes < 0) {
      return rows; // no table: no pinned events
    }
    // Column boundaries come from the dashed line under the header.
    String rule = lines.get(dashes);
    List<int[]> columns = new ArrayList<>();
    int start = -1;
    for (int i = 0; i <= rule.length(); i++) {
      boolean dash = i < rule.length() && rule.charAt(i) == '-';
      if (dash && start < 0) {
        start = i;
      } else if (!dash && start >= 0) {
        columns.add(new int[] {start, i});
        start = -1;
      }
    }
    assertThat(columns).as("jfr view columns in:\n" + output).hasSize(4);
    for (String line : lines.subList(dashes + 1, lines.size())) {
      if (line.isBlank()) {
        continue;
      }
      rows.add(
          new Row(
              cell(line, columns.get(0)),
              Long.parseLong(cell(line, columns.get(1)).replace(",", "")),
              cell(line, columns.get(2)),
              cell(line, columns.get(3))));
    }
    return rows;
  }

  private static String cell(String line, int[] column) {
    int from = Math.min(column[0], line.length());
    int to = column == null ? line.length() : Math.min(column[1], line.length());
    return line.substring(from, to).trim();
  }

  /** The recordings {@link #prepare(List)} was given, whose views the next jfr run writes. */
  private static final java.util.Set<Path> PENDING =
      java.util.Collections.synchronizedSet(new java.util.LinkedHashSet<>());

  /** The views written by the jfr runs of this JVM, by recording. */
  private static final java.util.Map<Path, Path> VIEWS =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * Says which recordings {@link #pinnedThreads(Path)} will be asked about, so that the first view
   * it has to make comes with the others' from one JVM running the jfr tool (starting that JVM and
   * loading the tool cost more than a view).
   */
  public static void prepare(List<Path> recordings) {
    PENDING.addAll(recordings);
  }

  /**
   * What {@code jfr view pinned-threads} printed for {@code recording}: run once per build for a
   * recording's content, since both passes ask about the same recordings.
   */
  private static String run(Path recording) {
    Path jfr = TestRecordings.jfrTool();
    try {
      String content =
          java.util.HexFormat.of()
              .formatHex(
                  java.security.MessageDigest.getInstance("SHA-256")
                      .digest(Files.readAllBytes(recording)));
      Path view =
          TestRecordings.sharedFile(
              "jfr view pinned-threads|" + jfr + "|" + content,
              "jfr-view.txt",
              () -> viewOf(jfr, recording));
      return Files.readString(view, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The view of {@code recording}, with those of the pending recordings when none is made yet. */
  private static synchronized Path viewOf(Path jfr, Path recording) {
    Path made = VIEWS.get(recording);
    if (made == null) {
      List<Path> batch = new ArrayList<>();
      batch.add(recording);
      synchronized (PENDING) {
        PENDING.stream()
            .filter(p -> !p.equals(recording) && !VIEWS.containsKey(p))
            .forEach(batch::add);
        PENDING.clear();
      }
      VIEWS.putAll(runJfr(jfr, batch));
      made = VIEWS.get(recording);
    }
    return made;
  }

  /**
   * Runs the jfr tool's {@code view --width 1000 pinned-threads} on every recording in one JVM
   * (JfrViewProgram): the command the {@code jfr} launcher runs, on the launcher's JDK, each view
   * written to a file of its own with the bytes the launcher would print.
   */
  private static java.util.Map<Path, Path> runJfr(Path jfr, List<Path> recordings) {
    try {
      Path dir = Files.createTempDirectory("vtscope-jfr-view-");
      TestRecordings.deleteAtExit(dir);
      java.util.Map<Path, Path> views = new java.util.LinkedHashMap<>();
      List<String> command =
          new ArrayList<>(
              List.of(
                  jfr.resolveSibling("java").toString(),
                  // the client compiler and serial GC: less CPU for a short run, the same output
                  "-XX:TieredStopAtLevel=1",
                  "-XX:+UseSerialGC",
                  "--add-exports=jdk.jfr/jdk.jfr.internal.tool=ALL-UNNAMED",
                  "-cp",
                  System.getProperty("java.class.path"),
                  JfrViewProgram.class.getName(),
                  "--width",
                  "1000",
                  "pinned-threads",
                  "--"));
      for (Path recording : recordings) {
        Path view = dir.resolve(views.size() + ".txt");
        views.put(recording, view);
        command.add(recording.toString());
        command.add(view.toString());
      }
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      byte[] out = process.getInputStream().readAllBytes();
      assertThat(process.waitFor(300, TimeUnit.SECONDS)).isTrue();
      String text = new String(out, StandardCharsets.UTF_8);
      assertThat(process.exitValue()).as("jfr view exit code; output:\n" + text).isZero();
      return views;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Formats a duration as {@code jfr view} prints it: below one second three significant digits in
   * milliseconds, below one minute three significant digits in seconds, then whole units.
   */
  public static String formatLikeJfr(long nanos) {
    Duration d = Duration.ofNanos(nanos);
    if (d.isZero()) {
      return "0 s";
    }
    if (d.compareTo(Duration.ofNanos(1_000)) < 0) {
      return String.format(Locale.ROOT, "%.6f ms", nanos / 1e6);
    }
    if (d.compareTo(Duration.ofSeconds(1)) < 0) {
      int digits = Long.toString(nanos).length();
      long unit = (long) Math.pow(10, digits - 3);
      long rounded = Math.round((double) nanos / unit) * unit;
      if (rounded >= 1_000_000_000L) {
        return formatLikeJfr(rounded);
      }
      int decimals = 9 - Long.toString(rounded).length();
      return String.format(Locale.ROOT, "%." + decimals + "f ms", rounded / 1e6);
    }
    if (d.compareTo(Duration.ofMinutes(1)) < 0) {
      long seconds = d.toSecondsPart();
      int length = Long.toString(seconds).length();
      long unit = (long) Math.pow(10, length);
      long millis = Math.round((double) d.toMillisPart() / unit) * unit;
      Duration rounded = Duration.ofSeconds(seconds).plusMillis(millis);
      if (rounded.compareTo(Duration.ofMinutes(1)) >= 0) {
        return formatLikeJfr(rounded.toNanos());
      }
      int len = Long.toString(rounded.toSecondsPart()).length();
      double value = rounded.toSecondsPart() + rounded.toMillisPart() / 1000.0;
      return String.format(Locale.ROOT, "%." + (3 - len) + "f s", value);
    }
    if (d.compareTo(Duration.ofHours(1)) < 0) {
      Duration r = d.plusMillis(500).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
      return r.toMinutesPart() + " m " + r.toSecondsPart() + " s";
    }
    if (d.compareTo(Duration.ofDays(1)) < 0) {
      Duration r = d.plusSeconds(30).truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
      return r.toHoursPart() + " h " + r.toMinutesPart() + " m";
    }
    Duration r = d.plusMinutes(30).truncatedTo(java.time.temporal.ChronoUnit.HOURS);
    return r.toDaysPart() + " d " + r.toHoursPart() + " h";
  }

  /** A method as {@code jfr view} names it: {@code pkg.Class.method(SimpleType, int[])}. */
  public static String methodLikeJfr(String className, String method, String descriptor) {
    List<String> params = new ArrayList<>();
    String d = descriptor.substring(1, descriptor.lastIndexOf(')'));
    for (int i = 0; i < d.length(); i++) {
      StringBuilder arrays = new StringBuilder();
      while (d.charAt(i) == '[') {
        arrays.append("[]");
        i++;
      }
      String type;
      char c = d.charAt(i);
      if (c == 'L') {
        int end = d.indexOf(';', i);
        String name = d.substring(i + 1, end).replace('/', '.');
        type = name.substring(name.lastIndexOf('.') + 1);
        i = end;
      } else {
        type =
            switch (c) {
              case 'I' -> "int";
              case 'J' -> "long";
              case 'Z' -> "boolean";
              case 'D' -> "double";
              case 'F' -> "float";
              case 'S' -> "short";
              case 'C' -> "char";
              case 'B' -> "byte";
              default -> "<unknown-descriptor-type>";
            };
      }
      params.add(type + arrays);
    }
    return className + "." + method + "(" + String.join(", ", params) + ")";
  }
}
