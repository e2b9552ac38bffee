import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import dev.vtscope.junit.NoPinning;
import jdk.jfr.Recording;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * What {@code @NoPinning} adds to each test: the same tests run by JUnit Jupiter without it, with
 * it, and with only a bare JFR recording around each test (start, stop, write; no analysis), in
 * interleaved rounds in one JVM. Two kinds of test: an empty one (the extension's cost alone) and
 * one that runs 100 virtual threads that each sleep 1 ms.
 *
 * <p>Usage: {@code java -cp CLASSPATH JunitOverhead ROUNDS} (bench/junit-overhead.sh sets it up).
 */
public final class JunitOverhead {

  static final int TESTS = 50;
  static final AtomicLong SINK = new AtomicLong();

  static void virtualThreads() throws Exception {
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 100; i++) {
        int n = i;
        executor.submit(
            () -> {
              Thread.sleep(1);
              SINK.addAndGet(n);
              return null;
            });
      }
    }
  }

  /** One test: the first recording of a JVM starts JFR, and the first analysis loads vtscope. */
  @NoPinning
  public static class First {
    @org.junit.jupiter.api.Test
    void test() {}
  }

  public static class EmptyPlain {
    @RepeatedTest(TESTS)
    void test() {}
  }

  @NoPinning
  public static class EmptyNoPinning {
    @RepeatedTest(TESTS)
    void test() {}
  }

  @ExtendWith(BareRecording.class)
  public static class EmptyBareRecording {
    @RepeatedTest(TESTS)
    void test() {}
  }

  public static class ThreadsPlain {
    @RepeatedTest(TESTS)
    void test() throws Exception {
      virtualThreads();
    }
  }

  @NoPinning
  public static class ThreadsNoPinning {
    @RepeatedTest(TESTS)
    void test() throws Exception {
      virtualThreads();
    }
  }

  @ExtendWith(BareRecording.class)
  public static class ThreadsBareRecording {
    @RepeatedTest(TESTS)
    void test() throws Exception {
      virtualThreads();
    }
  }

  /** JFR's own cost: a recording with the same settings around each test, written, not read. */
  public static class BareRecording
      implements BeforeTestExecutionCallback, AfterTestExecutionCallback {
    private static final ExtensionContext.Namespace NS =
        ExtensionContext.Namespace.create(BareRecording.class);

    @Override
    public void beforeTestExecution(ExtensionContext context) throws Exception {
      Path file = Files.createTempFile("bench-", ".jfr");
      Recording r;
      try (var in = BareRecording.class.getResourceAsStream("/dev/vtscope/vtscope.jfc");
          var reader = new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8)) {
        r = new Recording(jdk.jfr.Configuration.create(reader));
      }
      r.enable("jdk.VirtualThreadPinned").withThreshold(java.time.Duration.ZERO).withStackTrace();
      r.setToDisk(true);
      r.setDestination(file);
      r.start();
      context.getStore(NS).put("r", r);
      context.getStore(NS).put("f", file);
    }

    @Override
    public void afterTestExecution(ExtensionContext context) throws Exception {
      Recording r = context.getStore(NS).remove("r", Recording.class);
      r.stop();
      r.close();
      Files.deleteIfExists(context.getStore(NS).remove("f", Path.class));
    }
  }

  /** Milliseconds per test of one run of {@code testClass}'s tests, all of which must pass. */
  static double run(Class<?> testClass) {
    return run(testClass, TESTS);
  }

  static double run(Class<?> testClass, int tests) {
    long start = System.nanoTime();
    EngineExecutionResults results =
        EngineTestKit.engine("junit-jupiter")
            .selectors(DiscoverySelectors.selectClass(testClass))
            .execute();
    long nanos = System.nanoTime() - start;
    long succeeded = results.testEvents().succeeded().count();
    if (succeeded != tests) {
      results.testEvents().failed().stream()
          .limit(1)
          .forEach(e -> System.err.println(e.getPayload().orElse(null)));
      throw new IllegalStateException(testClass.getSimpleName() + ": " + succeeded + " passed");
    }
    return nanos / 1e6 / tests;
  }

  static double median(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    System.out.printf(
        Locale.ROOT,
        "JDK %s, %d CPUs, %d rounds of %d tests per kind%n",
        Runtime.version(),
        Runtime.getRuntime().availableProcessors(),
        rounds,
        TESTS);
    // JUnit's own first run, then the first @NoPinning test of the JVM, apart from the rounds.
    run(EmptyPlain.class);
    System.out.printf(
        Locale.ROOT,
        "first @NoPinning test of the JVM (JFR starts, vtscope loads): %.0f ms%n",
        run(First.class, 1));
    long firstRun = System.nanoTime();
    run(EmptyNoPinning.class);
    System.out.printf(
        Locale.ROOT,
        "next %d (empty) @NoPinning tests, not yet compiled by the JIT: %.1f ms per test%n",
        TESTS,
        (System.nanoTime() - firstRun) / 1e6 / TESTS);
    Class<?>[][] kinds = {
      {EmptyPlain.class, EmptyBareRecording.class, EmptyNoPinning.class},
      {ThreadsPlain.class, ThreadsBareRecording.class, ThreadsNoPinning.class}
    };
    String[] names = {"empty test", "100 virtual threads sleeping 1 ms"};
    for (Class<?>[] kind : kinds) {
      for (Class<?> c : kind) {
        run(c); // warm-up
      }
    }
    for (int k = 0; k < kinds.length; k++) {
      List<List<Double>> times = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        times.add(new ArrayList<>());
      }
      for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < 3; i++) {
          times.get(i).add(run(kinds[k][i]));
        }
      }
      double plain = median(times.get(0));
      double bare = median(times.get(1));
      double checked = median(times.get(2));
      System.out.printf(
          Locale.ROOT,
          "%-34s plain %6.2f ms/test | bare JFR recording %6.2f ms (%.1fx) | @NoPinning %6.2f ms"
              + " (%.1fx, +%.2f ms per test)%n",
          names[k],
          plain,
          bare,
          bare / plain,
          checked,
          checked / plain,
          checked - plain);
    }
  }
}
