package dev.vtscope.waits;

import static dev.vtscope.waits.Threads.VT_BOTTOM;
import static dev.vtscope.waits.Threads.dump;
import static dev.vtscope.waits.Threads.parkedOn;
import static dev.vtscope.waits.Threads.thread;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.testing.GeneratedDumps;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadDumpJson;
import dev.vtscope.threaddump.ThreadKind;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WaitGroupingTest {

  private static final FrameOwnership OWNERSHIP = new FrameOwnership(List.of());

  private static DumpedThread sleeper(long tid) {
    return thread(
        tid,
        ThreadKind.VIRTUAL,
        "TIMED_WAITING",
        null,
        "java.base/java.lang.VirtualThread.sleepNanos(VirtualThread.java:900)",
        "java.base/java.lang.Thread.sleep(Thread.java:509)",
        "com.acme.Poll.loop(Poll.java:8)",
        VT_BOTTOM);
  }

  /** A virtual thread parked in Object.wait on its carrier (pinned, JDK 25). */
  private static DumpedThread pinnedWaiter(long tid) {
    return thread(
        tid,
        "w-" + tid,
        ThreadKind.VIRTUAL,
        "WAITING",
        7,
        null,
        "java.base/java.lang.Object.wait0(Native Method)",
        "java.base/java.lang.Object.wait(Object.java:389)",
        "com.acme.Legacy.await(Legacy.java:20)",
        VT_BOTTOM);
  }

  /** A virtual thread awaiting the condition {@code condition} in a pool's lease. */
  private static DumpedThread leasing(long tid, String condition) {
    return thread(
        tid,
        ThreadKind.VIRTUAL,
        "WAITING",
        parkedOn(condition),
        "java.base/java.lang.VirtualThread.park(VirtualThread.java:742)",
        "java.base/java.util.concurrent.locks.LockSupport.park(LockSupport.java:221)",
        "java.base/java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(AbstractQueuedSynchronizer.java:1761)",
        "org.apache.hc.core5.pool.StrictConnPool.lease(StrictConnPool.java:220)",
        "com.acme.Fetch.get(Fetch.java:52)",
        VT_BOTTOM);
  }

  /**
   * A pool that gives each waiter a Condition of its own is one wait, as on a JDK whose dump names
   * no object, counting the objects; threads that share an object stay a wait of their own, and two
   * threads alone at their place (a lock-order cycle) keep their objects.
   */
  @Test
  void threadsThatEachWaitForAnObjectOfTheirOwnAreOneWait() {
    String shared = "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject@5";
    List<DumpedThread> threads = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      threads.add(
          leasing(
              10 + i,
              "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject@a" + i));
    }
    threads.add(leasing(20, shared));
    threads.add(leasing(21, shared));
    DumpWaits waits = WaitGrouping.of(dump(Instant.EPOCH, threads), OWNERSHIP);

    assertThat(waits.groups()).hasSize(2);
    WaitGroup own = waits.groups().get(0);
    assertThat(own.threads()).isEqualTo(4);
    assertThat(own.objects()).isEqualTo(4);
    assertThat(own.key().resourceId()).isNull();
    WaitGroup together = waits.groups().get(1);
    assertThat(together.threads()).isEqualTo(2);
    assertThat(together.objects()).isZero();
    assertThat(together.key().resourceId()).isEqualTo(shared);
    // the series reads them the same way: one wait of 4 in both dumps
    WaitSeries series =
        WaitSeries.of(
            List.of(dump(Instant.EPOCH, threads), dump(Instant.EPOCH.plusSeconds(1), threads)),
            new WaitClassifier(OWNERSHIP));
    assertThat(series.groups().get(0).threads()).containsExactly(4, 4);
    assertThat(series.groups().get(0).persistent()).isEqualTo(4);

    DumpWaits two =
        WaitGrouping.of(
            dump(
                Instant.EPOCH,
                List.of(
                    leasing(30, shared),
                    leasing(
                        31,
                        "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject@b"))),
            OWNERSHIP);
    assertThat(two.groups()).hasSize(2).allMatch(g -> g.key().resourceId() != null);
    assertThat(two.groups()).allMatch(g -> g.objects() == 0);
  }

  @Test
  void groupsCountVirtualAndPlatformThreadsAndNameAFew() {
    List<DumpedThread> threads = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      threads.add(sleeper(10 + i));
    }
    threads.add(pinnedWaiter(30));
    threads.add(
        thread(
            40,
            ThreadKind.PLATFORM,
            "WAITING",
            parkedOn("java.util.concurrent.ForkJoinPool@1"),
            "java.base/jdk.internal.misc.Unsafe.park(Native Method)",
            "java.base/java.util.concurrent.ForkJoinPool.awaitWork(ForkJoinPool.java:2109)"));
    DumpWaits waits = WaitGrouping.of(dump(Instant.EPOCH, threads), OWNERSHIP);
    assertThat(waits.virtualThreads()).isEqualTo(6);
    assertThat(waits.platformThreads()).isEqualTo(1);
    assertThat(waits.carriersHeld()).isEqualTo(1);
    // a carrier held outranks a larger group; idle workers come last
    assertThat(waits.groups())
        .extracting(g -> g.key().kind())
        .containsExactly(WaitKind.MONITOR_WAIT, WaitKind.SLEEP, WaitKind.IDLE_WORKER);
    WaitGroup sleeping = waits.groups().get(1);
    assertThat(sleeping.threads()).isEqualTo(5);
    assertThat(sleeping.virtualThreads()).isEqualTo(5);
    assertThat(sleeping.sampled())
        .extracting(WaitGroup.SampledThread::tid)
        .containsExactly(10L, 11L, 12L);
    assertThat(sleeping.example().frames()).hasSize(4);
    assertThat(waits.groups().get(0).carriersHeld()).isEqualTo(1);
  }

  @Test
  void theOrderDoesNotDependOnTheDumpsOrder() {
    List<DumpedThread> threads = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      threads.add(sleeper(i));
      threads.add(pinnedWaiter(100 + i));
    }
    List<DumpedThread> reversed = new ArrayList<>(threads);
    java.util.Collections.reverse(reversed);
    assertThat(keys(WaitGrouping.of(dump(Instant.EPOCH, threads), OWNERSHIP)))
        .isEqualTo(keys(WaitGrouping.of(dump(Instant.EPOCH, reversed), OWNERSHIP)));
  }

  /** A hundred thousand parked virtual threads make three groups, each holding three names. */
  @Test
  void aHundredThousandThreadsMakeFewSmallGroups() throws IOException {
    ThreadDump dump = ThreadDumpJson.read(GeneratedDumps.parkedCrowd(100_000));
    DumpWaits waits = WaitGrouping.of(dump, OWNERSHIP);
    assertThat(waits.virtualThreads()).isEqualTo(100_000);
    assertThat(waits.groups()).hasSize(4);
    List<WaitGroup> semaphores =
        waits.groups().stream().filter(g -> g.key().kind() == WaitKind.SYNCHRONIZER).toList();
    assertThat(semaphores).hasSize(3);
    assertThat(semaphores.stream().mapToInt(WaitGroup::threads).sum()).isEqualTo(100_000);
    assertThat(semaphores).allSatisfy(g -> assertThat(g.sampled()).hasSize(WaitGrouping.SAMPLED));
  }

  private static List<WaitKey> keys(DumpWaits waits) {
    return waits.groups().stream().map(WaitGroup::key).toList();
  }

  /**
   * JDK 21's JSON alone lists a virtual thread not started yet with no frames, as it lists the
   * JVM's own threads: neither is counted a platform thread, and the Thread.print taken beside it
   * tells them apart.
   */
  @Test
  void threadsWithNoFramesInJdk21sJsonAreOfEitherKind() throws Exception {
    java.nio.file.Path dumps =
        dev.vtscope.testing.TestRecordings.repoRoot().resolve("samples/jdk21/dumps");
    ThreadDump json =
        dev.vtscope.threaddump.ThreadDumpFiles.read(dumps.resolve("carrier-starvation.dump.json"));
    ThreadDump printed =
        dev.vtscope.threaddump.ThreadDumpFiles.read(
            dumps.resolve("carrier-starvation.thread-print.txt"));

    DumpWaits alone = WaitGrouping.of(json, OWNERSHIP);
    // waiter-2 and waiter-3 not started; Signal Dispatcher, JFR Recorder Thread, Notification
    // Thread
    assertThat(alone.unknownThreads()).isEqualTo(5);
    assertThat(alone.virtualThreads()).isEqualTo(3);
    assertThat(alone.threads()).isEqualTo(json.threads().size());

    DumpWaits merged =
        WaitGrouping.of(dev.vtscope.threaddump.DumpMerge.of(json, printed), OWNERSHIP);
    assertThat(merged.unknownThreads()).isZero();
    assertThat(merged.virtualThreads()).isEqualTo(5);
    assertThat(merged.platformThreads()).isEqualTo(alone.platformThreads() + 3);
  }
}
