package dev.vtscope.cli;

import dev.vtscope.workloads.Workload;
import dev.vtscope.workloads.Workloads;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code vtscope workloads}: the scenarios {@code vtscope record --workload} can run. */
final class WorkloadsCommand implements Callable<Integer> {

  private final CommandSpec spec =
      Specs.command(
          this,
          "workloads",
          "Lists the workloads that vtscope record can run",
          "Lists the workloads: what each reproduces, its variants, where the effect exists, and"
              + " what vtscope should find.");

  /** What docs/scenarios/make-pages.sh records: name|jdks|arguments|fixed variant, a line each. */
  private boolean pages;

  WorkloadsCommand() {
    spec.addOption(
        Specs.option(() -> pages, v -> pages = v, "--pages")
            .type(boolean.class)
            .hidden(true)
            .build());
    Specs.helpOptions(spec);
  }

  /** The command's model, which picocli runs. */
  CommandSpec spec() {
    return spec;
  }

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
        "Run one: vtscope record --workload NAME [--variant V] [--jdk 21|25|PATH] [-- workload"
            + " options]; its options: vtscope record --workload NAME -- --help");
    out.flush();
    return ExitCode.OK.code();
  }
}
