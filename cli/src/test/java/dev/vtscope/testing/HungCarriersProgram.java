package dev.vtscope.testing;

/**
 * A program for the tests of a recording's last thread dump, run in a child JVM under JFR with two
 * carriers ({@code -Djdk.virtualThreadScheduler.parallelism=2}): two virtual threads each run a
 * class's static initialiser that sleeps, which pins the carrier on every JDK (a class initialiser
 * is called by the VM, and a frame of the VM's cannot be unmounted), and the program exits while
 * they sleep, so the recording ends with every carrier pinned and no pinned event. With {@code
 * released} the initialisers sleep briefly, and the program exits after they end: the fixed twin.
 *
 * <p>Arguments: {@code held} or {@code released}, then how long to wait before exiting, in ms.
 */
public final class HungCarriersProgram {

  /** How long an initialiser sleeps: {@code released} makes it short. */
  static volatile long sleepMillis = 60_000;

  private HungCarriersProgram() {}

  public static void main(String[] args) throws Exception {
    boolean released = args.length > 0 && args[0].equals("released");
    long exitAfter = args.length > 1 ? Long.parseLong(args[1]) : 2_000;
    if (released) {
      sleepMillis = 100;
    }
    Thread first = Thread.ofVirtual().name("loads-first").start(() -> FirstTable.touch());
    Thread second = Thread.ofVirtual().name("loads-second").start(() -> SecondTable.touch());
    // a third virtual thread that never gets a carrier while both are held
    Thread.ofVirtual().name("starved").start(() -> {});
    Thread.sleep(exitAfter);
    if (released) {
      first.join();
      second.join();
    }
    // exits while the initialisers sleep: JFR writes the recording, its last thread dump included
    System.exit(0);
  }

  static void sleep() {
    try {
      Thread.sleep(sleepMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static final class FirstTable {
    static {
      sleep();
    }

    static void touch() {}
  }

  static final class SecondTable {
    static {
      sleep();
    }

    static void touch() {}
  }
}
