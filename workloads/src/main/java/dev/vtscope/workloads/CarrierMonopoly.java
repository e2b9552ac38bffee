package dev.vtscope.workloads;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Carrier monopolisation: virtual threads that keep their carrier busy without pinning it, so that
 * other virtual threads wait for a carrier. A probe, one virtual thread that sleeps {@code --probe}
 * (5 ms) again and again, measures how late it wakes: the time from its sleep's deadline until it
 * runs again. The tasks start once the probe is asleep; the probe stops when they have all ended. A
 * woken probe queues behind the tasks that wait for a carrier, so with more tasks than carriers it
 * is late by about the work length times the rounds the carriers need, not by one work length.
 *
 * <p>Variants, each with its fixed twin:
 *
 * <ul>
 *   <li>{@code cpu}: {@code --tasks} (2 × CPUs + 2) virtual threads compute for {@code --work} (300
 *       ms) each, never blocking; {@code cpu-offloaded} submits the same computations to a pool of
 *       max(1, CPUs − 1) platform threads and waits on the {@link Future}, which unmounts.
 *   <li>{@code spin}: each task busy-spins on a flag that a platform thread sets {@code --work}
 *       after the task began to wait; {@code spin-park} waits for the same hand-off on a {@link
 *       CountDownLatch}.
 *   <li>{@code file-io}: {@code --tasks} (16) virtual threads each open a temporary file of {@code
 *       --file-mib} (4) MiB and read it whole, over and over, for {@code --work}. Blocking file I/O
 *       does not unmount. On JDK 21 the scheduler compensates for the open and the reads by
 *       starting carriers, which the platform-thread figures show; JDK 23 dropped that for files
 *       opened for buffered I/O (JDK-8329593), so on JDK 25 the reads monopolise the carriers as
 *       {@code cpu} does. {@code file-io-offloaded} reads, a pass at a time, on a pool of CPUs
 *       platform threads and waits on the {@link Future}.
 * </ul>
 *
 * <p>Events and finding: no pinned event on any JDK; the harm is the probe's lateness. What shows
 * in JFR is samples of the tasks' virtual threads ({@code jdk.ExecutionSample}, and {@code
 * jdk.NativeMethodSample} in the file reads), and on JDK 21 for {@code file-io} the carriers'
 * {@code jdk.ThreadStart} from {@code ForkJoinPool.tryCompensate}. Effect on JDK 21+.
 */
public final class CarrierMonopoly implements Workload {

  /** Keeps the JIT from dropping the computations: each one's result is published here. */
  private static volatile long lastDigest;

  @Override
  public String name() {
    return "carrier-monopoly";
  }

  @Override
  public String description() {
    return "virtual threads that compute, spin or read files keep every carrier busy without"
        + " pinning: a sleeping probe wakes up late";
  }

  @Override
  public String effectJdks() {
    return "21+";
  }

  @Override
  public String expectedFinding() {
    return "no pinning: the carriers are busy running virtual threads (CPU samples)";
  }

  @Override
  public List<String> variants() {
    return List.of("cpu", "cpu-offloaded", "spin", "spin-park", "file-io", "file-io-offloaded");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    String variant = args.variant();
    int processors = Runtime.getRuntime().availableProcessors();
    boolean fileIo = variant.startsWith("file-io");
    int tasks = args.integer("tasks", fileIo ? 16 : 2 * processors + 2);
    Duration work = args.duration("work");
    Duration probeSleep = args.duration("probe");
    int fileMib = args.integer("file-mib");
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int threadsAtStart = threads.getThreadCount();
    threads.resetPeakThreadCount();

    WorkloadResult result =
        new WorkloadResult(name(), variant)
            .figure("tasks", tasks)
            .figure("workMillis", work.toMillis());
    try (TaskBody body = TaskBody.of(variant, work, processors, fileMib)) {
      Callable<Long> task = body::run;
      warmUp();
      LatenessProbe probe = LatenessProbe.start(probeSleep);
      long start = System.nanoTime();
      long units = 0;
      try (ExecutorService executor =
          Executors.newThreadPerTaskExecutor(
              Thread.ofVirtual().name("carrier-monopoly-task-", 0).factory())) {
        List<Future<Long>> results = new ArrayList<>();
        for (int i = 0; i < tasks; i++) {
          results.add(executor.submit(task));
        }
        for (Future<Long> done : results) {
          units += done.get();
        }
      }
      long end = System.nanoTime();
      long[] lateness = probe.stop(end);
      result
          .figure("elapsedMillis", (end - start) / 1_000_000)
          .figure("probeWakeups", lateness.length)
          .figure("probeLatenessP50Millis", millis(percentile(lateness, 0.50)))
          .figure("probeLatenessP99Millis", millis(percentile(lateness, 0.99)))
          .figure("probeLatenessMaxMillis", millis(percentile(lateness, 1.0)));
      body.describe(units, result);
    }
    return result
        .figure("platformThreadsAtStart", threadsAtStart)
        .figure("platformThreadsPeak", threads.getPeakThreadCount())
        .figure("platformThreadsAtEnd", threads.getThreadCount())
        .claim(
            "a monopolising variant delays other virtual threads by about the work length; its"
                + " fixed twin does not; file I/O makes JDK 21 start extra carriers");
  }

