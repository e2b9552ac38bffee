package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.DumpAnalysis;
import dev.vtscope.analysis.Message;
import dev.vtscope.waits.Deadlock;
import dev.vtscope.waits.WaitGraph;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The findings of thread dumps, most severe first: the one place they are made, for dumps alone
 * ({@link #advise}) and beside a running JVM's recording ({@link #addTo}). The deadlocks and
 * starved carriers of the wait-for graph ({@link DeadlockFinding}), the virtual threads pinned now
 * ({@link PinnedNowFinding}) and a crowd of them waiting for one resource ({@link
 * CrowdedWaitFinding}).
 */
public final class DumpAdvisor {

  private DumpAdvisor() {}

  /** The advice for {@code analysis}; it has no carrier-pool recommendation. */
  public static Advice advise(DumpAnalysis analysis) {
    List<Finding> findings = new ArrayList<>(DeadlockFinding.of(analysis.deadlocks()));
    // a dump before JDK 25 names no scheduler parallelism (the JVM gives it to dump PID), and no
    // pin that ended: each pinned thread counts
    PinnedNowFinding.of(analysis.pinnedNow(), analysis.scheduler().parallelism(), Map.of())
        .ifPresent(findings::add);
    CrowdedWaitFinding.of(analysis.series()).ifPresent(findings::add);
    findings.sort(Comparator.comparing(Finding::severity, Comparator.reverseOrder()));
    return new Advice(findings, null);
  }

  /**
   * {@code advice}, made from the events of {@code recording}, with what the JVM's thread dumps
   * show now put first among the findings of its severity: what holds carriers or is stuck now
   * matters more than what the events showed.
   *
   * <p>The one rule of the two together: the events cannot show a pin that has not ended, nor a
   * deadlock, so where the dumps show one, what the events alone would say of nothing seen gives
   * way. The healthy verdict (or its stand-in while no dump could be read) and the note that a
   * short recording saw nothing go; the recording's own last thread dump gives way to the one taken
   * now; and the carrier pool's advice says that the carriers held now are not in its figures, and,
   * when they are every carrier, no longer that one was always free.
   */
  public static Advice addTo(Advice advice, Analysis recording, DumpsNow now) {
    int parallelism = Math.max(0, recording.scheduler().parallelism().value());
    Optional<Finding> pinned =
        now.pinned() == null
            ? Optional.empty()
            : PinnedNowFinding.of(now.pinned(), parallelism, PinnedNowFinding.endedPins(recording));
    // what is stuck first, then what holds carriers, then what is queued
    List<Finding> found = new ArrayList<>(DeadlockFinding.of(now.deadlocks()));
    pinned.ifPresent(found::add);
    if (now.waits() != null) {
      CrowdedWaitFinding.of(now.waits()).ifPresent(found::add);
    }
    if (found.isEmpty()) {
      return now.unknown() == null ? advice : PinnedNowFinding.unknown(advice, now.unknown());
    }
    Set<String> replaced =
        new HashSet<>(
            Set.of(HealthyRule.ID, RecordingQualityRule.SHORT_ID, PinnedNowFinding.UNKNOWN_ID));
    if (pinned.isPresent()) {
      replaced.add(PinnedAtEndRule.ID);
    }
    Set<Long> deadlocked = new HashSet<>();
    for (Deadlock d : now.deadlocks()) {
      for (WaitGraph.Node n : d.threads()) {
        if (n.holdsCarrier()) {
          deadlocked.add(n.id());
        }
      }
    }
    // the pinned-now threads are those of the dump that hold their carrier, the deadlocked too
    int held = Math.max(now.pinned() == null ? 0 : now.pinned().size(), deadlocked.size());
    // the finding that shows them: pinned now, else the first deadlock
    String cited = pinned.map(Finding::id).orElse(found.get(0).id());
    // every carrier held by pins that do not end: pins the dump caught in passing (a low
    // pinned-now) end, and the pool's figures of the recording stand
    boolean every =
        !deadlocked.isEmpty() || pinned.filter(f -> f.severity() == Severity.HIGH).isPresent();
    return advice.withFirst(
        found, replaced, beside(advice.carrierPool(), held, every, !deadlocked.isEmpty(), cited));
  }

  /**
   * The pool's advice, made from pins that ended, beside the {@code held} carriers held now by pins
   * that have not: said to be left out of its figures, and when they are {@code every} carrier, in
   * place of its word that some carrier was free.
   *
   * @param byDeadlock whether a deadlock holds them
   * @param finding the finding that shows them
   */
  private static CarrierPool beside(
      CarrierPool pool, int held, boolean every, boolean byDeadlock, String finding) {
    if (pool == null || held == 0) {
      return pool;
    }
    List<Message> reasoning = new ArrayList<>();
    for (Message m : pool.reasoning()) {
      String key = m.key();
      // what the recording says of no pin, or of pins held when it ended, gives way to the dump now
      if (key.startsWith("pool.none-held") || key.equals("pool.none-ended.at-end")) {
        reasoning.add(Message.of("pool.none-ended", "held", held, "finding", finding));
      } else if (every && (key.startsWith("pool.keep") || key.equals("pool.busy-without-pins"))) {
        reasoning.add(
            byDeadlock
                ? Message.of("pool.held-by-deadlock")
                : Message.of("pool.held-now", "finding", finding));
      } else {
        reasoning.add(m);
        if (key.equals("pool.held-at-once")) {
          reasoning.add(Message.of("pool.held-now.not-counted", "held", held, "finding", finding));
        }
      }
    }
    return new CarrierPool(
        pool.current(),
        pool.recommended(),
        pool.change(),
        pool.javaOptions(),
        pool.peak(),
        pool.p99(),
        pool.saturatedNanos(),
        reasoning,
        pool.recording());
  }
}
