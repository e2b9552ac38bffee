package dev.vtscope.junit;

import dev.vtscope.workloads.WorkloadArgs;
import dev.vtscope.workloads.Workloads;

/**
 * The project's workloads, run inside a test: a pinning scenario and its fixed twin per JDK range.
 * Monitors pin on JDK 21–23 only; a blocking foreign-function upcall pins on every JDK that has the
 * API (22+).
 */
final class Scenarios {

  static final int JDK = Runtime.version().feature();

  private Scenarios() {}

  /** Runs workload {@code name}'s {@code variant} with {@code args} ({@code --key value}). */
  static void run(String name, String variant, String... args) throws Exception {
    String[] all = new String[args.length + 2];
    all[0] = "--variant";
    all[1] = variant;
    System.arraycopy(args, 0, all, 2, args.length);
    var workload = Workloads.find(name).orElseThrow();
    workload.run(WorkloadArgs.parse(java.util.List.of(all), workload));
  }

  /** 20 virtual threads sleep 5 ms each inside one synchronized block (pins on JDK 21–23). */
  static void synchronizedBlock() throws Exception {
    run("pinning", "synchronized", "--tasks", "20", "--hold", "5ms");
  }

  /** The fixed twin: the same with a ReentrantLock. */
  static void reentrantLock() throws Exception {
    run("pinning", "reentrant-lock", "--tasks", "20", "--hold", "5ms");
  }

  /** 2 virtual threads block 5 ms per comparison inside C qsort's callback (JDK 22+). */
  static void foreignUpcall() throws Exception {
    run("native-pinning", "upcall", "--threads", "2", "--block", "5ms");
  }

  /** The fixed twin: the same comparisons in Arrays.sort. */
  static void javaSort() throws Exception {
    run("native-pinning", "java-sort", "--threads", "2", "--block", "5ms");
  }

  /** A scenario that pins on the JDK running the tests. */
  static void pinsOnThisJdk() throws Exception {
    if (JDK < 24) {
      synchronizedBlock();
    } else {
      foreignUpcall();
    }
  }

  /** The method that holds the carrier in {@link #pinsOnThisJdk}, as {@code Class.method}. */
  static String holderMethodOnThisJdk() {
    return holderClassOnThisJdk() + (JDK < 24 ? ".withMonitor" : ".sortNatively");
  }

  /** The class of the code that holds the carrier in {@link #pinsOnThisJdk}. */
  static String holderClassOnThisJdk() {
    return JDK < 24
        ? "dev.vtscope.workloads.SharedLockPinning"
        : "dev.vtscope.workloads.ForeignCallPinning";
  }
}
