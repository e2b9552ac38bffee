package dev.vtscope.workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Class-initialisation deadlocks of virtual threads, on every JDK: a thread that waits for another
 * thread's static initialiser holds its carrier (the wait is in the VM), and it waits for good when
 * the initialiser itself waits for a thread that cannot run.
 *
 * <p>Variants: {@code cycle} — virtual thread {@code initialiser} runs {@code Cycle.<clinit>},
 * which starts virtual thread {@code helper} and joins it, while {@code helper} waits for {@code
 * Cycle}'s initialisation. {@code carriers} — {@code initialiser} runs {@code Gate.<clinit>}, which
 * waits for a value virtual thread {@code config-loader} would deliver; the {@code user-N} threads,
 * sized to the carriers, wait for {@code Gate}'s initialisation and, with {@code initialiser}, hold
 * every carrier, so {@code config-loader} never runs. The fixed twin {@code no-wait}: the
 * initialiser computes its value itself and waits for no other thread; everything finishes. The
 * deadlocked variants say {@code ready:} once the threads are in place, and hang until stopped.
 *
 * <p>Events and finding: no JVM deadlock detector reports either. Only {@code Thread.print} names
 * the wait ("waiting on the Class initialization monitor for ...$Cycle" or "...$Gate": on JDK 21
 * under the carrier's frames, on 25 under the mounted virtual thread's); the JSON dump shows a
 * waiting thread with its stack ending at the frame that touched the class (JDK 25: {@code
 * RUNNABLE}, with a carrier). With {@code carriers}, {@code config-loader} never started (an empty
 * stack). JFR writes no pinned event while the pins last (on JDK 24+, one per waiter when the JVM
 * stops is not written either: the pins never end). JDK range: 21+.
 */
public final class ClassInitDeadlock implements Workload {

  /** How many threads are about to touch the class being initialised. */
  private static final AtomicInteger TOUCHING = new AtomicInteger();

  /** Counted down once {@code Gate.<clinit>} runs and waits. */
  private static final CountDownLatch GATE_ENTERED = new CountDownLatch(1);

  /** What {@code Gate.<clinit>} waits for: counted down by {@code config-loader}. */
  private static final CountDownLatch CONFIG_LOADED = new CountDownLatch(1);

  @Override
  public String name() {
    return "class-init-deadlock";
  }

  @Override
  public String description() {
    return "static initialisers that wait for other virtual threads: a class-init cycle, and every"
        + " carrier held by threads waiting for a class, on every JDK";
  }

  @Override
  public String effectJdks() {
    return "21+";
  }

  @Override
  public String expectedFinding() {
    return "no pinned event; Thread.print names the class-initialisation waits of threads that hold"
        + " carriers";
  }

  @Override
  public List<String> variants() {
    return List.of("cycle", "carriers", "no-wait");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int carriers = Hang.carriers();
    int threads = args.integer("threads", carriers);
    long start = System.nanoTime();
    switch (args.variant()) {
      case "cycle" -> {
        Thread initialiser = Thread.ofVirtual().name("initialiser").start(() -> use(Cycle.VALUE));
        Hang.until(() -> TOUCHING.get() == 1 && initialiser.getState() == Thread.State.WAITING);
        Hang.ready("initialiser joins helper in Cycle.<clinit>; helper waits for Cycle");
        return Hang.forever();
      }
      case "carriers" -> {
        Thread.ofVirtual().name("initialiser").start(() -> use(Gate.VALUE));
        GATE_ENTERED.await();
        for (int i = 0; i < threads; i++) {
          Thread.ofVirtual()
              .name("user-" + i)
              .start(
                  () -> {
                    TOUCHING.incrementAndGet();
                    use(Gate.VALUE);
                  });
        }
        // the initialiser holds one carrier; users that touch the class hold the others, and
        // never let go of them once they do
        int holding = Math.min(threads, carriers - 1);
        Hang.until(() -> TOUCHING.get() >= holding);
        Thread.ofVirtual().name("config-loader").start(CONFIG_LOADED::countDown);
        Hang.ready(
            "initialiser waits in Gate.<clinit> for config-loader; "
                + holding
                + " of "
                + threads
                + " users wait for Gate and hold the other carriers");
        return Hang.forever();
      }
      default -> {
        List<Thread> users = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
          users.add(Thread.ofVirtual().name("user-" + i).start(() -> use(SelfContained.VALUE)));
        }
        for (Thread t : users) {
          t.join();
        }
        return new WorkloadResult(name(), args.variant())
            .figure("threads", threads)
            .figure("deadlocked", false)
            .figure("wallMillis", Math.round((System.nanoTime() - start) / 1e5) / 10.0);
      }
    }
  }

  /** What {@code helper} runs: it needs {@code Cycle}, which its initialiser's thread holds. */
  private static void touchCycle() {
    TOUCHING.incrementAndGet();
    use(Cycle.VALUE);
  }

  private static void use(int value) {
    if (value < 0) {
      throw new IllegalStateException("initialised wrong: " + value);
    }
  }

  /** Its initialiser joins a thread that needs the class: a cycle through class initialisation. */
  static final class Cycle {
    static final int VALUE;

    static {
      // a method of another class: a lambda here would be Cycle's, and wait before it began
      Thread helper = Thread.ofVirtual().name("helper").start(ClassInitDeadlock::touchCycle);
      try {
        helper.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      VALUE = 1;
    }

    private Cycle() {}
  }

  /** Its initialiser waits for another virtual thread to deliver its configuration. */
  static final class Gate {
    static final int VALUE;

    static {
      GATE_ENTERED.countDown();
      try {
        CONFIG_LOADED.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      VALUE = 2;
    }

    private Gate() {}
  }

  /** The fixed twin: its initialiser makes its value itself. */
  static final class SelfContained {
    static final int VALUE = Integer.parseInt("3");

    private SelfContained() {}
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        List.of(25, 21),
        "",
        "no-wait",
        "`class-init-deadlock` / `--variant carriers` / `--variant no-wait`",
        "a virtual thread waiting for a class's initialisation pins its carrier on every JDK"
            + " release",
        "JDK 21 and 25, 2 carriers: `cycle` and `carriers` hang until stopped with no pinned"
            + " event; `Thread.print` names each class-initialisation wait; `no-wait` ends at once");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count(
            "threads",
            null,
            "virtual threads that touch the class (default: the carriers,"
                + " jdk.virtualThreadScheduler.parallelism or the CPUs)"));
  }
}
