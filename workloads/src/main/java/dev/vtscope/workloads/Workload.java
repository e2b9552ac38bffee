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

  /** Runs the workload and returns what it measured. */
  WorkloadResult run(WorkloadArgs args) throws Exception;
}
