package dev.vtscope.workloads;

import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;

/**
 * What a workload that hangs on purpose does: it waits until its threads are in the state it shows,
 * says so on one line that starts with {@value #READY} (what a test or a script waits for before it
 * takes a thread dump), and stays so until it is stopped ({@code vtscope record --timeout},
 * Ctrl-C). None of it sleeps a fixed time: on a loaded machine the state comes late.
 */
final class Hang {

  /** How the line that says the state is reached starts. */
  static final String READY = "ready:";

  /** How often a condition is looked at again: often enough, and no busy loop. */
  private static final long POLL_MILLIS = 5;

  private Hang() {}

  /** The carriers of the virtual-thread scheduler: its parallelism, or the CPUs. */
  static int carriers() {
    return Integer.getInteger(
        "jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());
  }

  /** Waits until {@code reached} holds, however long that takes. */
  static void until(BooleanSupplier reached) throws InterruptedException {
    while (!reached.getAsBoolean()) {
      Thread.sleep(POLL_MILLIS);
    }
  }

  /** Says on one line that the state is reached, and what it is. */
  static void ready(String state) {
    System.out.println(READY + " " + state);
    System.out.flush();
  }

  /** Waits until the JVM is stopped: the threads of a deadlock never end. */
  static WorkloadResult forever() throws InterruptedException {
    new CountDownLatch(1).await();
    throw new IllegalStateException("unreachable: nothing counts the latch down");
  }
}
