package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Concurrency;
import dev.vtscope.analysis.Message;
import java.util.ArrayList;
import java.util.List;

/**
 * Sizes the carrier pool from the time carriers were held at once.
 *
 * <p>Held carriers wait without using a CPU, so the pool needs, on top of the carriers held at the
 * quantile of time, one carrier per CPU to keep running the virtual threads that are not blocked:
 * {@code parallelism = cpus + held(p99)}, never below the current value, at most
 * maxRecommendedParallelism; {@code maxPoolSize} is raised only when it would be below it. A larger
 * pool is recommended only when every carrier was held for at least resizeSaturatedShare of the
 * recording, and not when carriers were mostly queued on monitors, where more carriers would queue
 * too. docs/recommendations.md explains it with measurements.
 */
final class CarrierPoolAdvisor {

  private static final String P = "-Djdk.virtualThreadScheduler.parallelism=";
  private static final String M = "-Djdk.virtualThreadScheduler.maxPoolSize=";

  private CarrierPoolAdvisor() {}

  static CarrierPool advise(Analysis a, Knowledge k, List<Finding> findings) {
    int feature = a.feature();
    int parallelism = a.scheduler().parallelism().value();
    int maxPool = a.scheduler().maxPoolSize().value();
    Concurrency c = a.carriers();
    if ((feature > 0 && feature < k.jdk().virtualThreadsFinalIn())
        || parallelism <= 0
        || c == null) {
      return null;
    }
    long duration = Facts.recordingNanos(a);
    int p99 = quantileLevel(c, duration, k.thresholds().pinnedTimeQuantile());
    double saturatedShare = duration > 0 ? c.saturatedNanos() / (double) duration : 0;
    CarrierPool.Settings current = new CarrierPool.Settings(parallelism, maxPool);
    List<Message> reasoning = new ArrayList<>();
    int heldWhenEnded = a.carriersHeldAtEnd();
    if (c.peak() == 0 && heldWhenEnded > 0) {
      // pins that never ended wrote no event: "no carrier was pinned" would deny the dumps' finding
      reasoning.add(
          Message.of(
              "pool.none-ended.at-end", "held", heldWhenEnded, "finding", PinnedAtEndRule.ID));
    } else if (c.peak() == 0) {
      reasoning.add(
          Message.of(
              a.monitorsHoldCarriers() ? "pool.none-held.monitors" : "pool.none-held.pinned"));
    } else {
      reasoning.add(
          Message.of(
              "pool.held-at-once",
              "held",
              Message.of(a.monitorsHoldCarriers() ? "pool.held.monitors" : "pool.held.pinned"),
              "peak",
              c.peak(),
              "p99",
              p99,
              "parallelism",
              parallelism,
              "saturated",
              Message.nanos(c.saturatedNanos()),
              "share",
              duration > 0
                  ? Message.of(
                      "pool.held-at-once.share",
                      "share",
                      Message.share(c.saturatedNanos(), duration))
                  : ""));
    }
    Message codeFix = codeFix(findings);
    boolean starved =
        saturatedShare >= k.thresholds().resizeSaturatedShare()
            && c.saturatedNanos() >= k.thresholds().starvationMinNanos();
    // Carriers kept busy by CPU work or file I/O are not pinned: the pinned figures say nothing of
    // them, and more carriers than CPUs do not run CPU work faster.
    boolean busyWithoutPins =
        findings.stream()
            .anyMatch(
                f ->
                    (f.id().equals(CarrierMonopolyRule.ID) || f.id().equals(FileIoRule.ID))
                        && f.severity().compareTo(Severity.LOW) >= 0);
    int started = a.scheduler().carriersStarted();
    // Carriers blocked in Object.wait() were replaced by new ones up to maxPoolSize: one was free
    // only because the pool grew, and it cannot grow further.
    boolean compensationExhausted = maxPool > 0 && started >= maxPool;
    // Every carrier held by pins that had not ended when the recording did: no pinned event counts
    // them above, and more carriers would be held the same way.
    boolean heldAtEnd =
        findings.stream()
            .anyMatch(f -> f.id().equals(PinnedAtEndRule.ID) && f.severity() == Severity.HIGH);
    if (!starved) {
      reasoning.add(
          heldAtEnd
              ? Message.of("pool.held-at-end")
              : busyWithoutPins
                  ? Message.of("pool.busy-without-pins")
                  : compensationExhausted
                      ? Message.of("pool.keep.compensated")
                      : Message.of(
                          "pool.keep",
                          "inEffect",
                          a.scheduler().parallelism().source()
                                  == dev.vtscope.analysis.SchedulerSetting.Source.SET
                              ? Message.of("pool.keep.in-effect")
                              : ""));
      compensation(a, reasoning);
      return new CarrierPool(
          current, current, false, null, c.peak(), p99, c.saturatedNanos(), reasoning);
    }
    long entering = a.monitorEnter() == null ? 0 : a.monitorEnter().durations().totalNanos();
    long heldTime = a.pinned().totalNanos() + entering;
    boolean pinnedAlone =
        a.pinned().concurrency().saturatedNanos() >= k.thresholds().starvationMinNanos();
    if (entering > 0
        && (!pinnedAlone || entering >= k.thresholds().contendedMonitorShare() * heldTime)) {
      reasoning.add(
          Message.of(
              "pool.queue-on-lock",
              "which",
              pinnedAlone
                  ? Message.of("pool.queue-on-lock.most")
                  : Message.of(
                      "pool.queue-on-lock.rest", "pinnedPeak", a.pinned().concurrency().peak()),
              "share",
              Message.share(entering, heldTime),
              "fix",
              codeFix == null ? Message.of("pool.fix-the-lock") : codeFix));
      compensation(a, reasoning);
      return new CarrierPool(
          current, current, false, null, c.peak(), p99, c.saturatedNanos(), reasoning);
    }
    int cpus = a.cpus() > 0 ? a.cpus() : parallelism;
    int recommendedParallelism =
        Math.min(
            Math.max(parallelism, cpus + p99),
            Math.max(parallelism, k.thresholds().maxRecommendedParallelism()));
    int recommendedMax =
        maxPool > 0 ? Math.max(maxPool, recommendedParallelism) : recommendedParallelism;
    CarrierPool.Settings recommended =
        new CarrierPool.Settings(recommendedParallelism, recommendedMax);
    boolean change = recommendedParallelism != parallelism || recommendedMax != maxPool;
    reasoning.add(
        Message.of(
            "pool.resize",
            "cpus",
            cpus,
            "p99",
            p99,
            "recommended",
            recommendedParallelism,
            "maxPool",
            recommendedMax != maxPool ? Message.of("pool.resize.max-pool") : ""));
    reasoning.add(
        codeFix == null
            ? Message.of("pool.resize.cost")
            : Message.of("pool.resize.buys-time", "fix", codeFix));
    compensation(a, reasoning);
    String options =
        change
            ? P
                + recommendedParallelism
                + (recommendedMax != maxPool ? " " + M + recommendedMax : "")
            : null;
    return new CarrierPool(
        current, recommended, change, options, c.peak(), p99, c.saturatedNanos(), reasoning);
  }

