package dev.vtscope.workloads;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Class-initialiser pinning: several virtual threads touch a class whose static initialiser blocks.
 *
 * <p>Variants: {@code lazy} (virtual threads race to initialise the class) and {@code eager} (the
 * fixed twin: the class is initialised before any virtual thread starts). Its options: see {@link
 * #options()}.
 *
 * <p>Events and finding: on JDK 24+ the thread running the initialiser pins with reason "VM call to
 * ...SlowInit.&lt;clinit&gt; on stack" and the others pin with "Waited for initialization of
 * ...SlowInit by another thread". On JDK 21–23 the blocking inside {@code <clinit>} pins too (a VM
 * frame is on the stack), without a reason field.
 */
public final class ClassInitPinning implements Workload {

  /** How long the static initialiser blocks; read by {@link SlowInit} when it initialises. */
  static volatile long initMillis = 100;

  /**
   * The virtual threads that have come to touch the class, the initialiser among them: the lazy
   * variant's initialiser waits for a second before it blocks, so that one always waits for it,
   * however late a loaded machine starts the threads.
   */
  static final AtomicInteger ARRIVED = new AtomicInteger();

  /** How many must have come before the initialiser blocks: 2 lazily, 0 eagerly (none yet). */
  static volatile int arrivalsAwaited = 0;

  @Override
  public String name() {
    return "class-init";
  }

  @Override
  public String description() {
    return "virtual threads race to initialise a class whose static initialiser blocks";
  }

  @Override
  public String effectJdks() {
    return "21+";
  }

  @Override
  public String expectedFinding() {
    return "CLASS_INIT and CLASS_INIT_WAIT culprits (reasons on 24+)";
  }

  @Override
  public List<String> variants() {
    return List.of("lazy", "eager");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int threads = args.integer("threads");
    initMillis = args.duration("init").toMillis();
    String variant = args.variant();
    if (!variant.equals("lazy") && !variant.equals("eager")) {
      throw new IllegalArgumentException("unknown variant '" + variant + "'");
    }
    long start = System.nanoTime();
    if (variant.equals("eager")) {
      SlowInit.touch();
    }
    arrivalsAwaited = Math.min(2, threads);
    // loaded here, not initialised: the threads wait for its initialiser, not for its loading
    Class.forName(SlowInit.class.getName(), false, ClassInitPinning.class.getClassLoader());
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < threads; i++) {
        executor.submit(
            () -> {
              ARRIVED.incrementAndGet();
              return SlowInit.touch();
            });
      }
    }
    double millis = (System.nanoTime() - start) / 1e6;
    return new WorkloadResult(name(), variant)
        .figure("threads", threads)
        .figure("initMillis", initMillis)
        .figure("wallMillis", Math.round(millis * 10) / 10.0);
  }

  /**
   * A class whose static initialiser sleeps, as one that loads configuration over the network would
   * block.
   */
  static final class SlowInit {
    static final long READY;

    static {
      try {
        // a second thread on its way to the class (microseconds from waiting for it), or 2 s
        // (with one carrier, which this pins, none comes), whichever comes first: then the
        // blocking the recording is about
        long until = System.nanoTime() + 2_000_000_000L;
        while (ARRIVED.get() < arrivalsAwaited && System.nanoTime() < until) {
          Thread.sleep(1);
        }
        Thread.sleep(initMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      READY = System.nanoTime();
    }

    static long touch() {
      return READY;
    }

    private SlowInit() {}
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        java.util.List.of(25, 21),
        "--threads 8 --init 100ms",
        "eager",
        "`class-init --threads 8 --init 100ms`",
        "—",
        "JDK 25: both carriers pinned ~100 ms, with \"VM call to …<clinit> on stack\" and \"Waited for initialization of … by another thread\"");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count("threads", "8", "virtual threads that touch the class"),
        WorkloadOption.duration("init", "100ms", "how long the static initialiser blocks"));
  }
}
