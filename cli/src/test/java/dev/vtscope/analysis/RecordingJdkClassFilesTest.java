package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.testing.JdkMonitorProgram;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.testing.Words;
import java.io.InputStream;
import java.nio.file.Files;
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
    assertThat(Words.title(first))
        .contains("entered from dev.vtscope.testing.JdkMonitorProgram.refresh");
    assertThat(Words.actions(first).get(0))
        .contains("In dev.vtscope.testing.JdkMonitorProgram.refresh(")
        .contains("JdkMonitorProgram.load(")
        .doesNotContain("ReentrantLock instead of the monitor in java.util");

    if (Runtime.version().feature() != 21) {
      // no JDK 21 to look in: vtscope's own table of the JDK 21 blocks answers
      Analysis table = analyze(recording, List::of);
      Culprit fromTable = topCulprit(table);
      assertThat(fromTable.qualifiedMethod())
          .isEqualTo("java.util.concurrent.ConcurrentHashMap.compute");
      assertThat(fromTable.kind()).isEqualTo(CulpritKind.SYNCHRONIZED_BLOCK);
      assertThat(fromTable.detail()).contains("from vtscope's table of the JDK 21.0.");
      assertThat(table.notes())
          .anySatisfy(n -> assertThat(n.id()).isEqualTo("jdk-monitor-table"))
          .noneMatch(n -> n.id().equals("jdk-class-files-missing"));
      assertThat(table.notes())
          .filteredOn(n -> n.id().equals("jdk-monitor-table"))
          .singleElement()
          .satisfies(n -> assertThat(Words.message(n)).startsWith("No JDK 21 is installed here:"));
    }

    if (Runtime.version().feature() != 21) {
      // a JDK 21 whose image is damaged (cut short after its index): passed over, said in a note,
      // and the table answers as if none were installed
      Path jdk21 = TestRecordings.jdk21Java().getParent().getParent();
      Path damaged =
          Files.createDirectories(Files.createTempDirectory("damaged-jdk").resolve("lib"));
      Files.copy(jdk21.resolve("release"), damaged.getParent().resolve("release"));
      Files.copy(jdk21.resolve("lib/jrt-fs.jar"), damaged.resolve("jrt-fs.jar"));
      try (InputStream in = Files.newInputStream(jdk21.resolve("lib/modules"))) {
        Files.write(damaged.resolve("modules"), in.readNBytes(1_500_000));
      }
      Analysis passedOver = analyze(recording, () -> List.of(damaged.getParent()));
      assertThat(topCulprit(passedOver).qualifiedMethod())
          .isEqualTo("java.util.concurrent.ConcurrentHashMap.compute");
      assertThat(passedOver.notes())
          .anySatisfy(n -> assertThat(n.id()).isEqualTo("jdk-unreadable"))
          .anySatisfy(n -> assertThat(n.id()).isEqualTo("jdk-monitor-table"));
      // one is installed: the table's note does not say none is
      assertThat(passedOver.notes())
          .filteredOn(n -> n.id().equals("jdk-monitor-table"))
          .singleElement()
          .satisfies(
              n ->
                  assertThat(Words.message(n))
                      .startsWith("No JDK 21 installed here could be read:"));
    }

    // a release neither installed nor in vtscope's tables (as a JDK 22 or 23 recording would be):
    // the report says what is missing rather than that the cause is not there
    RecordedStack stack = analysis.pinned().sites().get(0).stack();
    try (ClassBytesSource none = new ClassBytesSource(List.of(), "22.0.2", 22, List::of)) {
      Culprit unknown =
          new Attributor(none, new FrameOwnership(List.of())).pinned(stack, null).culprit();
      assertThat(unknown.kind()).isEqualTo(CulpritKind.UNKNOWN);
      assertThat(unknown.detail())
          .contains("ConcurrentHashMap.compute")
          .contains("class files of the recording's JDK release were not found")
          .doesNotContain("not in the recorded stack");
      assertThat(none.jdkClassesMissing()).isTrue();
    }
  }

  @Test
  void aMonitorHeldFurtherDownIsSaidBeforeAnyFixOfTheInnerOne() throws Exception {
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk21Java(),
            "0ms",
            dev.vtscope.testing.NestedMonitorProgram.class.getName());
    Analysis analysis = analyze(recording, Reports::installedJdks);
    Culprit inner = topCulprit(analysis);
    assertThat(inner.qualifiedMethod()).isEqualTo("dev.vtscope.testing.NestedMonitorProgram.load");

    // the contention on the same monitor may come first on a loaded machine: its waits then last
    // longer than the pins
    dev.vtscope.advice.Finding first =
        dev.vtscope.advice.Advisor.standard().advise(analysis).findings().stream()
            .filter(f -> f.id().equals("monitor-pinning"))
            .findFirst()
            .orElseThrow();
    assertThat(Words.actions(first).get(0))
        .contains("holds another monitor further down")
        .contains("java.util.concurrent.ConcurrentHashMap.compute")
        .contains("alone removes nothing")
        .contains("an asynchronous cache");
  }

  @Test
  void aJdkMonitorThatBlocksByItselfIsFixedAtTheCallNotInsideIt() throws Exception {
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk21Java(),
            "0ms",
            dev.vtscope.testing.JdkStreamMonitorProgram.class.getName());
    Analysis analysis = analyze(recording, Reports::installedJdks);
    Culprit culprit = topCulprit(analysis);
    assertThat(culprit.qualifiedMethod()).isEqualTo("java.io.BufferedInputStream.read");
    dev.vtscope.advice.Finding first =
        dev.vtscope.advice.Advisor.standard().advise(analysis).findings().get(0);
    assertThat(first.id()).isEqualTo("monitor-pinning");
    // nothing of the program runs inside the stream's monitor: no "move it out of what runs
    // inside", and no cache to suggest for a stream
    assertThat(Words.actions(first))
        .anySatisfy(
            a ->
                assertThat(a)
                    .contains("while the JDK blocks by itself")
                    .contains("from a platform thread"))
        .noneSatisfy(a -> assertThat(a).contains("runs code passed to it"))
        .noneSatisfy(a -> assertThat(a).contains("asynchronous cache"));
  }

  /**
   * The program synchronizes on a reader's lock and calls the reader, whose JDK code synchronizes
   * on it again and blocks in a socket read: the program's block is the culprit, the JDK's is
   * listed, and the advice never says that no code of the program runs inside the monitor.
   */
  @Test
  void aProgramsMonitorReenteredByAJdkReaderIsTheProgramsToChange() throws Exception {
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.jdk21Java(),
            "0ms",
            dev.vtscope.testing.LockedReaderProgram.class.getName());
    Analysis analysis = analyze(recording, Reports::installedJdks);
    dev.vtscope.analysis.Site site = analysis.pinned().sites().get(0);
    Culprit culprit = site.attribution().culprit();
    assertThat(culprit.qualifiedMethod())
        .isEqualTo("dev.vtscope.testing.LockedReaderProgram.readLine");
    assertThat(culprit.kind()).isEqualTo(dev.vtscope.attribution.CulpritKind.SYNCHRONIZED_BLOCK);
    assertThat(site.attribution().otherMonitorFrames())
        .extracting(m -> site.stack().frames().get(m.frameIndex()).className())
        .contains("java.io.BufferedReader");
    dev.vtscope.advice.Finding finding =
        dev.vtscope.advice.Advisor.standard().advise(analysis).findings().stream()
            .filter(f -> f.id().equals("monitor-pinning"))
            .findFirst()
            .orElseThrow();
    assertThat(Words.title(finding)).startsWith("dev.vtscope.testing.LockedReaderProgram.readLine");
    assertThat(Words.actions(finding))
        .anySatisfy(
            a ->
                assertThat(a)
                    .startsWith(
                        "Inside the monitor of dev.vtscope.testing.LockedReaderProgram.readLine,")
                    .contains("java.io.BufferedReader.readLine"))
        .noneSatisfy(a -> assertThat(a).contains("The monitor is the JDK's"))
        .noneSatisfy(a -> assertThat(a).contains("no code of"));
  }
}
