package dev.vtscope.cli;

import dev.vtscope.workloads.Workload;
import dev.vtscope.workloads.Workloads;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/** {@code vtscope workloads}: the scenarios {@code vtscope record --workload} can run. */
@Command(
    name = "workloads",
    header = "Lists the workloads that vtscope record can run",
    mixinStandardHelpOptions = true,
    description =
        "Lists the workloads: what each reproduces, its variants, where the effect exists, and what vtscope should find.")
final class WorkloadsCommand implements Callable<Integer> {

  @Spec private picocli.CommandLine.Model.CommandSpec spec;

  /** What docs/scenarios/make-pages.sh records: name|jdks|arguments|fixed variant, a line each. */
  @picocli.CommandLine.Option(names = "--pages", hidden = true)
  private boolean pages;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (pages) {
      out.print(dev.vtscope.workloads.WorkloadDocs.pages());
      out.flush();
      return ExitCode.OK.code();
    }
    for (Workload w : Workloads.ALL) {
      out.println(w.name());
      out.println("  " + w.description());
      out.println(
          "  variants: "
              + String.join(", ", w.variants())
              + " (default "
              + w.variants().get(0)
              + ")");
      out.println("  effect on JDK " + w.effectJdks() + "; expect: " + w.expectedFinding());
    }
    out.println();
    out.println(
        "Run one: vtscope record --workload NAME [--variant V] [--jdk 21|25|PATH] [-- workload options]");
    out.flush();
    return ExitCode.OK.code();
  }
}
