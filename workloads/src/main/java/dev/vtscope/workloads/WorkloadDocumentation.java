package dev.vtscope.workloads;

import java.util.List;

/**
 * The documentation of the workloads that have two versions (a stand-in that says it needs JDK 22,
 * and the real one in the multi-release jar's JDK 22 classes): written once, here.
 */
final class WorkloadDocumentation {

  private WorkloadDocumentation() {}

  static final Documentation NATIVE_PINNING =
      new Documentation(
          List.of(25),
          "--threads 4 --block 25ms",
          "java-sort",
          "`native-pinning --threads 4 --block 25ms` (JDK 22+)",
          "native frames pin on every JDK",
          "JDK 25: 12 pins of ~25 ms, reason \"Native or VM frame on stack\"; on JDK 21 the workload says it needs JDK 22");

  static final Documentation POLLER_DEADLOCK =
      new Documentation(
          List.of(25),
          "--timeout 3s",
          "read-first",
          "`poller-deadlock --timeout 3s` / `--variant read-first` (JDK 22+)",
          "on JDK 25, two virtual threads pinned in blocking socket reads inside a native callback held both carriers while the read pollers, virtual threads themselves, could never run: a deadlock with zero pinned events",
          "JDK 25, 2 carriers: `upcall` 0 of 2 readers got their byte before the 3 s timeout (deadlocked), no `jdk.VirtualThreadPinned` for the readers until the timeout closed the sockets, then 2 of ~3.2 s, reason \"Native or VM frame on stack\" (recorded from the start, the JDK's read pollers sometimes wait a fraction of a millisecond for `sun.nio.ch.Poller`'s initialiser as they start, pinned: an info finding); with `--readers 1` (a carrier left free) the reader finished in 294 ms; `read-first` 2 of 2 in 353 ms. `vtscope watch --pid` names both readers pinned now, held by `PollerDeadlock.readInCallback`");

  static final List<WorkloadOption> NATIVE_PINNING_OPTIONS =
      List.of(
          WorkloadOption.count("threads", "4", "virtual threads that sort"),
          WorkloadOption.duration("block", "25ms", "how long each comparison blocks"));

  static final List<WorkloadOption> POLLER_DEADLOCK_OPTIONS =
      List.of(
          WorkloadOption.count(
              "readers",
              null,
              "virtual threads that read in a callback (default: the carriers, jdk.virtualThreadScheduler.parallelism or the CPUs)"),
          WorkloadOption.duration("timeout", "10s", "when the main thread closes the sockets"));
}
