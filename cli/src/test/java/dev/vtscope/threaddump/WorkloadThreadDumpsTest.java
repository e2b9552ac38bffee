package dev.vtscope.threaddump;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.live.AttachedJvm;
import dev.vtscope.testing.Eventually;
import dev.vtscope.testing.RunningWorkload;
import dev.vtscope.waits.CarrierHolding;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The workloads that deadlock or starve reach their state on JDK 21 and on JDK 24+, and a thread
 * dump of each, read with the {@code threaddump} readers, shows what the case is about: the
 * threads, their frames, what they wait for and which carriers they hold. Each runs in a child JVM
 * with two carriers, and is dumped once it says {@code ready:}; its JSON dump ({@code
 * Thread.dump_to_file}, every thread, unmounted virtual threads too) is read whole, beside its
 * {@code Thread.print -l}.
 */
class WorkloadThreadDumpsTest {

  private static final List<String> TWO_CARRIERS =
      List.of("-Djdk.virtualThreadScheduler.parallelism=2");

  /** A workload's dumps: the JSON read whole, its Thread.print, and the two merged. */
  record Dumps(int feature, ThreadDump json, ThreadDump printed, ThreadDump merged) {

    DumpedThread named(String name) {
      return merged.threads().stream()
          .filter(t -> t.name().equals(name))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no thread " + name + " in " + names()));
    }

    List<DumpedThread> namedLike(String prefix) {
      return merged.threads().stream().filter(t -> t.name().startsWith(prefix)).toList();
    }

    /** The ids of the virtual threads the carriers carry, as Thread.print says. */
    Set<Long> carried() {
      return printed.threads().stream()
          .filter(DumpedThread::isCarrier)
          .map(DumpedThread::carrying)
          .collect(Collectors.toSet());
    }

