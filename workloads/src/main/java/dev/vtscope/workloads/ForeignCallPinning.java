package dev.vtscope.workloads;

import java.util.List;

/**
 * Native pinning: virtual threads block inside a foreign-function upcall, with a native frame (the
 * C library's {@code qsort}) on the stack. This pins on every JDK, including 24+.
 *
 * <p>The foreign-function API is final from JDK 22; this jar carries the real workload for JDK 22
 * and later (a multi-release jar) and this stand-in for JDK 21, which says so.
 *
 * <p>Events and finding on JDK 22+: {@code jdk.VirtualThreadPinned} with reason "Native or VM frame
 * on stack" (JDK 24+), culprit kind FOREIGN_FUNCTION.
 */
public final class ForeignCallPinning implements Workload {

  @Override
  public String name() {
    return "native-pinning";
  }

  @Override
  public String description() {
    return "virtual threads block inside a foreign-function upcall (qsort comparator): pins on every JDK";
  }

  @Override
  public String effectJdks() {
    return "22+ (the foreign-function API)";
  }

  @Override
  public int minimumJdk() {
    return 22; // the foreign-function API is final from JDK 22
  }

  @Override
  public String expectedFinding() {
    return "FOREIGN_FUNCTION culprit: the Java frame that called qsort";
  }

  @Override
  public List<String> variants() {
    return List.of("upcall", "java-sort");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) {
    throw new UnsupportedOperationException(
        "native-pinning needs the foreign-function API, final in JDK 22; this JVM is "
            + Runtime.version().feature()
            + " (run it with --jdk 25)");
  }

  @Override
  public Documentation documentation() {
    return WorkloadDocumentation.NATIVE_PINNING;
  }

  @Override
  public List<WorkloadOption> options() {
    return WorkloadDocumentation.NATIVE_PINNING_OPTIONS;
  }
}
