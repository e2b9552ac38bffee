package dev.vtscope.waits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.RecordedStack;
import dev.vtscope.threaddump.Blocker;
import dev.vtscope.threaddump.DumpFacts;
import dev.vtscope.threaddump.DumpFormat;
import dev.vtscope.threaddump.DumpMerge;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.Frames;
import dev.vtscope.threaddump.HeldMonitor;
import dev.vtscope.threaddump.ObjectRef;
import dev.vtscope.threaddump.Samples;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadKind;
import dev.vtscope.threaddump.ThreadPrint;
import dev.vtscope.waits.WaitEdge.Evidence;
import dev.vtscope.waits.WaitEdge.Resource;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The deadlocks of the sample dumps, each as its program's header says (docs/thread-dumps.md): on
 * the JSON dump completed by the {@code Thread.print} taken with it, as {@code watch} takes them,
 * and on single formats where they differ.
 */
class DeadlocksTest {

  /** The expected findings of each scenario's merged dump, per JDK: 21 first, then 25. */
  private static final Map<String, List<List<String>>> EXPECTED =
      Map.of(
          "monitor-cycle",
          List.of(
              // JDK 21 prints neither the virtual threads' locks nor their frames on a carrier
              List.of(),
              List.of(
                  "MONITOR closed STATED: vt-monitor-A -monitor-> vt-monitor-B,"
                      + " vt-monitor-B -monitor-> vt-monitor-A")),
          "lock-cycle",
          List.of(
              List.of("LOCK open UNKNOWN_HOLDER: vt-lock-A -lock-> ?, vt-lock-B -lock-> ?"),
              List.of("LOCK open UNKNOWN_HOLDER: vt-lock-A -lock-> ?, vt-lock-B -lock-> ?")),
          "carrier-starvation",
          List.of(
              List.of(
                  "CARRIER_STARVATION closed INFERRED: carriers -carriers-> vt-pinned-0,"
                      + " carriers -carriers-> vt-pinned-1, owner? -carriers-> carriers,"
                      + " vt-pinned-0 -lock-> owner?, vt-pinned-1 -lock-> owner?"
                      + " | need a carrier: vt-owner, vt-pinned-2, vt-pinned-3"),
              // JDK 24+ unmounts the lock's waiters: nothing is pinned, the sleep ends
              List.of()),
          "carrier-starvation-long-hold",
          List.of(List.of(), List.of()),
          "class-init-cycle",
          List.of(
              List.of(
                  "CLASS_INIT open UNKNOWN_HOLDER: vt-helper -init ClassInitDeadlock$Cycle-> vt-init,"
                      + " vt-init -java.lang.Thread.join-> ?"),
              List.of(
                  "CLASS_INIT open UNKNOWN_HOLDER: vt-helper -init ClassInitDeadlock$Cycle-> vt-init,"
                      + " vt-init -java.lang.Thread.join-> ?")),
          "class-init-carriers",
          List.of(List.of(Gate.VIRTUAL_INIT), List.of(Gate.VIRTUAL_INIT)),
          "class-init-all-carriers",
          List.of(List.of(Gate.PLATFORM_INIT), List.of(Gate.PLATFORM_INIT)),
          "platform-cycle",
          List.of(Platform.CYCLES, Platform.CYCLES),
          "escape-name",
          List.of(List.of(), List.of()),
          // 280 virtual threads queued on one semaphore: a wait, and no chain
          "semaphore-fan-out",
          List.of(List.of(), List.of()));

  private static final class Gate {
    static final String VIRTUAL_INIT =
        "CLASS_INIT_STARVATION open UNKNOWN_HOLDER: carriers -carriers-> vt-init,"
            + " carriers -carriers-> vt-user-0,"
            + " vt-init -java.util.concurrent.CountDownLatch.await-> ?,"
            + " vt-user-0 -init ClassInitDeadlock$Gate-> vt-init"
            + " | need a carrier: vt-releaser, vt-user-1, vt-user-2, vt-user-3, vt-user-4,"
            + " vt-user-5, vt-user-6, vt-user-7";
    static final String PLATFORM_INIT =
        "CLASS_INIT_STARVATION open UNKNOWN_HOLDER: carriers -carriers-> vt-user-0,"
            + " carriers -carriers-> vt-user-1,"
            + " pt-init -java.util.concurrent.CountDownLatch.await-> ?,"
            + " vt-user-0 -init ClassInitDeadlock$Gate-> pt-init,"
            + " vt-user-1 -init ClassInitDeadlock$Gate-> pt-init"
            + " | need a carrier: vt-releaser, vt-user-2, vt-user-3, vt-user-4, vt-user-5,"
            + " vt-user-6, vt-user-7";
  }

