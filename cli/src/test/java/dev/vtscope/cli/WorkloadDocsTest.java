package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.workloads.Workload;
import dev.vtscope.workloads.WorkloadDocs;
import dev.vtscope.workloads.Workloads;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * What the documentation says of each workload is written once, in the workload's class: the tables
 * of docs/workloads.md and docs/scenarios/README.md are the generated ones, and make-pages.sh
 * records from the same list.
 */
class WorkloadDocsTest {

  private static final String HOW =
      " (change the workload classes, then run: java -cp cli/target/vtscope.jar"
          + " dev.vtscope.workloads.WorkloadDocs write .)";

  @Test
  void theTablesAreGeneratedFromTheWorkloads() throws Exception {
    Path docs = TestRecordings.repoRoot().resolve("docs");
    assertThat(WorkloadDocs.generated(Files.readString(docs.resolve("workloads.md"))))
        .as("docs/workloads.md" + HOW)
        .isEqualTo(WorkloadDocs.workloadsTable());
    assertThat(WorkloadDocs.generated(Files.readString(docs.resolve("scenarios/README.md"))))
        .as("docs/scenarios/README.md" + HOW)
        .isEqualTo(WorkloadDocs.scenariosTable());
  }

  @Test
  void everyWorkloadHasItsPageAndTheListMakePagesReads() {
    Path scenarios = TestRecordings.repoRoot().resolve("docs/scenarios");
    Cli.Result pages = Cli.run("workloads", "--pages");
    assertThat(pages.exitCode()).isZero();
    assertThat(pages.out().lines()).hasSize(Workloads.ALL.size());
    for (Workload w : Workloads.ALL) {
      assertThat(scenarios.resolve(w.name() + ".md")).isRegularFile();
      assertThat(pages.out()).contains(w.name() + "|");
      assertThat(w.documentation().recordedOn()).allMatch(jdk -> jdk >= w.minimumJdk());
      if (w.documentation().fixedVariant() != null) {
        assertThat(w.variants()).contains(w.documentation().fixedVariant());
      }
    }
  }
}
