package dev.vtscope.gate;

import static dev.vtscope.testing.AnalysisBuilder.site;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Note;
import dev.vtscope.report.Report;
import dev.vtscope.report.TextReport;
import dev.vtscope.report.TextStyle;
import dev.vtscope.testing.AnalysisBuilder;
import dev.vtscope.testing.Words;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Two hand-built analyses compared: what the diff calls each culprit, and what it warns about. */
class DifferTest {

  private static String text(DiffResult d) {
    StringWriter out = new StringWriter();
    new TextReport(TextStyle.PLAIN).render(new Report.Compared(d), new PrintWriter(out));
    return out.toString();
  }

  /**
   * Pins of 10 ms recorded at a 0 ms threshold, then none at 20 ms: the after recording could not
   * have seen them, so nothing was fixed, and the diff says the thresholds differ.
   */
  @Test
  void pinsUnderTheAfterThresholdAreHiddenNotFixed() {
    Analysis before =
        AnalysisBuilder.jdk(21)
            .pinned(site("com.acme.Cache", "load").pins(200, Duration.ofMillis(10)))
            .build();
    Analysis after = AnalysisBuilder.jdk(21).pinnedThreshold(Duration.ofMillis(20)).build();

    DiffResult d = Differ.diff(before, after, 0.1);

    SiteChange cache = d.sites().get(0);
    assertThat(cache.status()).isEqualTo(SiteChange.Status.HIDDEN);
    assertThat(cache.hiddenByNanos()).isEqualTo(20_000_000L);
    assertThat(d.count(SiteChange.Status.FIXED)).isZero();
    assertThat(d.regression()).isFalse();
    assertThat(d.notes()).extracting(Note::id).containsExactly("diff-threshold");
    assertThat(Words.message(d.notes().get(0)))
        .startsWith(
            "jdk.VirtualThreadPinned was recorded with a threshold of 0 ms before and 20 ms"
                + " after: events shorter than 20 ms are in one recording only");
    assertThat(text(d))
        .contains(
            "  hidden pinned        com.acme.Cache.load  (synchronized method)\n"
                + "         2 s in 200 events -> 0 ms in 0 events  (every event shorter than the"
                + " after recording's threshold, 20 ms: it could not record them, not fixed)\n")
        .contains("  ! jdk.VirtualThreadPinned was recorded with a threshold of 0 ms before")
        .contains("0 fixed, 0 new, 0 worse, 0 better, 0 same (same: within 10% or 1 ms); 1 hidden")
        .doesNotContain("REGRESSION");

    // Backwards, the short pins are not new either: the before recording could not record them.
    DiffResult back = Differ.diff(after, before, 0.1);
    assertThat(back.sites().get(0).status()).isEqualTo(SiteChange.Status.HIDDEN);
    assertThat(back.regression()).isFalse();
    assertThat(text(back))
        .contains("before recording's threshold, 20 ms: it could not record them, not new");
  }

  /**
   * A recording made with the pinned event off could record no pin: its lack of one is no fix, nor
   * its pins new, whatever the thresholds say. The diff compares what it can and does not pass.
   */
  @Test
  void aRecordingThatCouldRecordNoPinShowsNoneFixedAndDoesNotPass() {
    Analysis before =
        AnalysisBuilder.jdk(21)
            .pinned(site("com.acme.Cache", "load").pins(3, Duration.ofMillis(50)))
            .monitorWait(site("com.acme.Pool", "take").pins(4, Duration.ofMillis(30)))
            .build();
    Analysis after =
        AnalysisBuilder.jdk(21).pinnedEventOff().pinnedThreshold(Duration.ofMillis(20)).build();

    DiffResult d = Differ.diff(before, after, 0.1);

    assertThat(d.sites()).extracting(SiteChange::section).containsExactly("monitorWait");
    assertThat(d.sites().get(0).status()).isEqualTo(SiteChange.Status.FIXED);
    assertThat(d.pinningCompared()).isFalse();
    assertThat(d.regression()).isFalse();
    assertThat(d.passed()).isFalse();
    assertThat(d.notes()).extracting(Note::id).containsExactly("diff-pinned-off");
    assertThat(Words.message(d.notes().get(0)))
        .startsWith("jdk.VirtualThreadPinned was off after (hand-built.jfr)")
        .doesNotContain("threshold")
        .doesNotContain("20 ms");
    assertThat(text(d))
        .contains("  pinned  150 ms -> not recorded;")
        .contains("1 fixed, 0 new, 0 worse, 0 better, 0 same (same: within 10% or 1 ms)")
        .endsWith(": PINNING NOT COMPARED\n")
        .doesNotContain("  fixed  pinned");

    DiffResult back = Differ.diff(after, before, 0.1);
    assertThat(back.sites()).extracting(SiteChange::section).containsExactly("monitorWait");
    assertThat(back.passed()).isFalse();
    assertThat(Words.message(back.notes().get(0)))
        .startsWith("jdk.VirtualThreadPinned was off before (hand-built.jfr)");
  }

  /** A pin longer than the after threshold would have been recorded: its absence is a fix. */
  @Test
  void pinsTheAfterRecordingWouldHaveSeenAreFixed() {
    Analysis before =
        AnalysisBuilder.jdk(21)
            .pinned(site("com.acme.Cache", "load").pins(3, Duration.ofMillis(50)))
            .build();
    Analysis after = AnalysisBuilder.jdk(21).pinnedThreshold(Duration.ofMillis(20)).build();
    assertThat(Differ.diff(before, after, 0.1).sites().get(0).status())
        .isEqualTo(SiteChange.Status.FIXED);
  }

  @Test
  void saysWhenStackDepthsJdksOrLengthsDiffer() {
    Analysis before = AnalysisBuilder.jdk(21).recorded(Duration.ofSeconds(2)).build();
    Analysis after =
        AnalysisBuilder.jdk(25).recorded(Duration.ofSeconds(11)).stackDepth(16).build();

    DiffResult d = Differ.diff(before, after, 0.1);

    assertThat(d.notes())
        .extracting(Note::id)
        .containsExactly("diff-stack-depth", "diff-jdk", "diff-length");
    assertThat(d.notes().stream().map(Words::message))
        .anySatisfy(
            m ->
                assertThat(m)
                    .startsWith(
                        "The recordings were made with different stack depths (64 before, 16 after)"))
        .anySatisfy(
            m ->
                assertThat(m)
                    .startsWith(
                        "The recordings come from different JDK releases (JDK 21 before, JDK 25 after)"))
        .anySatisfy(
            m ->
                assertThat(m)
                    .startsWith(
                        "The recordings are of very different lengths (2 s before, 11 s after)"));
    // Alike recordings say nothing.
    assertThat(Differ.diff(before, before, 0.1).notes()).isEmpty();
  }
}
