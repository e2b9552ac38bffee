package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.testing.CarrierWorkProgram;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * vtscope's carrier-work figures equal what the JDK's own {@code jdk.jfr.consumer} gives when the
 * same definitions are applied to its events: execution and native-method samples of virtual
 * threads and their runs, file reads and writes of virtual threads, and thread starts that passed
 * through the pool's compensation. Recordings made here on JDK 21 and 25, read by both of vtscope's
 * readers.
 */
class CarrierWorkOracleTest {

  static Stream<Path> recordings() throws Exception {
    Path folder = Files.createTempDirectory("vtscope-carrier-work");
    TestRecordings.deleteAtExit(folder);
    List<String> settings = List.of("jdk.FileRead#threshold=0ms", "jdk.FileWrite#threshold=0ms");
    List<Path> made = new ArrayList<>();
    for (Path java : List.of(TestRecordings.jdk21Java(), TestRecordings.jdk24PlusJava())) {
      made.add(
          TestRecordings.recordTestProgram(
              java, settings, List.of(), CarrierWorkProgram.class.getName(), folder.toString()));
    }
    return made.stream();
  }

  /** The figures as the JDK's consumer API gives them. */
  record Expected(
      long samples,
      long nativeSamples,
      long runs,
      long longRuns,
      long longRunTotalNanos,
      long longestRunNanos,
      long fileIoEvents,
      long fileIoNanos,
      long compensated) {}

  static Expected oracle(Path recording) throws Exception {
    Map<Long, List<Long>> samplesByThread = new TreeMap<>();
    long samples = 0;
    long nativeSamples = 0;
    long fileIo = 0;
    long fileIoNanos = 0;
    long compensated = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
      String type = e.getEventType().getName();
      if (type.equals("jdk.ExecutionSample") || type.equals("jdk.NativeMethodSample")) {
        RecordedThread t = e.getThread("sampledThread");
        if (t != null && t.isVirtual()) {
          samples++;
          if (type.equals("jdk.NativeMethodSample")) {
            nativeSamples++;
          }
          samplesByThread
              .computeIfAbsent(t.getJavaThreadId(), id -> new ArrayList<>())
              .add(nanos(e.getStartTime()));
        }
      } else if (type.equals("jdk.FileRead") || type.equals("jdk.FileWrite")) {
        RecordedThread t = e.getThread();
        if (t != null && t.isVirtual()) {
          fileIo++;
          fileIoNanos += e.getDuration().toNanos();
        }
      } else if (type.equals("jdk.ThreadStart") && e.getStackTrace() != null) {
        for (RecordedFrame f : e.getStackTrace().getFrames()) {
          if (f.getMethod().getType().getName().equals("java.util.concurrent.ForkJoinPool")
              && f.getMethod().getName().equals("tryCompensate")) {
            compensated++;
            break;
          }
        }
      }
    }
    long runs = 0;
    long longRuns = 0;
    long longTotal = 0;
    long longest = 0;
    for (List<Long> times : samplesByThread.values()) {
      times.sort(null);
      long first = times.get(0);
      long last = first;
      for (int i = 1; i <= times.size(); i++) {
        if (i == times.size() || times.get(i) - last > CarrierWork.maxGapNanos()) {
          runs++;
          long length = last - first;
          longest = Math.max(longest, length);
          if (length >= CarrierWork.longRunNanos()) {
            longRuns++;
            longTotal += length;
          }
          if (i < times.size()) {
            first = times.get(i);
            last = first;
          }
        } else {
          last = times.get(i);
        }
      }
    }
    return new Expected(
        samples,
        nativeSamples,
        runs,
        longRuns,
        longTotal,
        longest,
        fileIo,
        fileIoNanos,
        compensated);
  }

  private static long nanos(java.time.Instant i) {
    return i.getEpochSecond() * 1_000_000_000L + i.getNano();
  }

  @ParameterizedTest
  @MethodSource("recordings")
  void bothReadersEqualTheJdksEvents(Path recording) throws Exception {
    Expected expected = oracle(recording);
    for (ReaderKind reader : ReaderKind.values()) {
      CarrierWork w =
          new Analyzer(reader.create(), GroupBy.CULPRIT)
              .analyze(RecordingInputs.resolve(List.of(recording)))
              .carrierWork();
      assertThat(w.samples()).as(reader + " samples").isEqualTo(expected.samples());
      assertThat(w.nativeSamples())
          .as(reader + " native samples")
          .isEqualTo(expected.nativeSamples());
      assertThat(w.runs()).as(reader + " runs").isEqualTo(expected.runs());
      assertThat(w.longRuns()).as(reader + " long runs").isEqualTo(expected.longRuns());
      // Instants from ticks may differ by a nanosecond between the readers.
      assertThat(w.longRunTotalNanos())
          .as(reader + " long-run time")
          .isBetween(expected.longRunTotalNanos() - 1000, expected.longRunTotalNanos() + 1000);
      assertThat(w.longestRunNanos())
          .as(reader + " longest run")
          .isBetween(expected.longestRunNanos() - 1000, expected.longestRunNanos() + 1000);
      assertThat(w.fileIo().count()).as(reader + " file I/O").isEqualTo(expected.fileIoEvents());
      assertThat(w.fileIo().totalNanos())
          .as(reader + " file I/O time")
          .isBetween(
              expected.fileIoNanos() - 1000 * expected.fileIoEvents(),
              expected.fileIoNanos() + 1000 * expected.fileIoEvents());
      assertThat(w.startStacks()).isTrue();
      assertThat(w.compensatedStarts())
          .as(reader + " compensated")
          .isEqualTo(expected.compensated());
      assertThat(w.runSites().stream().mapToLong(s -> s.durations().count()).sum())
          .isEqualTo(expected.longRuns());
    }
    // The program reads files on virtual threads on every JDK.
    assertThat(expected.fileIoEvents()).isPositive();
  }
}
