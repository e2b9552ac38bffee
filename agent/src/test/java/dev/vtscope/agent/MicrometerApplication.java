package dev.vtscope.agent;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * An application with Micrometer, as the agent's tests start it: it adds a registry to Micrometer's
 * global one (as a framework does), pins a few virtual threads with {@link PinningService}, waits
 * until the pinned timer of their holder counts them (the holder's own kind: on JDK 24 and later
 * the threads that wait for the initialiser are a series of their own, which may come an interval
 * earlier), and prints every meter of the global registry, one a line: {@code name{tag=value,...}
 * statistic=value ...}. It waits at most the seconds given (default 30); a line on standard input
 * ends either wait at once (for a test that knows better when to go on, as when the agent was told
 * not to register with Micrometer and the meters never come).
 */
public final class MicrometerApplication {

  private MicrometerApplication() {}

  public static void main(String[] args) throws Exception {
    Metrics.addRegistry(new SimpleMeterRegistry());
    long deadline =
        System.nanoTime() + 1_000_000_000L * (args.length > 0 ? Integer.parseInt(args[0]) : 30);
    // The agent starts beside main: once its meters are there, it records, and the pins count.
    while (System.nanoTime() < deadline
        && Metrics.globalRegistry.find("vtscope.carriers.held.peak").gauge() == null
        && !PinningService.toldToGoOn()) {
      Thread.sleep(100);
    }
    PinningService.pin();
    while (System.nanoTime() < deadline && !counted() && !PinningService.toldToGoOn()) {
      Thread.sleep(200);
    }
    List<String> lines = new ArrayList<>();
    for (Meter meter : Metrics.globalRegistry.getMeters()) {
      String tags =
          meter.getId().getTags().stream()
              .map(t -> t.getKey() + "=" + t.getValue())
              .collect(Collectors.joining(","));
      String values =
          StreamSupport.stream(meter.measure().spliterator(), false)
              .map(m -> m.getStatistic().name().toLowerCase(Locale.ROOT) + "=" + m.getValue())
              .collect(Collectors.joining(" "));
      lines.add("meter " + meter.getId().getName() + "{" + tags + "} " + values);
    }
    lines.sort(null);
    lines.forEach(System.out::println);
  }

  private static boolean counted() {
    FunctionTimer pinned =
        Metrics.globalRegistry
            .find("jvm.threads.virtual.pinned")
            .tags(
                List.of(
                    Tag.of("holder_class", PinningService.holderClass()),
                    Tag.of("holder_method", PinningService.holderMethod()),
                    Tag.of("kind", PinningService.holderKind())))
            .functionTimer();
    return pinned != null && pinned.count() > 0;
  }
}
