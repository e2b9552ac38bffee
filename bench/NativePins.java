import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.locks.LockSupport;

/**
 * Pins a virtual thread on JDK 24 and later, where a {@code synchronized} block no longer does: the
 * thread parks inside a comparator that the C library's {@code qsort} calls back, with qsort's
 * native frame on the stack. Compiled for JDK 22+ (the foreign-function API) apart from {@code
 * LargeRecording}, which stays loadable on JDK 21 and calls this only in the allocation-heavy shape.
 */
public final class NativePins implements Runnable {

  private static final Linker LINKER = Linker.nativeLinker();
  private static final MethodHandle QSORT =
      LINKER.downcallHandle(
          LINKER.defaultLookup().find("qsort").orElseThrow(),
          FunctionDescriptor.ofVoid(
              ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));

  /** One upcall stub for every call: making one per call would spin code each time. */
  private static final MemorySegment COMPARATOR;

  static {
    try {
      MethodHandle compare =
          MethodHandles.lookup()
              .findStatic(
                  NativePins.class,
                  "compare",
                  MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
      COMPARATOR =
          LINKER.upcallStub(
              compare,
              FunctionDescriptor.of(
                  ValueLayout.JAVA_INT,
                  ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT),
                  ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT)),
              Arena.global());
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @Override
  public void run() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment array = arena.allocateFrom(ValueLayout.JAVA_INT, 2, 1);
      QSORT.invokeExact(array, 2L, ValueLayout.JAVA_INT.byteSize(), COMPARATOR);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  /** The comparator C calls back: it parks, which pins the virtual thread to its carrier. */
  static int compare(MemorySegment a, MemorySegment b) {
    LockSupport.parkNanos(20_000);
    return Integer.compare(a.get(ValueLayout.JAVA_INT, 0), b.get(ValueLayout.JAVA_INT, 0));
  }
}
