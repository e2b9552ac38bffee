package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.testing.JdkMonitorProgram;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * JDK frames are checked against the class files of the recording's JDK, not of the JDK running
 * vtscope: a JDK 21 recording that pins inside ConcurrentHashMap.compute names that monitor whether
 * vtscope runs on JDK 21 or 25, and says where it read the block; without an installed JDK of the
 * recording's release it says what is missing rather than that the cause is not there.
 */
class RecordingJdkClassFilesTest {

  private static Analysis analyze(Path recording, Supplier<List<Path>> jdkHomes) throws Exception {
    return new Analyzer(
            ReaderKind.VTSCOPE.create(),
            new AnalysisOptions(GroupBy.CULPRIT, List.of(), List.of(), jdkHomes))
        .analyze(List.of(new RecordingInput("jdk-monitor", List.of(recording), false)));
  }

  private static Culprit topCulprit(Analysis a) {
    assertThat(a.pinned().sites()).isNotEmpty();
    return a.pinned().sites().get(0).attribution().culprit();
  }

  @Test
  void aJdkOwnedMonitorOfAJdk21RecordingIsFoundWhicheverJdkRunsVtscope() throws Exception {
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk21Java(), "0ms", JdkMonitorProgram.class.getName());

    Analysis analysis = analyze(recording, Reports::installedJdks);
    Culprit culprit = topCulprit(analysis);
    assertThat(culprit.className()).isEqualTo("java.util.concurrent.ConcurrentHashMap");
    assertThat(culprit.method()).isEqualTo("compute");
    assertThat(culprit.kind()).isEqualTo(CulpritKind.SYNCHRONIZED_BLOCK);
    assertThat(culprit.detail()).contains("read from the class files of JDK 21.");
    assertThat(analysis.notes()).noneMatch(n -> n.id().equals("jdk-class-files-missing"));

    // the fix is where the program called into the JDK, never in the JDK's own code
    dev.vtscope.advice.Finding first =
        dev.vtscope.advice.Advisor.standard().advise(analysis).findings().get(0);
    assertThat(first.id()).isEqualTo("monitor-pinning");
    assertThat(first.title())
        .contains("entered from dev.vtscope.testing.JdkMonitorProgram.refresh");
    assertThat(first.actions().get(0))
        .contains("In dev.vtscope.testing.JdkMonitorProgram.refresh(")
        .contains("JdkMonitorProgram.load(")
        .doesNotContain("ReentrantLock instead of the monitor in java.util");

    if (Runtime.version().feature() != 21) {
      // only the running JDK to look in, and it is not the recording's release
      Analysis blind = analyze(recording, List::of);
      Culprit unknown = topCulprit(blind);
      assertThat(unknown.kind()).isEqualTo(CulpritKind.UNKNOWN);
      assertThat(unknown.detail())
          .contains("ConcurrentHashMap.compute")
          .contains("class files of the recording's JDK release were not found")
          .doesNotContain("not in the recorded stack")
          .doesNotContain("--classpath");
      assertThat(blind.notes())
          .anySatisfy(
              n -> {
                assertThat(n.id()).isEqualTo("jdk-class-files-missing");
                assertThat(n.message()).contains("install JDK 21.");
              });
    }
  }
}