  /**
   * Starts and joins one virtual thread through an executor like the tasks' own, so that the JDK
   * code that starts them is loaded before the probe sleeps: otherwise the first wake-up can come
   * before the tasks hold the carriers.
   */
  private static void warmUp() throws Exception {
    try (ExecutorService executor =
        Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("carrier-monopoly-warm-up").factory())) {
      executor.submit(() -> 0L).get();
    }
  }

  /** The nearest-rank percentile of the sorted values, or 0 when there are none. */
  static long percentile(long[] sorted, double quantile) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(quantile * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  private static double millis(long nanos) {
    return Math.round(nanos / 10_000.0) / 100.0;
  }

  /**
   * One virtual thread that sleeps again and again and records how long after each sleep's deadline
   * it ran again: the time it waited for a carrier.
   */
  private static final class LatenessProbe implements Runnable {
    private final Duration sleep;
    private final CountDownLatch asleep = new CountDownLatch(1);
    private final List<long[]> wakeUps = new ArrayList<>();
    private volatile boolean stopping;
    private Thread thread;

    private LatenessProbe(Duration sleep) {
      this.sleep = sleep;
    }

    /** Starts the probe and returns once its first sleep has begun. */
    static LatenessProbe start(Duration sleep) throws InterruptedException {
      LatenessProbe probe = new LatenessProbe(sleep);
      probe.thread = Thread.ofVirtual().name("carrier-monopoly-probe").start(probe);
      probe.asleep.await();
      return probe;
    }

    @Override
    public void run() {
      try {
        do {
          long deadline = System.nanoTime() + sleep.toNanos();
          asleep.countDown();
          Thread.sleep(sleep);
          wakeUps.add(new long[] {deadline, System.nanoTime()});
        } while (!stopping);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /**
     * Stops the probe and returns, sorted, the lateness in nanoseconds of the wake-ups due while
     * the tasks ran (until {@code end}): the sleep the probe may begin after the tasks ended
     * measures an idle pool.
     */
    long[] stop(long end) throws InterruptedException {
      stopping = true;
      thread.join();
      return wakeUps.stream()
          .filter(w -> w[0] <= end)
          .mapToLong(w -> Math.max(0, w[1] - w[0]))
          .sorted()
          .toArray();
    }
  }

  /** What each task's virtual thread does, and the resources it needs for the run. */
  private interface TaskBody extends AutoCloseable {

    /** What one task does on its virtual thread; returns its units of work done. */
    long run() throws Exception;

    @Override
    void close() throws IOException;

    static TaskBody of(String variant, Duration work, int processors, int fileMib)
        throws IOException {
      return switch (variant) {
        case "cpu" -> new Computation(work, 0);
        case "cpu-offloaded" -> new Computation(work, Math.max(1, processors - 1));
        case "spin" -> new ConditionWait(work, SpinFlag::new);
        case "spin-park" -> new ConditionWait(work, LatchFlag::new);
        case "file-io" -> new FileReads(work, fileMib, 0);
        case "file-io-offloaded" -> new FileReads(work, fileMib, processors);
        default -> throw new IllegalArgumentException("no variant '" + variant + "'");
      };
    }

    /** Adds the figures that say what the tasks did, given the sum of {@link #run}'s results. */
    void describe(long units, WorkloadResult result);

    /** A fixed pool of named daemon platform threads, for the fixed twins. */
    static ExecutorService pool(int size) {
      ThreadFactory factory =
          Thread.ofPlatform().name("carrier-monopoly-offload-", 0).daemon(true).factory();
      return Executors.newFixedThreadPool(size, factory);
    }
  }

  /**
   * A numeric loop for {@code work}, on the virtual thread itself or on a platform pool. The
   * deadline is read once per round of {@value #ROUND} steps (about 0.1 ms), not per step.
   */
  private static final class Computation implements TaskBody {
    private static final int ROUND = 1 << 16;
    private final Duration work;
    private final int offloadThreads;
    private final ExecutorService offload;

    /** Computes on the virtual threads when {@code offloadThreads} is 0, else on a pool. */
    Computation(Duration work, int offloadThreads) {
      this.work = work;
      this.offloadThreads = offloadThreads;
      this.offload = offloadThreads == 0 ? null : TaskBody.pool(offloadThreads);
    }

    @Override
    public long run() throws Exception {
      return offload == null ? compute(work) : offload.submit(() -> compute(work)).get();
    }

    /** Mixes a 64-bit value (SplitMix64's finaliser) round after round; returns the rounds. */
    static long compute(Duration work) {
      long deadline = System.nanoTime() + work.toNanos();
      long value = 0x9E3779B97F4A7C15L;
      long rounds = 0;
      do {
        for (int i = 0; i < ROUND; i++) {
          value += 0x9E3779B97F4A7C15L;
          value = (value ^ (value >>> 30)) * 0xBF58476D1CE4E5B9L;
          value = (value ^ (value >>> 27)) * 0x94D049BB133111EBL;
          value ^= value >>> 31;
        }
        rounds++;
      } while (System.nanoTime() < deadline);
      lastDigest = value;
      return rounds;
    }

    @Override
    public void describe(long rounds, WorkloadResult result) {
      result.figure("computeRounds", rounds);
      if (offload != null) {
        result.figure("offloadThreads", offloadThreads);
      }
    }

    @Override
    public void close() {
      if (offload != null) {
        offload.close();
      }
    }
  }

  /** A condition another thread sets; the task waits for it in its own way. */
  private interface Flag {
    void set();

    /** Waits until set; returns how many times it spun. */
    long await() throws InterruptedException;
  }

  /** The monopolising wait: the virtual thread spins and never lets its carrier go. */
  private static final class SpinFlag implements Flag {
    private volatile boolean set;

    @Override
    public void set() {
      set = true;
    }

    @Override
    public long await() {
      long spins = 0;
      while (!set) {
        Thread.onSpinWait();
        spins++;
      }
      return spins;
    }
  }

  /** The fixed twin: the virtual thread parks on a latch and unmounts. */
  private static final class LatchFlag implements Flag {
    private final CountDownLatch latch = new CountDownLatch(1);

    @Override
    public void set() {
      latch.countDown();
    }

    @Override
    public long await() throws InterruptedException {
      latch.await();
      return 0;
    }
  }

  /** Each task waits for a flag that a platform thread sets {@code work} after the wait began. */
  private static final class ConditionWait implements TaskBody {
    private final Duration work;
    private final Supplier<Flag> flags;
    private final FlagSetter setter = new FlagSetter();

    ConditionWait(Duration work, Supplier<Flag> flags) {
      this.work = work;
      this.flags = flags;
    }

    @Override
    public long run() throws InterruptedException {
      Flag flag = flags.get();
      setter.setAfter(flag, work);
      return flag.await();
    }

    @Override
    public void describe(long spins, WorkloadResult result) {
      result.figure("spinIterations", spins);
    }

    @Override
    public void close() {
      setter.close();
    }
  }

  /**
   * One platform thread that sets each flag when it is due. Registering is lock-free, so that a
   * spinning task never parks, not even for a moment, before it spins: with a lock (a {@code
   * ScheduledExecutorService}'s queue) a task that found it taken would unmount, and could find its
   * flag already set when it ran again.
   */
  private static final class FlagSetter implements AutoCloseable {
    private record Due(Flag flag, long deadline) {}

    // Every delay is the same, so the order of registration is the order of the deadlines.
    private final Queue<Due> due = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean closed;

    FlagSetter() {
      thread = Thread.ofPlatform().name("carrier-monopoly-setter").daemon(true).start(this::run);
    }

    void setAfter(Flag flag, Duration delay) {
      due.add(new Due(flag, System.nanoTime() + delay.toNanos()));
    }

    private void run() {
      while (!closed) {
        Due next = due.peek();
        long wait = next == null ? 100_000 : next.deadline() - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        } else {
          due.poll().flag().set();
        }
      }
    }

    @Override
    public void close() {
      closed = true;
      LockSupport.unpark(thread);
    }
  }

  /**
   * Each task reads a temporary file whole, again and again, for {@code work}, through its own
   * {@link RandomAccessFile}: on the virtual thread, or one pass at a time on a platform pool. The
   * constructor writes the file, {@link #close} deletes it.
   */
  private static final class FileReads implements TaskBody {
    private static final int CHUNK = 256 * 1024;
    private final Duration work;
    private final Path file;
    private final int offloadThreads;
    private final ExecutorService offload;

    /** Reads on the virtual threads when {@code offloadThreads} is 0, else on a pool. */
    FileReads(Duration work, int mib, int offloadThreads) throws IOException {
      this.work = work;
      this.offloadThreads = offloadThreads;
      // In the working folder, by a relative name: a recording of it names no folder of the machine
      // (vtscope redact keeps file events only then). Deleted when the run ends.
      this.file = Files.createTempFile(Path.of(""), "vtscope-carrier-monopoly-", ".bin");
      byte[] pattern = new byte[CHUNK];
      for (int i = 0; i < pattern.length; i++) {
        pattern[i] = (byte) i;
      }
      try (var out = Files.newOutputStream(file)) {
        for (long written = 0; written < (long) mib << 20; written += CHUNK) {
          out.write(pattern);
        }
      } catch (IOException e) {
        Files.deleteIfExists(file);
        throw e;
      }
      this.offload = offloadThreads == 0 ? null : TaskBody.pool(offloadThreads);
    }

    @Override
    public long run() throws Exception {
      long deadline = System.nanoTime() + work.toNanos();
      long bytes = 0;
      byte[] buffer = new byte[CHUNK];
      try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
        do {
          bytes +=
              offload == null
                  ? readWhole(in, buffer)
                  : offload.submit(() -> readWhole(in, buffer)).get();
        } while (System.nanoTime() < deadline);
      }
      return bytes;
    }

    /** Reads the file from its start to its end: one pass, a chunk per blocking read. */
    private static long readWhole(RandomAccessFile in, byte[] buffer) throws IOException {
      long length = in.length();
      in.seek(0);
      for (long read = 0; read < length; read += buffer.length) {
        in.readFully(buffer);
      }
      return length;
    }

    @Override
    public void describe(long bytes, WorkloadResult result) {
      result.figure("mibRead", bytes >> 20);
      if (offload != null) {
        result.figure("offloadThreads", offloadThreads);
      }
    }

    @Override
    public void close() throws IOException {
      if (offload != null) {
        offload.close();
      }
      Files.deleteIfExists(file);
    }
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        java.util.List.of(21, 25),
        "",
        "cpu-offloaded",
        "`carrier-monopoly --variant cpu` / `cpu-offloaded`, `spin` / `spin-park`, `file-io` / `file-io-offloaded`",
        "a monopolising variant delays other virtual threads by about the work length (300 ms); its fixed twin does not; file I/O makes JDK 21 start extra carriers",
        "medians of 3, JDK 21 / 25, lateness of a probe that sleeps 5 ms (p50 · p99 · max, ms) and elapsed time: `cpu` (6 tasks) 899 · 899 · 899 / 901 · 901 · 901, 906 / 906 ms; `cpu-offloaded` 0.3 · 2.4 · 10.9 / 0.2 · 2.8 · 5.0, 1,806 / 1,810 ms (one pool thread on 2 CPUs); `spin` 899 · 903 · 903 / 3.8 · 902 · 902, 907 / 914 ms; `spin-park` 0.3 · 5.6 · 5.6 / 0.3 · 5.6 · 5.6, 309 / 316 ms; `file-io` (16 tasks) 0.3 · 179 · 179 / 299 · 2,394 · 2,394, 503 / 2,410 ms; `file-io-offloaded` 0.2 · 3.0 · 3.0 / 0.2 · 4.1 · 4.1, 306 / 308 ms. The probe is late by the work length times the rounds the carriers need, not by one work length: woken, it queues behind the tasks not yet started (6 tasks on 2 carriers: 3 rounds, ~900 ms; with `--tasks 2`, 299 / 301 ms). A monopolised probe wakes 1–3 times in a run, so its p50 is either its one late wake-up or an on-time one due before the tasks held both carriers (`spin` on JDK 25: 3.8 ms). File I/O: on JDK 21 the platform threads went from 6 to a peak of 24 (its JFR recording: 15 `jdk.ThreadStart` from `ForkJoinPool.tryCompensate`, 11 of them under `RandomAccessFile.open`, 2 under `readBytes`, 1 each under `length` and `seek`) and the reads finished in 503 ms; on JDK 25 from 6 to 10, as in `cpu`: no compensation for these reads, 16 × 300 ms / 2 carriers = 2.4 s and the probe waited all of it. No pinned event in any variant. vtscope names each monopolising variant (`carrier-monopoly` for `cpu` and `spin`; `file-io-carriers` for `file-io`, on JDK 25 from native-method samples in the file calls, on JDK 21 also from the compensating starts) and calls each twin healthy");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count(
            "tasks",
            null,
            "virtual threads that take the carriers (default 2 × CPUs + 2; 16 for file-io)"),
        WorkloadOption.duration("work", "300ms", "how long each task computes, spins or reads"),
        WorkloadOption.duration("probe", "5ms", "how long the probe sleeps between wake-ups"),
        WorkloadOption.count("file-mib", "4", "size of each file-io task's file, in MiB"));
  }
}