  private static final class Platform {
    static final List<String> CYCLES =
        List.of(
            "MONITOR closed STATED: pt-monitor-A -monitor-> pt-monitor-B,"
                + " pt-monitor-B -monitor-> pt-monitor-A",
            "LOCK closed STATED: pt-lock-A -lock-> pt-lock-B, pt-lock-B -lock-> pt-lock-A");
  }

  static Stream<String> scenarios() {
    return Samples.named("thread-print.txt").map(p -> p.substring(0, p.lastIndexOf('/') + 1));
  }

  @ParameterizedTest
  @MethodSource("scenarios")
  void aMergedDumpShowsItsProgramsChain(String dir) throws IOException {
    String scenario = dir.substring(dir.indexOf('/') + 1, dir.length() - 1);
    List<String> expected = EXPECTED.get(scenario).get(Samples.feature(dir) == 25 ? 1 : 0);

    assertThat(describe(Deadlocks.find(merged(dir))))
        .as(dir)
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void jdk25sJsonAloneProvesAVirtualMonitorCycle() throws IOException {
    List<Deadlock> found = Deadlocks.find(Samples.json("jdk25/monitor-cycle/dump-to-file.json"));

    assertThat(found).singleElement().satisfies(d -> assertThat(d.proven()).isTrue());
    assertThat(found.get(0).threads())
        .allSatisfy(
            n -> {
              assertThat(n.kind()).isEqualTo(WaitGraph.Node.Kind.VIRTUAL);
              assertThat(n.at().display()).contains("MonitorCycle.cycle");
            });
  }

  @Test
  void threadPrintAloneProvesThePlatformCyclesOnBothJdks() throws IOException {
    for (String jdk : List.of("jdk21.0.8", "jdk25")) {
      ThreadDump print = ThreadPrint.parse(Samples.text(jdk + "/platform-cycle/thread-print.txt"));

      assertThat(describe(Deadlocks.find(print)))
          .as(jdk)
          .containsExactlyInAnyOrderElementsOf(Platform.CYCLES);
    }
  }

  @Test
  void jdk21sJsonAloneCallsTheStarvationProbable() throws IOException {
    // no Thread.print -l: no platform thread is known not to own the lock
    ThreadDump json = Samples.json("jdk21.0.8/carrier-starvation/dump-to-file.json");

    List<Deadlock> found = Deadlocks.find(json);

    assertThat(found)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.kind()).isEqualTo(Deadlock.Kind.CARRIER_STARVATION);
              assertThat(d.weakest()).isEqualTo(Evidence.UNKNOWN_HOLDER);
              assertThat(d.proven()).isFalse();
              assertThat(d.capacity()).isEqualTo(2);
            });
  }

  /**
   * A shipped dump of {@code carrier-starvation --variant object-wait} (parallelism 2, maxPoolSize
   * 4), its JSON completed by the Thread.print taken with it, as {@code dump} reads it.
   */
  private static ThreadDump objectWaitSample(int jdk) throws Exception {
    java.nio.file.Path dir =
        dev.vtscope.testing.TestRecordings.repoRoot().resolve("samples/jdk" + jdk + "/dumps");
    return DumpMerge.of(
        dev.vtscope.threaddump.ThreadDumpFiles.read(
            dir.resolve("carrier-starvation-object-wait.dump.json")),
        dev.vtscope.threaddump.ThreadDumpFiles.read(
            dir.resolve("carrier-starvation-object-wait.thread-print.txt")));
  }

  private static final String OBJECT_WAIT_CHAIN =
      "carriers -carriers-> waiter-0, carriers -carriers-> waiter-1,"
          + " carriers -carriers-> waiter-2, carriers -carriers-> waiter-3,"
          + " waiter-0 -java.lang.Object.wait-> ?, waiter-1 -java.lang.Object.wait-> ?,"
          + " waiter-2 -java.lang.Object.wait-> ?, waiter-3 -java.lang.Object.wait-> ?"
          + " | need a carrier: notifier, waiter-4, waiter-5";

  private static List<Deadlock> objectWait(ThreadDump dump, SchedulerLimits limits) {
    return Deadlocks.find(List.of(dump), limits, null, feature -> feature < 24);
  }

  /**
   * JDK 21, every carrier the scheduler may start pinned in Object.wait(), the notifier asleep and
   * two waiters not started: the JVM's maxPoolSize reached makes it probable; a dump alone, which
   * does not say the maximum, possible; a maximum above the carriers seen, nothing, since the
   * scheduler starts another carrier.
   */
  @Test
  void everyCarrierPinnedInObjectWaitAtTheMaxPoolSizeIsAStarvation() throws Exception {
    ThreadDump dump = objectWaitSample(21);

    assertThat(describe(objectWait(dump, new SchedulerLimits(2, 4))))
        .containsExactly("OBJECT_WAIT_STARVATION closed INFERRED: " + OBJECT_WAIT_CHAIN);
    Deadlock probable = objectWait(dump, new SchedulerLimits(2, 4)).get(0);
    assertThat(probable.capacity()).as("the carriers the scheduler started").isEqualTo(4);
    assertThat(probable.maxPoolSize()).isEqualTo(4);
    assertThat(probable.proven()).isFalse();

    assertThat(describe(objectWait(dump, SchedulerLimits.UNKNOWN)))
        .containsExactly("OBJECT_WAIT_STARVATION open UNKNOWN_HOLDER: " + OBJECT_WAIT_CHAIN);
    assertThat(objectWait(dump, new SchedulerLimits(2, 8))).isEmpty();
    // the JSON alone shows the carriers by its scheduler's container, and cannot tell a virtual
    // thread not started from the JVM's own threads
    assertThat(
            describe(
                objectWait(
                    dev.vtscope.threaddump.ThreadDumpFiles.read(
                        dev.vtscope.testing.TestRecordings.repoRoot()
                            .resolve(
                                "samples/jdk21/dumps/carrier-starvation-object-wait.dump.json")),
                    new SchedulerLimits(2, 4))))
        .containsExactly(
            "OBJECT_WAIT_STARVATION closed INFERRED: "
                + OBJECT_WAIT_CHAIN.replace(", waiter-4, waiter-5", ""));
  }

  /** The same program on JDK 25: Object.wait() unmounts, no carrier is held, nothing starves. */
  @Test
  void jdk25UnmountsTheObjectWaitWaiters() throws Exception {
    ThreadDump dump = objectWaitSample(25);

    assertThat(objectWait(dump, new SchedulerLimits(2, 4))).isEmpty();
    assertThat(objectWait(dump, SchedulerLimits.UNKNOWN)).isEmpty();
  }

  /**
   * The JDK 21 dump with nothing left to run (the notifier and the waiters not started gone): the
   * waiters hold every carrier, but no virtual thread waits for one, so whoever notifies them does
   * not need one.
   */
  @Test
  void objectWaitPinsWithNoThreadWaitingForACarrierAreNoStarvation() throws Exception {
    ThreadDump dump = objectWaitSample(21);
    List<DumpedThread> kept =
        dump.threads().stream()
            .filter(t -> !Set.of("notifier", "waiter-4", "waiter-5").contains(t.name()))
            .toList();

    assertThat(objectWait(dump.with(dump.pid(), kept), new SchedulerLimits(2, 4))).isEmpty();
  }

  /**
   * A series of the JDK 21 dump whose maximum nothing says: unchanged in both, the possible
   * starvation is stuck.
   */
  @Test
  void aSeriesInWhichTheObjectWaitStarvationStandsCallsItStuck() throws Exception {
    ThreadDump first = objectWaitSample(21);
    ThreadDump later = at(first, first.takenAt().plusSeconds(3));

    assertThat(Deadlocks.find(List.of(first, later)))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.kind()).isEqualTo(Deadlock.Kind.OBJECT_WAIT_STARVATION);
              assertThat(d.stuckAtLeast()).isEqualTo(Duration.ofSeconds(3));
            });
  }

  @Test
  void aSeriesInWhichTheChainStandsCallsItStuck() throws IOException {
    ThreadDump first = merged("jdk25/lock-cycle/");
    ThreadDump later = at(first, first.takenAt().plusSeconds(5));

    List<Deadlock> one = Deadlocks.find(first);
    List<Deadlock> series = Deadlocks.find(List.of(first, later));

    assertThat(one).singleElement().satisfies(d -> assertThat(d.stuck()).isFalse());
    assertThat(series)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.stuckAtLeast()).isEqualTo(Duration.ofSeconds(5));
              assertThat(d.proven()).isFalse();
            });
  }

  @Test
  void aSeriesInWhichTheChainIsNewDoesNotCallItStuck() throws IOException {
    ThreadDump lockCycle = merged("jdk25/lock-cycle/");
    ThreadDump before = at(merged("jdk25/escape-name/"), lockCycle.takenAt().minusSeconds(5));

    assertThat(Deadlocks.find(List.of(before, lockCycle)))
        .singleElement()
        .satisfies(d -> assertThat(d.stuck()).isFalse());
  }

  @Test
  void aSeriesOfAFanOutQueuedOnASemaphoreHasNoDeadlock() throws IOException {
    List<ThreadDump> series = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      series.add(Samples.json("jdk25/semaphore-series/dump-" + i + ".json"));
    }

    assertThat(Deadlocks.find(series)).isEmpty();
  }

  @Test
  void aThreadWaitingOnAMonitorDoesNotHoldIt() {
    // JDK-8361926: the JSON lists the monitor a thread waits on among those it owns
    ObjectRef lock = ObjectRef.identity("java.lang.Object@1");
    ObjectRef other = ObjectRef.identity("java.lang.Object@2");
    DumpedThread waiting =
        thread(
            1, "waiter", ThreadKind.PLATFORM, new Blocker.MonitorWait(lock), List.of(lock, other));
    DumpedThread entering =
        thread(2, "enterer", ThreadKind.VIRTUAL, new Blocker.MonitorEnter(lock), List.of());
    DumpedThread third =
        thread(3, "third", ThreadKind.PLATFORM, new Blocker.MonitorEnter(other), List.of());

    WaitGraph g = WaitGraph.of(dump(waiting, entering, third));

    assertThat(g.from(2)).singleElement().satisfies(e -> assertThat(e.hasHolder()).isFalse());
    assertThat(g.from(3)).singleElement().satisfies(e -> assertThat(e.holder()).isEqualTo(1));
  }

  @Test
  void aCycleOfAMonitorAndAnOwnedLockAmongVirtualAndPlatformThreads() {
    // JDK 26+ names a j.u.c. lock's owner in the park blocker
    ObjectRef monitor = ObjectRef.identity("java.lang.Object@1");
    ObjectRef lock = ObjectRef.identity("java.util.concurrent.locks.ReentrantLock$NonfairSync@2");
    DumpedThread virtual =
        thread(7, "vt", ThreadKind.VIRTUAL, new Blocker.Parked(lock, 8), List.of(monitor));
    DumpedThread platform =
        thread(8, "pt", ThreadKind.PLATFORM, new Blocker.MonitorEnter(monitor), List.of());

    assertThat(describe(Deadlocks.find(dump(virtual, platform))))
        .containsExactly("LOCK_AND_MONITOR closed STATED: pt -monitor-> vt, vt -lock-> pt");
  }

  @Test
  void aMonitorAndALockTakenInOppositeOrdersWithTheOwnerUnnamedIsPossible() {
    // JDK 25 and earlier name no owner of a j.u.c. lock held by a virtual thread: the monitor's
    // edge is stated, the lock's ends open, and the owner may well be the monitor's waiter
    ObjectRef monitor = ObjectRef.identity("com.zaxxer.hikari.HikariDataSource@1");
    ObjectRef lock = ObjectRef.identity("java.util.concurrent.locks.ReentrantLock$NonfairSync@2");
    DumpedThread holdsMonitor =
        thread(
            25, "ds-then-lock", ThreadKind.VIRTUAL, new Blocker.Parked(lock, -1), List.of(monitor));
    DumpedThread holdsLock =
        thread(
            27, "lock-then-ds", ThreadKind.VIRTUAL, new Blocker.MonitorEnter(monitor), List.of());

    assertThat(describe(Deadlocks.find(dump(holdsMonitor, holdsLock))))
        .containsExactly(
            "LOCK_AND_MONITOR open UNKNOWN_HOLDER: ds-then-lock -lock-> ?,"
                + " lock-then-ds -monitor-> ds-then-lock");
  }

  @Test
  void everyThreadOfAChainIsNamedAndTheSameCycleIsFoundOnce() throws IOException {
    List<Deadlock> found = Deadlocks.find(merged("jdk25/platform-cycle/"));

    assertThat(found).hasSize(2);
    for (Deadlock d : found) {
      assertThat(d.threads()).hasSize(2);
      assertThat(d.edges()).allSatisfy(e -> assertThat(e.resource()).isNotNull());
    }
  }

  @Test
  void aDumpOfManyThreadsKeepsThoseAChainCanRunThrough() throws IOException {
    ThreadDump monitors = Samples.json("jdk25/monitor-cycle/dump-to-file.json");
    ThreadDump locks = Samples.json("jdk25/lock-cycle/dump-to-file.json");
    ThreadDump init = Samples.json("jdk21.0.8/class-init-cycle/dump-to-file.json");
    ThreadDump starved = Samples.json("jdk21.0.8/carrier-starvation/dump-to-file.json");

    assertThat(WaitGraph.mayBeLinked(Samples.named(monitors, "vt-monitor-A"))).isTrue();
    assertThat(WaitGraph.mayBeLinked(Samples.named(locks, "vt-lock-B"))).isTrue();
    // runs Cycle.<clinit>, which others wait for
    assertThat(WaitGraph.mayBeLinked(Samples.named(init, "vt-init"))).isTrue();
    // asleep, holding a lock no dump of JDK 25 or earlier names: no chain is read through it
    assertThat(WaitGraph.mayBeLinked(Samples.named(starved, "vt-owner"))).isFalse();
  }

  private static ThreadDump merged(String dir) throws IOException {
    ThreadDump print = ThreadPrint.parse(Samples.text(dir + "thread-print.txt"));
    return DumpMerge.of(Samples.json(dir + "dump-to-file.json"), print);
  }

  private static ThreadDump at(ThreadDump d, Instant when) {
    return d.withTakenAt(when);
  }

  private static ThreadDump dump(DumpedThread... threads) {
    return new ThreadDump(
        DumpFormat.JSON,
        Instant.EPOCH,
        1,
        "26+1",
        new DumpFacts(true, true, true, true, true, false),
        List.of(threads),
        List.of(),
        List.of(),
        true,
        List.of());
  }

  private static DumpedThread thread(
      long tid, String name, ThreadKind kind, Blocker blocker, List<ObjectRef> held) {
    List<HeldMonitor> monitors = new ArrayList<>();
    for (ObjectRef r : held) {
      monitors.add(new HeldMonitor(1, r));
    }
    RecordedStack stack =
        new RecordedStack(
            List.of(
                Frames.ofStackTraceElement("java.base/java.lang.Object.wait0(Native Method)"),
                Frames.ofStackTraceElement("com.example.Work.run(Work.java:" + tid + ")")),
            false);
    String state = blocker instanceof Blocker.MonitorEnter ? "BLOCKED" : "WAITING";
    return new DumpedThread(
        tid, name, kind, state, -1, -1, stack, blocker, monitors, List.of(), null, -1, -1, null);
  }

  /**
   * Each finding in one line: kind, closed or open, evidence, its edges sorted, who needs carriers.
   */
  static List<String> describe(List<Deadlock> found) {
    List<String> lines = new ArrayList<>();
    for (Deadlock d : found) {
      Set<String> edges = new TreeSet<>();
      for (WaitEdge e : d.edges()) {
        edges.add(
            name(d.nodes().get(e.waiter()))
                + " -"
                + resource(e.resource())
                + "-> "
                + (e.hasHolder() ? name(d.nodes().get(e.holder())) : "?"));
      }
      String line =
          d.kind()
              + " "
              + (d.closed() ? "closed " : "open ")
              + d.weakest()
              + ": "
              + String.join(", ", edges);
      if (!d.needCarrier().isEmpty()) {
        line +=
            " | need a carrier: "
                + String.join(
                    ", ", d.needCarrier().stream().map(DeadlocksTest::name).sorted().toList());
      }
      lines.add(line);
    }
    return lines;
  }

  private static String name(WaitGraph.Node n) {
    return switch (n.kind()) {
      case CARRIERS -> "carriers";
      case UNNAMED_OWNER -> "owner?";
      default -> n.name().isEmpty() ? "#" + n.id() : n.name();
    };
  }

  private static String resource(Resource r) {
    return switch (r) {
      case Resource.Monitor m -> "monitor";
      case Resource.MonitorEntry m -> "entering " + m.at().display();
      case Resource.OwnableLock l -> "lock";
      case Resource.ClassInit c -> "init " + c.className();
      case Resource.Carriers c -> "carriers";
      case Resource.Release x -> x.what();
    };
  }
}
