package dev.vtscope.advice;

import static dev.vtscope.waits.Threads.VT_BOTTOM;
import static dev.vtscope.waits.Threads.dump;
import static dev.vtscope.waits.Threads.parkedOn;
import static dev.vtscope.waits.Threads.thread;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.testing.Words;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadKind;
import dev.vtscope.waits.WaitClassifier;
import dev.vtscope.waits.WaitSeries;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Most virtual threads of a dump waiting for one resource: a permit, a library's pool, a lock; not
 * a few, not a minority, not sleepers.
 */
class CrowdedWaitFindingTest {

  private static final Instant AT = Instant.parse("2026-11-27T20:00:00Z");

  private static final String[] SEMAPHORE = {
    "java.base/java.lang.VirtualThread.park(VirtualThread.java:742)",
    "java.base/java.util.concurrent.locks.LockSupport.park(LockSupport.java:221)",
    "java.base/java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire(AbstractQueuedSynchronizer.java:790)",
    "java.base/java.util.concurrent.Semaphore.acquire(Semaphore.java:318)",
    "com.acme.PartnerClient.call(PartnerClient.java:40)",
    VT_BOTTOM
  };

  private static final String[] POOL = {
    "java.base/java.lang.VirtualThread.parkNanos(VirtualThread.java:801)",
    "java.base/java.util.concurrent.locks.LockSupport.parkNanos(LockSupport.java:271)",
    "java.base/java.util.concurrent.SynchronousQueue.poll(SynchronousQueue.java:338)",
    "com.zaxxer.hikari.util.ConcurrentBag.borrow(ConcurrentBag.java:192)",
    "com.zaxxer.hikari.HikariDataSource.getConnection(HikariDataSource.java:99)",
    "com.acme.orders.OrderDao.find(OrderDao.java:31)",
    VT_BOTTOM
  };

  private static final String[] SLEEP = {
    "java.base/java.lang.VirtualThread.sleepNanos(VirtualThread.java:900)",
    "java.base/java.lang.Thread.sleep(Thread.java:509)",
    "com.acme.PartnerClient.pause(PartnerClient.java:60)",
    VT_BOTTOM
  };

  /** {@code count} virtual threads from id {@code from} on, parked on {@code blocker} so. */
  private static List<DumpedThread> threads(
      long from, int count, String blocker, String... frames) {
    List<DumpedThread> threads = new ArrayList<>();
    for (long tid = from; tid < from + count; tid++) {
      threads.add(
          thread(
              tid,
              ThreadKind.VIRTUAL,
              "WAITING",
              blocker == null ? null : parkedOn(blocker),
              frames));
    }
    return threads;
  }

  private static Optional<Finding> finding(List<List<DumpedThread>> dumps) {
    List<ThreadDump> series = new ArrayList<>();
    for (int i = 0; i < dumps.size(); i++) {
      series.add(dump(AT.plusSeconds(2L * i), dumps.get(i)));
    }
    return CrowdedWaitFinding.of(
        WaitSeries.of(series, new WaitClassifier(new FrameOwnership(List.of()))));
  }

  private static List<DumpedThread> all(List<DumpedThread> a, List<DumpedThread> b) {
    List<DumpedThread> both = new ArrayList<>(a);
    both.addAll(b);
    return both;
  }

  @Test
  void mostVirtualThreadsQueuedForOnePermitAreACrowd() {
    List<DumpedThread> one =
        all(
            threads(100, 150, "java.util.concurrent.Semaphore$NonfairSync@6efb9", SEMAPHORE),
            threads(1000, 50, null, SLEEP));

    Finding f = finding(List.of(one)).orElseThrow();
    assertThat(f.id()).isEqualTo("crowded-wait");
    assertThat(f.severity())
        .as("one dump: a queue, not yet one that never drains")
        .isEqualTo(Severity.LOW);
    assertThat(Words.title(f))
        .isEqualTo(
            "150 of 200 virtual threads (75%) park for one synchronizer's permits in"
                + " java.util.concurrent.Semaphore.acquire at com.acme.PartnerClient.call:40"
                + " (java.util.concurrent.Semaphore$NonfairSync@6efb9): one resource sets their"
                + " pace");
    assertThat(Words.actions(f))
        .singleElement()
        .asString()
        .startsWith(
            "If the permits of java.util.concurrent.Semaphore.acquire are a limit you chose");
  }

  @Test
  void aLibrarysPoolNamesTheLibraryCallAndTheAdviceIsAboutThePool() {
    Finding f =
        finding(
                List.of(
                    threads(
                        100, 120, "java.util.concurrent.SynchronousQueue$Transferer@7393", POOL)))
            .orElseThrow();
    assertThat(Words.title(f))
        .contains(
            "park on one queue in java.util.concurrent.SynchronousQueue.poll via"
                + " com.zaxxer.hikari.HikariDataSource.getConnection at"
                + " com.acme.orders.OrderDao.find:31");
    assertThat(Words.actions(f))
        .singleElement()
        .asString()
        .startsWith(
            "com.zaxxer.hikari.HikariDataSource.getConnection is the library call they wait in")
        .contains("size the pool for the load")
        .doesNotContain("consumers");
  }

  @Test
  void theSameThreadsInEveryDumpOfASeriesMakeItMedium() {
    List<DumpedThread> crowd =
        threads(100, 150, "java.util.concurrent.Semaphore$NonfairSync@6efb9", SEMAPHORE);
    Finding f = finding(List.of(crowd, crowd)).orElseThrow();
    assertThat(f.severity()).isEqualTo(Severity.MEDIUM);
    assertThat(Words.explanation(f)).endsWith("the queue does not drain.");

    // 150 waiting, then the first 30 served: the oldest waiters wait on, but the queue drains
    Finding draining = finding(List.of(crowd, crowd.subList(30, crowd.size()))).orElseThrow();
    assertThat(draining.severity()).isEqualTo(Severity.LOW);
    assertThat(Words.explanation(draining)).doesNotContain("does not drain");
  }

  @Test
  void aFewThreadsAMinorityOrSleepersAreNoCrowd() {
    String semaphore = "java.util.concurrent.Semaphore$NonfairSync@6efb9";
    assertThat(finding(List.of(threads(100, 99, semaphore, SEMAPHORE))))
        .as("fewer than 100")
        .isEmpty();
    assertThat(
            finding(
                List.of(
                    all(threads(100, 150, semaphore, SEMAPHORE), threads(1000, 151, null, SLEEP)))))
        .as("under half of the virtual threads")
        .isEmpty();
    assertThat(finding(List.of(threads(1000, 300, null, SLEEP))))
        .as("sleepers share nothing")
        .isEmpty();
  }
}
