package dev.vtscope.workloads;

import java.util.List;

/** One scenario: a name, what it shows, its variants, and a run that measures something. */
public interface Workload {

  /** The name users type, e.g. {@code pinning}. */
  String name();

  /** One line: what it reproduces. */
  String description();

  /** The variants; the first is the default. */
  List<String> variants();

  /** The options it takes besides {@code --variant}; the only ones it reads. */
  List<WorkloadOption> options();

  /** The JDK releases where the effect exists, e.g. {@code 21-23} or {@code 21+}. */
  String effectJdks();

  /** The lowest JDK feature release the workload runs on. */
  default int minimumJdk() {
    return 21;
  }

  /** The lowest JDK feature release where the effect no longer exists, or 0 if it exists on all. */
  default int effectGoneFrom() {
    return 0;
  }

  /** What the documentation says of it: the scenario pages and the claimed-vs-measured table. */
  Documentation documentation();

  /** What vtscope should report for the default variant, in a few words. */
  String expectedFinding();

  /** Runs the workload and returns what it measured. */
  WorkloadResult run(WorkloadArgs args) throws Exception;
}
