import java.lang.reflect.Constructor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Recording;

/**
 * Makes a large, realistic recording for vtscope's benchmarks: run under JFR on JDK 21 (where a
 * synchronized block pins) until the recording reaches the size asked for. Most events are of other
 * types (an application event with stacks of varied depth, the JDK's own sampling and thread
 * events); about 1% are pinned virtual threads, from a few sites; now and then a bounded scheduler
 * rejects a virtual thread (jdk.VirtualThreadSubmitFailed). Starting and stopping a second
 * recording every second makes the JVM start new chunks.
 *
 * <p>With -Dbench.shape=allocation (run on JDK 25, with the allocation events enabled) most events
 * are allocations with stacks instead: threads that allocate arrays larger than a TLAB (one {@code
 * jdk.ObjectAllocationOutsideTLAB} each) and small objects (a {@code
 * jdk.ObjectAllocationInNewTLAB} at each new TLAB), beside the application events, a thread that
 * parks over and over ({@code jdk.ThreadPark}) and about 1% pinned virtual threads, which on JDK 24+
 * park under a native frame ({@link NativePins}).
 *
 *   java -XX:StartFlightRecording:filename=big.jfr,settings=profile,... \
 *        --add-opens java.base/java.lang=ALL-UNNAMED LargeRecording.java SIZE_MB OUT_FILE
 *
 * bench/make-large-recording.sh runs it with the right options.
 */
public final class LargeRecording {

  @Name("bench.Request")
  @Label("Request")
  static final class RequestEvent extends Event {
    @Label("Route")
    String route;

    @Label("Status")
    int status;

    @Label("Bytes")
    long bytes;
  }

  private static final String[] ROUTES = {
    "/api/orders", "/api/orders/{id}", "/api/customers", "/api/search", "/health", "/api/cart"
  };
  private static final Object[] LOCKS = {new Object(), new Object(), new Object()};
  private static final AtomicLong PINS = new AtomicLong();
  private static final AtomicLong REQUESTS = new AtomicLong();
  private static final AtomicBoolean DONE = new AtomicBoolean();

  /** The allocation-heavy shape (-Dbench.shape=allocation) rather than the default one. */
  private static final boolean ALLOCATION = "allocation".equals(System.getProperty("bench.shape"));

  /**
   * The pin-heavy shape (-Dbench.shape=pins): the default one, but the pinning thread starts its
   * next batch at once, so that what an analysis keeps per pin shows at a few hundred MB.
   */
  private static final boolean PIN_HEAVY = "pins".equals(System.getProperty("bench.shape"));

  public static void main(String[] args) throws Exception {
    long targetBytes = Long.parseLong(args[0]) << 20;
    Path repository = Path.of(System.getProperty("jdk.jfr.repository", "."));
    List<Thread> workers = new ArrayList<>();
    workers.add(Thread.ofPlatform().name("requests").start(LargeRecording::requests));
    workers.add(Thread.ofPlatform().name("pinning").start(LargeRecording::pinning));
    workers.add(Thread.ofPlatform().name("rejections").start(LargeRecording::rejections));
    if (ALLOCATION) {
      workers.add(Thread.ofPlatform().name("allocating").start(LargeRecording::allocating));
      workers.add(Thread.ofPlatform().name("parking").start(LargeRecording::parking));
    }
    // Every pin and submit failure is an event: a recording's thresholds combine to the lowest, so
    // this one lowers the pinned threshold of the recording the command line started.
    Recording everyPin = new Recording();
    everyPin.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
    everyPin.enable("jdk.VirtualThreadSubmitFailed").withStackTrace();
    everyPin.start();
    long started = System.nanoTime();
    long rotated = started;
    while (size(repository) < targetBytes) {
      Thread.sleep(200);
      if (System.nanoTime() - rotated > 1_000_000_000L) {
        try (Recording rotate = new Recording()) {
          rotate.start(); // a new recording makes the JVM start a new chunk
          rotate.stop();
        }
        rotated = System.nanoTime();
      }
    }
    DONE.set(true);
    for (Thread t : workers) {
      t.join();
    }
    everyPin.close();
    System.out.printf(
        "%d requests, %d pins, %d allocations, %d parks in %.1f s%n",
        REQUESTS.get(),
        PINS.get(),
        ALLOCATIONS.get(),
        PARKS.get(),
        (System.nanoTime() - started) / 1e9);
  }

