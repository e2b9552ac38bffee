package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Concurrency;
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
    List<String> reasoning = new ArrayList<>();
    String held = a.monitorsHoldCarriers() ? "held (pinned or entering a monitor)" : "pinned";
    if (c.peak() == 0) {
      reasoning.add(
          "No carrier was "
              + (a.monitorsHoldCarriers() ? "pinned or held entering a monitor" : "pinned")
              + " during the recording.");
    } else {
      reasoning.add(
          "Carriers "
              + held
              + " at once: peak "
              + c.peak()
              + ", p99 of recorded time "
              + p99
              + ", all "
              + parallelism
              + " for "
              + Facts.duration(c.saturatedNanos())
              + (duration > 0 ? " (" + Facts.percent(saturatedShare) + " of the recording)" : "")
              + ".");
    }
    String codeFix = codeFix(findings);
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
    if (!starved) {
      reasoning.add(
          busyWithoutPins
              ? "No carrier was held by pinning long enough to need more carriers, but carriers"
                  + " were kept busy without pinning (see carrier-monopoly / file-io-carriers):"
                  + " keep the defaults and move that work off the virtual threads; carriers"
                  + " beyond the CPUs do not run CPU work faster."
              : "Some carrier was always free to run virtual threads: keep the defaults"
                  + (a.scheduler().parallelism().source()
                          == dev.vtscope.analysis.SchedulerSetting.Source.SET
                      ? " (or the settings in effect)"
                      : "")
                  + "; a larger pool would not change anything measurable.");
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
          (pinnedAlone
                  ? "Most of the held time"
                  : "Pins alone never took every carrier (at most "
                      + a.pinned().concurrency().peak()
                      + " at once); the rest of the held time")
              + " was spent waiting to enter monitors ("
              + Facts.percent(entering, heldTime)
              + "): the virtual threads queue on a lock, and more carriers would queue on it too."
              + " Keep the pool; "
              + (codeFix == null ? "fix the lock." : codeFix));
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
        "Held carriers wait without using a CPU, so the pool needs "
            + cpus
            + " carriers for the "
            + Facts.plural(cpus, "CPU")
            + " on top of the "
            + p99
            + " held at p99: parallelism "
            + cpus
            + " + "
            + p99
            + " = "
            + recommendedParallelism
            + (recommendedMax != maxPool ? ", and maxPoolSize at least that" : "")
            + ". The peak is capped by the pool, so the real need may be higher: re-record with it"
            + " and check that the starvation is gone.");
    reasoning.add(
        codeFix == null
            ? "A larger pool costs a platform thread per carrier; it is the fix only when the"
                + " blocking cannot be moved."
            : "This only buys time: " + codeFix);
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

  private static void compensation(Analysis a, List<String> reasoning) {
    int started = a.scheduler().carriersStarted();
    int max = a.scheduler().maxPoolSize().value();
    int parallelism = a.scheduler().parallelism().value();
    long waits = a.monitorWait() == null ? 0 : a.monitorWait().events();
    if (started > 0 && max > 0 && started >= max) {
      reasoning.add(
          "The scheduler reached maxPoolSize ("
              + max
              + " carriers started): raising it postpones the stall, replacing Object.wait()"
              + " removes it.");
    } else if (started > parallelism && parallelism > 0 && waits > 0) {
      // the figures above count pins and monitor enters; carriers held in Object.wait() were
      // replaced by new ones, which is why one was free
      reasoning.add(
          "Carriers held in Object.wait() are not counted above: the scheduler replaced them,"
              + " starting "
              + started
              + " carriers for a parallelism of "
              + parallelism
              + ". Each waiting virtual thread costs a platform thread until maxPoolSize ("
              + max
              + "); replacing Object.wait() removes that, a larger pool does not (see "
              + CompensationRule.ID
              + ").");
    }
  }

  /** What the findings say fixes the cause, or null when they name none. */
  private static String codeFix(List<Finding> findings) {
    for (Finding f : findings) {
      switch (f.id()) {
        case MonitorPinningRule.ID, ContendedMonitorRule.ID, CompensationRule.ID -> {
          return "the cause is in the code or the JDK release (see "
              + f.id()
              + "), and fixing it frees the carriers.";
        }
        case NativePinningRule.ID, ClassInitRule.ID -> {
          return "the cause is in the code (see " + f.id() + "), and fixing it frees the carriers.";
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
