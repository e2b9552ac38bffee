package dev.vtscope.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every sample's text and JSON reports equal the committed golden files beside it. On a mismatch
 * the actual report is written next to the golden file ({@code NAME.actual.txt}); run the suite
 * with {@code -Dvtscope.updateGolden=true} to accept a change.
 */
class GoldenReportTest {

  static Stream<Path> samples() {
    return TestRecordings.samples().stream();
  }

  @ParameterizedTest
  @MethodSource("samples")
  void textReportMatchesGolden(Path sample) throws IOException {
    compare(sample, ".txt", Reports.text(analyze(sample)));
  }

  @ParameterizedTest
  @MethodSource("samples")
  void jsonReportMatchesGolden(Path sample) throws IOException {
    compare(sample, ".json", Reports.json(analyze(sample)));
  }

  private static Analysis analyze(Path sample) {
    String name = TestRecordings.repoRoot().relativize(sample).toString().replace('\\', '/');
    return Reports.analyze(name, sample, GroupBy.CULPRIT);
  }

  private static void compare(Path sample, String extension, String actual) throws IOException {
    String base = sample.getFileName().toString().replaceFirst("\\.jfr$", "");
    compare(sample.resolveSibling(base + extension), actual);
  }

  /**
   * Compares {@code actual} with the golden file; on a mismatch writes it beside, as {@code
   * NAME.actual.EXT}.
   */
  static void compare(Path golden, String actual) throws IOException {
    String name = golden.getFileName().toString();
    int dot = name.lastIndexOf('.');
    Path actualFile =
        golden.resolveSibling(name.substring(0, dot) + ".actual" + name.substring(dot));
    if (Boolean.getBoolean("vtscope.updateGolden")) {
      Files.createDirectories(golden.getParent());
      Files.writeString(golden, actual, StandardCharsets.UTF_8);
      Files.deleteIfExists(actualFile);
      return;
    }
    assertThat(golden).as("golden file (create with -Dvtscope.updateGolden=true)").exists();
    String expected = Files.readString(golden, StandardCharsets.UTF_8);
    if (!expected.equals(actual)) {
      Files.writeString(actualFile, actual, StandardCharsets.UTF_8);
    } else {
      Files.deleteIfExists(actualFile);
    }
    assertThat(actual)
        .as("report " + golden + " (actual written to " + actualFile + ")")
        .isEqualTo(expected);
  }
}
