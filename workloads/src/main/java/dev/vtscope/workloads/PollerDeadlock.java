package dev.vtscope.workloads;

import java.util.List;

/**
 * A deadlock with no pinned event: every carrier pinned in a socket read inside a foreign-function
 * upcall, while the read pollers that would wake the readers are virtual threads that can no longer
 * run.
 *
 * <p>The foreign-function API is final from JDK 22; this jar carries the real workload for JDK 22
 * and later (a multi-release jar) and this stand-in for JDK 21, which says so.
 *
 * <p>Events and finding on JDK 25: no {@code jdk.VirtualThreadPinned} until the timeout; {@code
 * vtscope watch} shows the readers pinned now, held by the FOREIGN_FUNCTION culprit.
 */
public final class PollerDeadlock implements Workload {

  @Override
  public String name() {
    return "poller-deadlock";
  }

  @Override
  public String description() {
    return "every carrier pinned in a socket read inside a foreign-function upcall: the read"
        + " pollers never run again, a deadlock with no pinned event";
  }

  @Override
  public String effectJdks() {
    return "25 (measured; needs the foreign-function API, 22+, and read pollers that are virtual"
        + " threads)";
  }

  @Override
  public int minimumJdk() {
    return 22; // the foreign-function API is final from JDK 22
  }

  @Override
  public String expectedFinding() {
    return "no pinned event; watch shows every carrier pinned now by readInCallback";
  }

  @Override
  public List<String> variants() {
    return List.of("upcall", "read-first");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) {
    throw new UnsupportedOperationException(
        "poller-deadlock needs the foreign-function API, final in JDK 22; this JVM is "
            + Runtime.version().feature()
            + " (run it with --jdk 25)");
  }

  @Override
  public Documentation documentation() {
    return WorkloadDocumentation.POLLER_DEADLOCK;
  }

  @Override
  public List<WorkloadOption> options() {
    return WorkloadDocumentation.POLLER_DEADLOCK_OPTIONS;
  }
}