    List<String> names() {
      return merged.threads().stream().map(DumpedThread::name).toList();
    }
  }

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void aMonitorCycleOfVirtualThreads(Path java) throws Exception {
    try (RunningWorkload w = ready(java, "deadlock", "--variant", "monitor")) {
      Dumps d = dumps(w);
      DumpedThread ab = d.named("holds-a-wants-b");
      DumpedThread ba = d.named("holds-b-wants-a");
      for (DumpedThread t : List.of(ab, ba)) {
        assertThat(t.isVirtual()).isTrue();
        assertThat(methods(t)).startsWith("dev.vtscope.workloads.LockOrderDeadlock.withMonitors");
      }
      if (d.feature() >= 25) {
        // unmounted, and the dump names the cycle: each enters the monitor the other owns
        for (DumpedThread[] pair : new DumpedThread[][] {{ab, ba}, {ba, ab}}) {
          assertThat(pair[0].state()).isEqualTo("BLOCKED");
          assertThat(pair[0].carrier()).isEqualTo(-1);
          assertThat(pair[0].blocker()).isInstanceOf(Blocker.MonitorEnter.class);
          ObjectRef wanted = ((Blocker.MonitorEnter) pair[0].blocker()).lock();
          assertThat(pair[1].monitors()).extracting(HeldMonitor::lock).contains(wanted);
        }
      } else {
        // blocked entering a monitor while mounted: both carriers hold one of the two
        assertThat(d.carried()).containsExactlyInAnyOrder(ab.tid(), ba.tid());
      }
      assertThat(d.printed().vmDeadlocks())
          .as("the JVM's detector sees no virtual thread")
          .isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void aReentrantLockCycleOfVirtualThreads(Path java) throws Exception {
    try (RunningWorkload w = ready(java, "deadlock", "--variant", "reentrant-lock")) {
      Dumps d = dumps(w);
      for (String name : List.of("holds-a-wants-b", "holds-b-wants-a")) {
        DumpedThread t = d.named(name);
        assertThat(methods(t))
            .contains(
                "java.util.concurrent.locks.ReentrantLock.lock",
                "dev.vtscope.workloads.LockOrderDeadlock.withLocks");
        assertThat(d.carried()).as("parked, unmounted").doesNotContain(t.tid());
        if (d.feature() >= 25) {
          assertThat(t.state()).isEqualTo("WAITING");
          assertThat(t.blocker()).isInstanceOf(Blocker.Parked.class);
          assertThat(((Blocker.Parked) t.blocker()).blocker().className())
              .startsWith("java.util.concurrent.locks.ReentrantLock$");
        }
      }
      assertThat(d.printed().vmDeadlocks()).isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void aMonitorCycleOfPlatformThreadsIsTheOneTheJvmReports(Path java) throws Exception {
    try (RunningWorkload w = ready(java, "deadlock", "--variant", "platform-monitor")) {
      Dumps d = dumps(w);
      assertThat(d.printed().vmDeadlocks())
          .singleElement()
          .extracting(VmDeadlock::threadNames)
          .asList()
          .containsExactlyInAnyOrder("holds-a-wants-b", "holds-b-wants-a");
      assertThat(d.named("holds-a-wants-b").isVirtual()).isFalse();
      assertThat(d.named("holds-a-wants-b").blocker()).isInstanceOf(Blocker.MonitorEnter.class);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void carrierStarvationPinsEveryCarrierOnJdk21Only(Path java) throws Exception {
    boolean jdk21 = RunningWorkload.feature(java) < 24;
    // on JDK 24+ the owner keeps its lock, so that the waiters are seen queued
    try (RunningWorkload w =
        jdk21
            ? ready(java, "carrier-starvation")
            : ready(java, "carrier-starvation", "--hold", "600s")) {
      Dumps d = dumps(w);
      DumpedThread owner = d.named("lock-owner");
      assertThat(d.carried()).as("the lock's owner is unmounted").doesNotContain(owner.tid());
      List<DumpedThread> waiters = d.namedLike("waiter-");
      assertThat(waiters).hasSize(4);
      List<DumpedThread> pinned =
          CarrierHolding.heldNow(List.of(d.merged()), null, feature -> false);
      if (jdk21) {
        assertThat(pinned).extracting(DumpedThread::name).allMatch(n -> n.startsWith("waiter-"));
        assertThat(pinned).hasSize(2);
        assertThat(d.carried())
            .as("every carrier holds a pinned waiter")
            .containsExactlyInAnyOrderElementsOf(pinned.stream().map(DumpedThread::tid).toList());
        for (DumpedThread t : pinned) {
          assertThat(methods(t))
              .contains(
                  "java.lang.VirtualThread.parkOnCarrierThread",
                  "java.util.concurrent.locks.ReentrantLock.lock",
                  "dev.vtscope.workloads.CarrierStarvation.waitInMonitor");
        }
        assertThat(waiters).filteredOn(t -> t.frames().isEmpty()).as("never started").hasSize(2);
      } else {
        assertThat(pinned).isEmpty();
        for (DumpedThread t : waiters) {
          assertThat(t.state()).isEqualTo("WAITING");
          assertThat(t.carrier()).isEqualTo(-1);
          assertThat(t.monitors()).as("its own monitor, held while it waits").hasSize(1);
          assertThat(((Blocker.Parked) t.blocker()).blocker().className())
              .startsWith("java.util.concurrent.locks.ReentrantLock$");
        }
      }
    }
  }

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void aClassInitialisationCycle(Path java) throws Exception {
    try (RunningWorkload w = ready(java, "class-init-deadlock", "--variant", "cycle")) {
      // helper says it touches the class a moment before it waits: dump again until it does
      Dumps d =
          Eventually.value(
              "helper waits for Cycle's initialisation",
              () -> dumps(w),
              dumps -> dumps.named("helper").blocker() instanceof Blocker.ClassInit);
      assertThat(((Blocker.ClassInit) d.named("helper").blocker()).className())
          .isEqualTo("dev.vtscope.workloads.ClassInitDeadlock$Cycle");
      DumpedThread initialiser = d.named("initialiser");
      assertThat(methods(initialiser))
          .contains(
              "java.lang.Thread.join", "dev.vtscope.workloads.ClassInitDeadlock$Cycle.<clinit>");
      assertThat(d.carried())
          .as("both hold a carrier")
          .contains(initialiser.tid(), d.named("helper").tid());
      assertThat(d.printed().vmDeadlocks()).isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void aClassInitialisationHoldsEveryCarrier(Path java) throws Exception {
    try (RunningWorkload w = ready(java, "class-init-deadlock", "--variant", "carriers")) {
      Dumps d =
          Eventually.value(
              "a user waits for Gate's initialisation",
              () -> dumps(w),
              dumps ->
                  dumps.namedLike("user-").stream()
                      .anyMatch(t -> t.blocker() instanceof Blocker.ClassInit));
      DumpedThread initialiser = d.named("initialiser");
      DumpedThread waiting =
          d.namedLike("user-").stream()
              .filter(t -> t.blocker() instanceof Blocker.ClassInit)
              .findFirst()
              .orElseThrow();
      assertThat(((Blocker.ClassInit) waiting.blocker()).className())
          .isEqualTo("dev.vtscope.workloads.ClassInitDeadlock$Gate");
      assertThat(methods(initialiser))
          .contains("dev.vtscope.workloads.ClassInitDeadlock$Gate.<clinit>");
      assertThat(d.carried())
          .as("every carrier: the initialiser and a user waiting for it")
          .containsExactlyInAnyOrder(initialiser.tid(), waiting.tid());
      assertThat(d.named("config-loader").frames()).as("never started").isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void aFanOutQueuedBehindASemaphore(Path java) throws Exception {
    try (RunningWorkload w = ready(java, "stuck-fanout", "--tasks", "300")) {
      Dumps d = dumps(w);
      List<DumpedThread> calls = d.namedLike("call-");
      assertThat(calls).hasSize(300);
      List<DumpedThread> queued =
          calls.stream()
              .filter(t -> methods(t).contains("java.util.concurrent.Semaphore.acquire"))
              .toList();
      List<DumpedThread> reading =
          calls.stream().filter(t -> methods(t).contains("sun.nio.ch.NioSocketImpl.park")).toList();
      assertThat(queued).hasSize(280);
      assertThat(reading).hasSize(20);
      assertThat(CarrierHolding.heldNow(List.of(d.merged()), null, feature -> false)).isEmpty();
      if (d.feature() >= 25) {
        assertThat(queued)
            .extracting(t -> ((Blocker.Parked) t.blocker()).blocker().id())
            .as("one semaphore")
            .containsOnly(((Blocker.Parked) queued.get(0).blocker()).blocker().id());
      }
    }
  }

  /** Starts a workload with two carriers and waits until it says it is ready. */
  private static RunningWorkload ready(Path java, String... workload) throws Exception {
    return RunningWorkload.start(java, TWO_CARRIERS, workload).awaitLine("ready:");
  }

  private static Dumps dumps(RunningWorkload w) throws Exception {
    Path folder = Files.createTempDirectory("vtscope-workload-dump-");
    Path json = folder.resolve("threads.json");
    try (AttachedJvm jvm = AttachedJvm.attach(w.pid())) {
      ThreadDump printed = ThreadPrint.parse(jvm.execute("Thread.print -l"));
      assertThat(jvm.execute("Thread.dump_to_file -format=json " + json)).contains("Created");
      ThreadDump full;
      try (InputStream in = Files.newInputStream(json)) {
        full = ThreadDumpJson.read(in);
      }
      assertThat(full.complete()).isTrue();
      return new Dumps(full.feature(), full, printed, DumpMerge.of(full, printed));
    } finally {
      Files.deleteIfExists(json);
      Files.deleteIfExists(folder);
    }
  }

  /** A thread's frames as {@code Class.method}, innermost first. */
  private static List<String> methods(DumpedThread t) {
    return t.frames().stream().map(f -> f.qualifiedMethod()).toList();
  }
}
