package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rejected tasks of a real custom scheduler: vtscope counts exactly the rejections the program saw.
 */
class SubmitFailedTest {

  @TempDir Path dir;

  private JsonNode recordShutdownScheduler(String jdkHome, String name) throws Exception {
    Cli.Result result =
        Cli.run(
            "record",
            "--workload",
            "submit-failed",
            "--variant",
            "shutdown",
            "--jdk",
            jdkHome,
            "--out",
            dir.resolve(name).toString(),
            "--format",
            "json",
            "--",
            "--threads",
            "25");
    assertThat(result.exitCode()).as(result.err()).isZero();
    Matcher rejected = Pattern.compile("rejected: (\\d+)").matcher(result.err());
    assertThat(rejected.find()).as(result.err()).isTrue();
    JsonNode report = new ObjectMapper().readTree(result.out());
    assertThat(report.at("/submitFailed/events").asLong())
        .isEqualTo(Long.parseLong(rejected.group(1)))
        .isEqualTo(25);
    return report;
  }

  @Test
  void everyRejectionIsCountedAndEqualRejectionsGroupTogether() throws Exception {
    Path[] javas = {TestRecordings.currentJava(), TestRecordings.jdk21Java()};
    for (int i = 0; i < javas.length; i++) {
      JsonNode report =
          recordShutdownScheduler(javas[i].getParent().getParent().toString(), "sf-" + i + ".jfr");
      // Each message names a different task object; they are one group all the same.
      assertThat(report.at("/submitFailed/groups")).hasSize(1);
      JsonNode group = report.at("/submitFailed/groups/0");
      assertThat(group.get("message").asText())
          .contains("rejected from")
          .contains("@…")
          .contains("Terminated");
      assertThat(group.get("example").asText()).matches(".*@[0-9a-f]+.*");
      assertThat(group.get("virtualThreads").asInt()).isEqualTo(25);
      assertThat(report.at("/pinned/events").asLong()).isZero();
    }
  }
}
