package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.DumpAnalyzer.NamedDump;
import dev.vtscope.threaddump.DumpFacts;
import dev.vtscope.threaddump.DumpFormat;
import dev.vtscope.threaddump.Samples;
import dev.vtscope.threaddump.ThreadDump;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DumpAnalyzerTest {

  private static NamedDump dump(String name, long pid, String version, Instant at) {
    return new NamedDump(
        name,
        new ThreadDump(
            DumpFormat.JSON,
            at,
            pid,
            version,
            DumpFacts.NONE,
            List.of(),
            List.of(),
            List.of(),
            true,
            List.of()));
  }

  @Test
  void dumpsOfOneJvmAreASeriesAndThoseOfTwoAreNot() {
    Instant t = Instant.parse("2026-11-27T10:00:00Z");
    assertThat(
            DumpAnalyzer.whyNotOneJvm(
                List.of(dump("a", 7, "25.0.3", t), dump("b", 7, "25.0.3", t.plusSeconds(1)))))
        .isNull();
    // jstack names no pid, nor a version: it fits any
    assertThat(
            DumpAnalyzer.whyNotOneJvm(
                List.of(dump("a", 7, "25.0.3", t), dump("b", -1, null, null))))
        .isNull();
    assertThat(
            DumpAnalyzer.whyNotOneJvm(
                List.of(dump("a", 7, "25.0.3", t), dump("b", 8, "25.0.3", t))))
        .isEqualTo("the dumps are of 2 JVMs (pid 7 25.0.3, pid 8 25.0.3)");
    assertThat(
            DumpAnalyzer.whyNotOneJvm(
                List.of(dump("a", 7, "25.0.3", t), dump("b", 7, "21.0.8", t))))
        .startsWith("the dumps are of 2 JVMs");
  }

  @Test
  void aSeriesIsInTheOrderItsDumpsWereTaken() throws IOException {
    ThreadDump first = Samples.json("jdk25/semaphore-series/dump-1.json");
    ThreadDump third = Samples.json("jdk25/semaphore-series/dump-3.json");
    DumpAnalysis a =
        DumpAnalyzer.analyze(
            List.of(new NamedDump("third", third), new NamedDump("first", first)),
            AnalysisOptions.of(GroupBy.CULPRIT),
            null);
    assertThat(a.names()).containsExactly("first", "third");
    assertThat(a.series().span()).isPositive();
    assertThat(a.isSeries()).isTrue();
    assertThat(a.last().dump()).isSameAs(third);
  }
}
