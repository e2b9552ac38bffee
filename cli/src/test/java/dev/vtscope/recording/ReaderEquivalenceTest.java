package dev.vtscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.GroupBy;
import dev.vtscope.testing.DeepStacksProgram;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * vtscope's own reader against the JDK's {@code jdk.jfr.consumer}, the oracle: on every sample,
 * recordings made here (several chunks of one JVM, deep and truncated stacks, a long string) and
 * recordings of different JVMs concatenated in one file, both readers must hand the listener the
 * same events and give the same JSON report, in every grouping.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReaderEquivalenceTest {

  @TempDir static Path generated;

  /** Every sample, fresh recordings of this JVM and JDK 21, and the generated set. */
  static Stream<Path> recordings() throws IOException {
    List<Path> all = new ArrayList<>(TestRecordings.samplesAndFreshRecordings());
    all.add(deepStacks(TestRecordings.jdk21Java()));
    all.add(deepStacks(TestRecordings.currentJava()));
    // ends with every carrier pinned: the last thread dumps hold them
    all.add(TestRecordings.recordHungCarriers(TestRecordings.currentJava(), "held"));
    all.add(
        TestRecordings.recordHungCarriers(
            TestRecordings.jdk21Java(), "held", "jdk.ThreadDump#period=500ms"));
    Path samples = TestRecordings.repoRoot().resolve("samples");
    all.add(
        concatenate(
            "cross-jvm.jfr",
            samples.resolve("jdk21/pinning-synchronized.jfr"),
            samples.resolve("jdk25/native-pinning.jfr"),
            samples.resolve("jdk21/submit-failed.jfr"),
            deepStacks(TestRecordings.jdk21Java())));
    all.add(
        concatenate(
            "duplicated.jfr",
            samples.resolve("jdk21/pinning-per-task.jfr"),
            samples.resolve("jdk21/pinning-per-task.jfr")));
    return all.stream();
  }

  /** A recording of several chunks of one JVM, deep stacks and a 20,000-character string. */
  static Path deepStacks(Path java) {
    return TestRecordings.recordTestProgram(
        java,
        List.of("-Dvtscope.test.long=" + "x".repeat(20_000)),
        DeepStacksProgram.class.getName(),
        "4");
  }

  static Path concatenate(String name, Path... parts) throws IOException {
    Path out = generated.resolve(name);
    try (OutputStream o = Files.newOutputStream(out)) {
      for (Path part : parts) {
        Files.copy(part, o);
      }
    }
    return out;
  }

  @ParameterizedTest
  @MethodSource("recordings")
  @Order(1)
  void bothReadersHandTheListenerTheSameEvents(Path recording) throws IOException {
    ChunkScan scan = ChunkScanner.scan(recording);
    Calls own = new Calls();
    Calls jdk = new Calls();
    try (JfrFileReader reader = new JfrFileReader()) {
      assertThat(reader.read(recording, scan, own).stoppedEarly()).isNull();
    }
    assertThat(new JfrStreamReader().read(recording, scan, jdk).stoppedEarly()).isNull();
    assertThat(own.calls).as("events of " + recording).isNotEmpty();
    assertThat(sorted(own.calls)).as(recording.toString()).isEqualTo(sorted(jdk.calls));
  }

  @ParameterizedTest
  @MethodSource("recordings")
  @Order(2)
  void bothReadersGiveTheSameReport(Path recording) throws IOException {
    for (GroupBy groupBy : GroupBy.values()) {
      var inputs = RecordingInputs.resolve(List.of(recording));
      String own = Reports.json(Reports.analyze(inputs, groupBy, ReaderKind.VTSCOPE));
      String jdk = Reports.json(Reports.analyze(inputs, groupBy, ReaderKind.JDK));
      assertThat(own).as(recording + " grouped by " + groupBy).isEqualTo(jdk);
    }
  }

  /** Every recording any test of this JVM made before, read by both. */
  @Test
  @Order(3)
  void everyRecordingTheTestsMadeReadsTheSame() throws IOException {
    List<Path> made = TestRecordings.made();
    assertThat(made).isNotEmpty();
    for (Path recording : made) {
      var inputs = RecordingInputs.resolve(List.of(recording));
      String own = Reports.json(Reports.analyze(inputs, GroupBy.CULPRIT, ReaderKind.VTSCOPE));
      String jdk = Reports.json(Reports.analyze(inputs, GroupBy.CULPRIT, ReaderKind.JDK));
      assertThat(own).as(recording.toString()).isEqualTo(jdk);
    }
  }

  private static List<String> sorted(List<String> calls) {
    return calls.stream().sorted().toList();
  }

  /** Every listener call, as text. */
  private static final class Calls implements RecordingListener {
    final List<String> calls = new ArrayList<>();

    @Override
    public void chunk(ChunkHeader header) {
      calls.add("chunk " + header);
    }

    @Override
    public void pinned(PinnedEvent event) {
      calls.add("pinned " + event);
    }

    @Override
    public void submitFailed(SubmitFailedEvent event) {
      calls.add("submitFailed " + event);
    }

    @Override
    public void monitor(MonitorEvent event) {
      calls.add("monitor " + event);
    }

    @Override
    public void threadStart(ThreadStartEvent event) {
      calls.add("threadStart " + event);
    }

    @Override
    public void jvm(JvmFacts facts) {
      calls.add("jvm " + facts);
    }

    @Override
    public void cpu(CpuFacts facts) {
      calls.add("cpu " + facts);
    }

    @Override
    public void systemProperty(String key, String value) {
      calls.add("property " + key + "=" + value);
    }

    @Override
    public void setting(EventSetting setting) {
      calls.add("setting " + setting);
    }

    @Override
    public void stackDepth(int depth) {
      calls.add("stackDepth " + depth);
    }

    @Override
    public void threadDump(ThreadDumpEvent event) {
      calls.add("threadDump " + event);
    }
  }
}