  private static final AtomicLong ALLOCATIONS = new AtomicLong();
  private static final AtomicLong PARKS = new AtomicLong();

  /** Kept reachable for a moment, so that the allocations are not optimised away. */
  private static volatile Object sink;

  /**
   * Arrays larger than a TLAB (the script fixes the TLAB at 4 KB), each allocated outside one,
   * and small objects that fill a new TLAB now and then, from stacks of varied depth.
   */
  private static void allocating() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    while (!DONE.get()) {
      allocate(random.nextInt(2, 24), random);
    }
  }

  private static void allocate(int depth, ThreadLocalRandom random) {
    if (depth > 0) {
      allocate(depth - 1, random);
      return;
    }
    for (int i = 0; i < 16; i++) {
      sink = new byte[5_000 + random.nextInt(1024)];
      sink = new long[16 + random.nextInt(224)];
    }
    ALLOCATIONS.addAndGet(32);
  }

  /** Short parks, each one a jdk.ThreadPark event (the script records every park). */
  private static void parking() {
    while (!DONE.get()) {
      LockSupport.parkNanos(1_000);
      PARKS.incrementAndGet();
    }
  }

  /** The pinning task of the allocation-heavy shape: loaded only there, as it needs JDK 22+. */
  private static final Runnable NATIVE_PIN = ALLOCATION ? nativePin() : null;

  private static Runnable nativePin() {
    try {
      return (Runnable) Class.forName("NativePins").getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The bytes JFR has written to its repository so far (0 while a chunk file moves away). */
  private static long size(Path repository) {
    try (var files = Files.walk(repository)) {
      return files
          .filter(p -> p.toString().endsWith(".jfr"))
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (Exception e) {
                  return 0;
                }
              })
          .sum();
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      return 0; // JFR renamed or removed a file while we walked; ask again next time
    }
  }

  /**
   * How many distinct stacks the application events come from: by default 37 (one recursive method,
   * 3 to 39 calls deep); with -Dbench.requestStacks=N (a power of two), N paths through four
   * handler methods, 16 to 47 calls deep, as a service's many code paths give its samples.
   */
  private static final int REQUEST_STACKS = Integer.getInteger("bench.requestStacks", 0);

  /** Application events, as fast as one thread makes them, with stacks of varied depth. */
  private static void requests() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    while (!DONE.get()) {
      if (REQUEST_STACKS > 0) {
        int path = random.nextInt(REQUEST_STACKS);
        route(path, Integer.numberOfTrailingZeros(REQUEST_STACKS), 16 + (path & 31), random);
      } else {
        handle(random.nextInt(3, 40), random);
      }
    }
  }

  private static void handle(int depth, ThreadLocalRandom random) {
    if (depth > 0) {
      handle(depth - 1, random);
      return;
    }
    RequestEvent e = new RequestEvent();
    e.begin();
    e.route = ROUTES[random.nextInt(ROUTES.length)];
    e.status = random.nextInt(10) == 0 ? 500 : 200;
    e.bytes = random.nextLong(100, 100_000);
    e.commit();
    if (ALLOCATION) { // a request's own buffers, each allocated outside a TLAB
      sink = new byte[5_000 + random.nextInt(1024)];
      sink = new byte[5_000 + random.nextInt(1024)];
    }
    REQUESTS.incrementAndGet();
  }

  /** Virtual threads that park inside synchronized blocks: each park pins its carrier. */
  private static void pinning() {
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      while (!DONE.get()) {
        List<java.util.concurrent.Future<?>> batch = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
          int site = i % LOCKS.length;
          batch.add(pool.submit(() -> pinAt(site)));
        }
        for (var f : batch) {
          try {
            f.get();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
        if (!PIN_HEAVY) {
          LockSupport.parkNanos(20_000_000); // a few thousand pins a second: ~1% of the events
        }
      }
    }
  }

  /**
   * How many distinct pinned stacks: 3 (the default, three sites) or, with -Dbench.pinnedStacks=N
   * (a power of two), N stacks that differ in the path of calls to one synchronized block.
   */
  private static final int PINNED_STACKS = Integer.getInteger("bench.pinnedStacks", 3);

  private static void pinAt(int site) {
    if (NATIVE_PIN != null) {
      NATIVE_PIN.run();
      PINS.incrementAndGet();
      return;
    }
    if (PINNED_STACKS != 3) {
      int k = ThreadLocalRandom.current().nextInt(PINNED_STACKS);
      descend(k, Integer.numberOfTrailingZeros(PINNED_STACKS));
      return;
    }
    switch (site) {
      case 0 -> cacheLoad();
      case 1 -> auditWrite();
      default -> sessionTouch();
    }
  }

  /** The low {@code bits} bits of {@code k} choose the calls on the way down: one stack per k. */
  private static void descend(int k, int bits) {
    if (bits == 0) {
      cacheLoad();
    } else if ((k & 1) == 0) {
      left(k >>> 1, bits - 1);
    } else {
      right(k >>> 1, bits - 1);
    }
  }

  private static void left(int k, int bits) {
    descend(k, bits);
  }

  private static void right(int k, int bits) {
    descend(k, bits);
  }

  private static void cacheLoad() {
    synchronized (LOCKS[0]) {
      LockSupport.parkNanos(20_000);
    }
    PINS.incrementAndGet();
  }

  private static void auditWrite() {
    synchronized (LOCKS[1]) {
      LockSupport.parkNanos(50_000);
    }
    PINS.incrementAndGet();
  }

  private static void sessionTouch() {
    synchronized (LOCKS[2]) {
      LockSupport.parkNanos(10_000);
    }
    PINS.incrementAndGet();
  }

  /** A bounded scheduler that rejects virtual threads now and then. */
  private static void rejections() {
    try {
      ExecutorService scheduler = Executors.newSingleThreadExecutor();
      scheduler.shutdown();
      Class<?> type = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder");
      Constructor<?> constructor = type.getDeclaredConstructor(Executor.class);
      constructor.setAccessible(true);
      Thread.Builder.OfVirtual builder = (Thread.Builder.OfVirtual) constructor.newInstance(scheduler);
      while (!DONE.get()) {
        try {
          builder.start(() -> {});
        } catch (RejectedExecutionException expected) {
          // the event is what the benchmark needs
        }
        Thread.sleep(50);
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      System.err.println("no submit failures: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Two bits of {@code path} at a time choose one of four handlers on the way down, for {@code
   * bits} levels; then {@code depth} plain calls: one stack per path.
   */
  private static void route(int path, int bits, int depth, ThreadLocalRandom random) {
    if (bits <= 0) {
      handle(depth, random);
      return;
    }
    switch (path & 3) {
      case 0 -> controller(path >>> 2, bits - 2, depth, random);
      case 1 -> service(path >>> 2, bits - 2, depth, random);
      case 2 -> repository(path >>> 2, bits - 2, depth, random);
      default -> client(path >>> 2, bits - 2, depth, random);
    }
  }

  private static void controller(int path, int bits, int depth, ThreadLocalRandom random) {
    route(path, bits, depth, random);
  }

  private static void service(int path, int bits, int depth, ThreadLocalRandom random) {
    route(path, bits, depth, random);
  }

  private static void repository(int path, int bits, int depth, ThreadLocalRandom random) {
    route(path, bits, depth, random);
  }

  private static void client(int path, int bits, int depth, ThreadLocalRandom random) {
    route(path, bits, depth, random);
  }
}
