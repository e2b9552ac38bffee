package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vtscope.testing.Cli;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.workloads.Workload;
import dev.vtscope.workloads.WorkloadArgs;
import dev.vtscope.workloads.WorkloadOption;
import dev.vtscope.workloads.Workloads;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A workload's options after {@code --}: {@code vtscope record} checks them before it starts the
 * workload's JVM, so a mistyped name or value is one line and exit 2, and {@code -- --help} lists
 * them. Nothing here records.
 */
class WorkloadOptionsTest {

  private static Cli.Result record(String... workloadArgs) {
    List<String> args = new java.util.ArrayList<>(List.of("record", "--workload", "pinning", "--"));
    args.addAll(List.of(workloadArgs));
    return Cli.run(args.toArray(String[]::new));
  }

  private static void refusedInOneLine(Cli.Result result, String message) {
    assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
    assertThat(result.out()).isEmpty();
    assertThat(result.err().lines().toList()).hasSize(1);
    assertThat(result.err()).startsWith("vtscope record: ").contains(message);
    assertThat(result.err()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void aValueOfTheWrongKindNamesTheOptionAndTheKind() {
    refusedInOneLine(
        record("--tasks", "abc"),
        "workload pinning: --tasks takes a whole number of 1 or more, not 'abc'");
    refusedInOneLine(record("--tasks", "0"), "--tasks takes a whole number of 1 or more");
    refusedInOneLine(
        record("--hold", "-5ms"), "--hold takes a duration like 50us, 10ms or 2s, not '-5ms'");
    refusedInOneLine(record("--hold=soon"), "--hold takes a duration");
    refusedInOneLine(record("--tasks"), "--tasks needs a value: a whole number of 1 or more");
    refusedInOneLine(record("--variant", "lock"), "--variant takes one of synchronized,");
  }

  @Test
  void theVariantIsRecordsOwnOptionNeverOneAfterTheDoubleDash() {
    String before =
        "--variant goes before --, as record's own option (record --workload pinning --variant"
            + " none): after -- the recording's file would name another variant";
    refusedInOneLine(record("--variant", "reentrant-lock"), before);
    refusedInOneLine(record("--variant=none", "--tasks", "5"), before);
    refusedInOneLine(
        Cli.run(
            "record",
            "--workload",
            "pinning",
            "--variant",
            "synchronized",
            "--",
            "--variant",
            "reentrant-lock"),
        before);
    assertThat(record("--help").out()).contains("vtscope record takes it before --");
  }

  @Test
  void anUnknownOptionIsRefusedWithTheNearestName() {
    refusedInOneLine(
        record("--takss", "5"),
        "workload pinning has no option '--takss'; did you mean '--tasks'?"
            + " ('vtscope record --workload pinning -- --help' lists its options)");
    Cli.Result bogus = record("--bogus", "5");
    refusedInOneLine(bogus, "workload pinning has no option '--bogus'");
    refusedInOneLine(record("200"), "unexpected argument '200'");
  }

  @Test
  void helpListsTheWorkloadsOptions() {
    Cli.Result help = record("--help");
    assertThat(help.exitCode()).as(help.err()).isZero();
    assertThat(help.out())
        .startsWith("Options of workload pinning (after --):")
        .contains("--variant V")
        .contains("--tasks N")
        .contains("(default 1000)")
        .contains("--hold DURATION")
        .contains("(default 10ms)")
        .contains("--json");
    assertThat(Cli.run("workloads").out()).contains("vtscope record --workload NAME -- --help");
  }

  @Test
  void everyWorkloadsDefaultsAreValuesOfTheirKind() {
    for (Workload w : Workloads.ALL) {
      String usage = WorkloadArgs.usage(w);
      for (WorkloadOption o : w.options()) {
        assertThat(usage).contains("--" + o.name() + " " + o.kind().label());
        if (o.defaultValue() != null) {
          WorkloadArgs given = WorkloadArgs.parse(List.of("--" + o.name(), o.defaultValue()), w);
          WorkloadArgs none = WorkloadArgs.parse(List.of(), w);
          if (o.kind() == WorkloadOption.Kind.COUNT) {
            assertThat(none.integer(o.name())).isEqualTo(given.integer(o.name())).isPositive();
          } else {
            assertThat(none.duration(o.name()))
                .isEqualTo(given.duration(o.name()))
                .isGreaterThanOrEqualTo(Duration.ZERO);
          }
        }
      }
    }
  }

  @Test
  void aWorkloadReadsOnlyTheOptionsItDeclares() {
    Workload pinning = Workloads.find("pinning").orElseThrow();
    WorkloadArgs args = WorkloadArgs.parse(List.of("--tasks", "7", "--json"), pinning);
    assertThat(args.integer("tasks")).isEqualTo(7);
    assertThat(args.json()).isTrue();
    assertThatThrownBy(() -> args.integer("threads"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("does not declare");
  }

  @Test
  void theWorkloadRunOnItsOwnSaysABadValueInOneLine() {
    TestRecordings.Run run =
        TestRecordings.runWorkload(TestRecordings.currentJava(), "pinning", "--tasks", "abc");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.output().strip())
        .isEqualTo("workload pinning: --tasks takes a whole number of 1 or more, not 'abc'");
  }
}
