package dev.vtscope.workloads;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A deadlock with no pinned event: as many virtual threads as the scheduler has carriers each make
 * a blocking socket read inside a foreign-function upcall (a C {@code qsort} comparator). The
 * native frame pins each one to its carrier while it waits, so every carrier is held. The bytes
 * they wait for arrive, but the JDK's read pollers, which would wake them, are themselves virtual
 * threads (Linux, recent JDKs) and can never get a carrier again. A pinned event is written when a
 * pin ends, so JFR writes none; only a thread dump shows the carriers pinned now.
 *
 * <p>Bounded: after {@code --timeout} (default 10 s) the main thread, a platform thread, closes the
 * sockets, which wakes the readers, and the workload ends, saying how many readers had got their
 * byte before that.
 *
 * <p>Variants: {@code upcall} reads inside the comparator; {@code read-first} (the fixed twin)
 * reads the same byte before the downcall and only sorts in it, so nothing blocks under the native
 * frame and every reader finishes at once.
 *
 * <p>Events and finding: on JDK 25, no {@code jdk.VirtualThreadPinned} for the readers until the
 * timeout (then one per reader, as long as the timeout; recorded from the start, the read pollers
 * may pin for a fraction of a millisecond as they start, waiting for their class's initialiser); {@code vtscope watch} shows the readers pinned now, held by
 * the FOREIGN_FUNCTION culprit {@link #readInCallback}. JDK range: 22+ (the foreign-function API);
 * the deadlock needs read pollers that are virtual threads, measured on JDK 25.
 */
public final class PollerDeadlock implements Workload {

  private static final List<Socket> CONNECTIONS = new ArrayList<>();
  private static final AtomicInteger NEXT = new AtomicInteger();

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
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int readers = args.integer("readers", Hang.carriers());
    Duration timeout = args.duration("timeout");
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
                PollerDeadlock.class,
                upcall ? "readAndCompare" : "compare",
                MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
    // one stub for every reader, made before they start: stubs made at once contend for a lock of
    // the JDK's, which would pin briefly on its own
    MemorySegment comparator =
        linker.upcallStub(
            compare,
            FunctionDescriptor.of(
                ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT),
                ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT)),
            Arena.global());
    warmUpForeignCalls(linker, qsort);
    long start = System.nanoTime();
    AtomicInteger done = new AtomicInteger();
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      warmUpPollers(server);
      List<Socket> accepted = new ArrayList<>();
      for (int i = 0; i < readers; i++) {
        CONNECTIONS.add(new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort()));
        accepted.add(server.accept());
      }
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < readers; i++) {
        threads.add(
            Thread.ofVirtual()
                .name("reader-" + i)
                .start(
                    () -> {
                      if (readInCallback(qsort, comparator, upcall)) {
                        done.incrementAndGet();
                      }
                    }));
      }
      // the readers are parked in their reads (or finished, in the fixed twin) by now; then the
      // bytes they wait for arrive
      Thread.sleep(200);
      for (Socket s : accepted) {
        s.getOutputStream().write(1);
        s.getOutputStream().flush();
      }
      long deadline = System.nanoTime() + timeout.toNanos();
      for (Thread t : threads) {
        t.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
      }
      int before = done.get();
      for (Socket s : CONNECTIONS) {
        s.close(); // wakes a reader still parked in its read
      }
      for (Socket s : accepted) {
        s.close();
      }
      for (Thread t : threads) {
        t.join(Duration.ofSeconds(5));
      }
      double millis = (System.nanoTime() - start) / 1e6;
      return new WorkloadResult(name(), args.variant())
          .figure("readers", readers)
          .figure("readersDoneBeforeTimeout", before)
          .figure("deadlocked", before < readers)
          .figure("timeoutMillis", timeout.toMillis())
          .figure("wallMillis", Math.round(millis * 10) / 10.0);
    }
  }

  /**
   * One sort through qsort on this platform thread, so that the JDK initialises its
   * foreign-function classes before the readers race to (a class initialiser pins a virtual
   * thread that waits for it).
   */
  private static void warmUpForeignCalls(Linker linker, MethodHandle qsort) throws Exception {
    MethodHandle compare =
        MethodHandles.lookup()
            .findStatic(
                PollerDeadlock.class,
                "compare",
                MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment comparator =
          linker.upcallStub(
              compare,
              FunctionDescriptor.of(
                  ValueLayout.JAVA_INT,
                  ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT),
                  ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT)),
              arena);
      MemorySegment array = arena.allocateFrom(ValueLayout.JAVA_INT, 2, 1);
      try {
        qsort.invokeExact(array, 2L, ValueLayout.JAVA_INT.byteSize(), comparator);
      } catch (Exception | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException(t);
      }
    }
  }

  /**
   * One virtual thread's blocking read on a loopback connection, so that the JDK starts its read
   * pollers before the readers pin every carrier.
   */
  private static void warmUpPollers(ServerSocket server) throws Exception {
    try (Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
        Socket peer = server.accept()) {
      Thread reader =
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      client.getInputStream().read();
                    } catch (IOException e) {
                      // closed: the pollers are started either way
                    }
                  });
      Thread.sleep(50);
      peer.getOutputStream().write(1);
      reader.join(Duration.ofSeconds(5));
    }
  }

  /**
   * Sorts two ints with C {@code qsort}; with {@code upcall} its comparator reads this thread's
   * connection, under qsort's native frame. Returns whether the byte was read.
   */
  private static boolean readInCallback(
      MethodHandle qsort, MemorySegment comparator, boolean upcall) {
    int index = NEXT.getAndIncrement();
    READER.set(CONNECTIONS.get(index));
    try (Arena arena = Arena.ofConfined()) {
      if (!upcall && read() < 0) {
        return false;
      }
      MemorySegment array = arena.allocateFrom(ValueLayout.JAVA_INT, 2, 1);
      try {
        qsort.invokeExact(array, 2L, ValueLayout.JAVA_INT.byteSize(), comparator);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException(t);
      }
      return !upcall || READ_OK.get();
    } finally {
      READER.remove();
    }
  }

  private static final ThreadLocal<Socket> READER = new ThreadLocal<>();
  private static final ThreadLocal<Boolean> READ_OK = ThreadLocal.withInitial(() -> false);

  /** The comparator C calls back in {@code upcall}: reads the reply first, like a remote lookup. */
  static int readAndCompare(MemorySegment a, MemorySegment b) {
    READ_OK.set(read() >= 0);
    return compare(a, b);
  }

  /** The comparator of {@code read-first}: nothing blocks under the native frame. */
  static int compare(MemorySegment a, MemorySegment b) {
    return Integer.compare(a.get(ValueLayout.JAVA_INT, 0), b.get(ValueLayout.JAVA_INT, 0));
  }

  private static int read() {
    try {
      InputStream in = READER.get().getInputStream();
      return in.read();
    } catch (IOException e) {
      return -1; // closed at the timeout
    }
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
