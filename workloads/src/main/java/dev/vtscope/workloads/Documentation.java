package dev.vtscope.workloads;

import java.util.List;

/**
 * What the documentation says of a workload, kept with the workload so that it is written once:
 * {@code docs/workloads.md}, {@code docs/scenarios/README.md} and the pages of {@code
 * docs/scenarios/make-pages.sh} are generated from it ({@link WorkloadDocs}). A workload returns it
 * from a method at the end of its class: the reference recordings in {@code samples/} name the
 * workloads' lines, which must keep matching the classes.
 *
 * @param recordedOn the JDK releases its scenario page records it on, the first also its fixed twin
 * @param arguments the workload options the page and the samples record it with (may be empty)
 * @param fixedVariant the variant that fixes it, recorded beside it; null when there is none
 * @param command the runs the measurements below come from, as Markdown
 * @param claimed what the source article claims, as Markdown ("—" when it claims nothing)
 * @param measured what this project's machine measured, as Markdown
 */
public record Documentation(
    List<Integer> recordedOn,
    String arguments,
    String fixedVariant,
    String command,
    String claimed,
    String measured) {

  public Documentation {
    recordedOn = List.copyOf(recordedOn);
  }
}
