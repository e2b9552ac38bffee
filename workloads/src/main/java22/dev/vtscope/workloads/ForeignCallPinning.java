package dev.vtscope.workloads;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * Native pinning: virtual threads block inside a foreign-function upcall, with a native frame
 * (the C library's {@code qsort}) on the stack. This pins on every JDK, including 24+.
 *
 * <p>Variants: {@code upcall} sorts through C {@code qsort} with a Java comparator that blocks;
 * {@code java-sort} (the fixed twin) does the same blocking comparisons with {@code Arrays.sort},
 * with no native frame on the stack.
 *
 * <p>Events and finding on JDK 22+: {@code jdk.VirtualThreadPinned} with reason "Native or VM frame
 * on stack" (JDK 24+), culprit kind FOREIGN_FUNCTION: the upcall boundary, called from {@link
 * #sortNatively}.
 */
public final class ForeignCallPinning implements Workload {

  private static volatile long blockNanos;

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
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int threads = args.integer("threads");
    blockNanos = args.duration("block").toNanos();
    boolean upcall = args.variant().equals("upcall");
    Linker linker = Linker.nativeLinker();
    MethodHandle qsort =
        linker.downcallHandle(
            linker.defaultLookup().find("qsort").orElseThrow(),
            FunctionDescriptor.ofVoid(
                ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
    MethodHandle compare =
        MethodHandles.lookup()
            .findStatic(
                ForeignCallPinning.class,
                "compare",
                MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
    long start = System.nanoTime();
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < threads; i++) {
        executor.submit(
            () -> {
              if (upcall) {
                sortNatively(linker, qsort, compare);
              } else {
                sortInJava();
              }
              return null;
            });
      }
    }
    double millis = (System.nanoTime() - start) / 1e6;
    return new WorkloadResult(name(), args.variant())
        .figure("threads", threads)
        .figure("blockMillis", blockNanos / 1_000_000)
        .figure("wallMillis", Math.round(millis * 10) / 10.0);
  }

  /** Sorts three ints with C qsort; each comparison blocks in Java, under qsort's native frame. */
  private static void sortNatively(Linker linker, MethodHandle qsort, MethodHandle compare) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment comparator =
          linker.upcallStub(
              compare,
              FunctionDescriptor.of(
                  ValueLayout.JAVA_INT,
                  ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT),
                  ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT)),
              arena);
      MemorySegment array = arena.allocateFrom(ValueLayout.JAVA_INT, 3, 1, 2);
      try {
        qsort.invokeExact(array, 3L, ValueLayout.JAVA_INT.byteSize(), comparator);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException(t);
      }
    }
  }

  private static void sortInJava() {
    Integer[] values = {3, 1, 2};
    Arrays.sort(
        values,
        (a, b) -> {
          block();
          return Integer.compare(a, b);
        });
  }

  /** The comparator C calls back: blocks like a lookup over the network would. */
  static int compare(MemorySegment a, MemorySegment b) {
    block();
    return Integer.compare(a.get(ValueLayout.JAVA_INT, 0), b.get(ValueLayout.JAVA_INT, 0));
  }

  private static void block() {
    try {
      Thread.sleep(Duration.ofNanos(blockNanos));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
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
