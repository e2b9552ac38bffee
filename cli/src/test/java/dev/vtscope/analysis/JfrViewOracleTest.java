package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingInputs;
import dev.vtscope.testing.JfrViewOracle;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * vtscope's figures per top application frame equal those of the JDK's own {@code jfr view
 * pinned-threads}, on every sample and on recordings made here.
 */
class JfrViewOracleTest {

  static Stream<Path> recordings() {
    // A stack depth of 3 leaves no application frame on the stacks: jfr view's "N/A" group.
    Path shallow =
        TestRecordings.recordWorkload(
            TestRecordings.currentJava(),
            java.util.List.of("jdk.VirtualThreadPinned#threshold=0ms"),
            java.util.List.of("-XX:FlightRecorderOptions:stackdepth=3"),
            "class-init",
            "--threads",
            "2",
            "--init",
            "30ms");
    List<Path> all = new ArrayList<>(TestRecordings.samplesAndFreshRecordings());
    all.add(shallow);
    JfrViewOracle.prepare(all);
    return all.stream();
  }

  @ParameterizedTest
  @MethodSource("recordings")
  void countsLongestAndTotalEqualJfrView(Path recording) throws Exception {
    List<JfrViewOracle.Row> expected = JfrViewOracle.pinnedThreads(recording);
    Analysis analysis =
        new Analyzer(ReaderKind.VTSCOPE.create(), GroupBy.TOP_FRAME)
            .analyze(RecordingInputs.resolve(List.of(recording)));

    List<JfrViewOracle.Row> actual = new ArrayList<>();
    for (Site site : analysis.pinned().sites()) {
      var frame = site.topApplicationFrame();
      String method =
          frame == null
              ? "N/A"
              : JfrViewOracle.methodLikeJfr(frame.className(), frame.method(), frame.descriptor());
      actual.add(
          new JfrViewOracle.Row(
              method,
              site.durations().count(),
              JfrViewOracle.formatLikeJfr(site.durations().maxNanos()),
              JfrViewOracle.formatLikeJfr(site.durations().totalNanos())));
    }
    assertThat(actual).as(recording.toString()).containsExactlyInAnyOrderElementsOf(expected);
    long jfrEvents = expected.stream().mapToLong(JfrViewOracle.Row::count).sum();
    assertThat(analysis.pinned().events()).isEqualTo(jfrEvents);
  }
}