  private static void compensation(Analysis a, List<Message> reasoning) {
    int started = a.scheduler().carriersStarted();
    int max = a.scheduler().maxPoolSize().value();
    int parallelism = a.scheduler().parallelism().value();
    long waits = a.monitorWait() == null ? 0 : a.monitorWait().events();
    if (started > 0 && max > 0 && started >= max) {
      reasoning.add(Message.of("pool.compensation.at-max", "maxPoolSize", max));
    } else if (started > parallelism && parallelism > 0 && waits > 0) {
      // the figures above count pins and monitor enters; carriers held in Object.wait() were
      // replaced by new ones, which is why one was free
      reasoning.add(
          Message.of(
              "pool.compensation.replaced",
              "started",
              started,
              "parallelism",
              parallelism,
              "maxPoolSize",
              max,
              "finding",
              CompensationRule.ID));
    }
  }

  /** What the findings say fixes the cause, or null when they name none. */
  private static Message codeFix(List<Finding> findings) {
    for (Finding f : findings) {
      switch (f.id()) {
        case MonitorPinningRule.ID, ContendedMonitorRule.ID, CompensationRule.ID -> {
          return Message.of("pool.cause.code-or-jdk", "finding", f.id());
        }
        case NativePinningRule.ID, ClassInitRule.ID -> {
          return Message.of("pool.cause.code", "finding", f.id());
        }
        default -> {}
      }
    }
    return null;
  }

  /** The smallest level k such that more than k carriers were held at most (1 - q) of the time. */
  static int quantileLevel(Concurrency c, long duration, double q) {
    if (duration <= 0) {
      return c.peak();
    }
    double allowed = (1 - q) * duration;
    long above = 0;
    List<Long> at = c.nanosAtLevel();
    for (int level = c.peak(); level >= 1; level--) {
      above += at.get(level);
      if (above > allowed) {
        return level;
      }
    }
    return 0;
  }
}
