package dev.vtscope.threaddump;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.Frame;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Thread dumps as {@code jcmd Thread.print} and {@code jstack} print them, and as {@code
 * jdk.ThreadDump} holds them: every sample of JDK 21 and 25 (taken with {@code -l}), the older
 * fixtures of {@code src/test/resources/threaddumps} (JDK 21's {@code pinning-per-task}, two
 * carriers carrying virtual threads parked in a synchronized block; JDK 25's {@code
 * poller-deadlock}, both carriers pinned in an upcall's socket read, taken without {@code -l}), and
 * text that is no dump.
 */
class ThreadPrintTest {

  private static ThreadDump parse(String path) throws IOException {
    return ThreadPrint.parse(Samples.text(path));
  }

  private static List<DumpedThread> platform(ThreadDump dump) {
    return dump.threads().stream().filter(t -> t.kind() == ThreadKind.PLATFORM).toList();
  }

  static Stream<String> printSamples() {
    return Stream.concat(Samples.named("thread-print.txt"), Samples.named("jstack.txt"));
  }

  @ParameterizedTest
  @MethodSource("printSamples")
  void everySampleReadsWithItsHeaderAndItsCarriedThreads(String path) throws IOException {
    ThreadDump dump = parse(path);
    assertThat(dump.format()).isEqualTo(DumpFormat.THREAD_PRINT);
    assertThat(dump.feature()).isEqualTo(Samples.feature(path));
    // jcmd prints the pid first, jstack does not
    if (path.endsWith("jstack.txt")) {
      assertThat(dump.pid()).isEqualTo(-1);
    } else {
      assertThat(dump.pid()).isPositive();
    }
    assertThat(dump.facts().lockOwnersGiven()).as("taken with -l").isTrue();
    assertThat(platform(dump))
        .isNotEmpty()
        .allSatisfy(
            t -> {
              assertThat(t.tid()).isPositive();
              assertThat(t.cpuNanos()).isNotNegative();
            });
    assertThat(Samples.named(dump, "main").frames()).isNotEmpty();
    for (DumpedThread carrier : platform(dump)) {
      if (carrier.isCarrier()) {
        DumpedThread carried = dump.thread(carrier.carrying());
        assertThat(carried.kind()).isEqualTo(ThreadKind.VIRTUAL);
        assertThat(carried.carrier()).isEqualTo(carrier.tid());
        // JDK 21 does not print what the carried thread runs; JDK 25 does
        if (Samples.feature(path) == 21) {
          assertThat(carried.stack()).isNull();
        } else {
          assertThat(carried.frames()).isNotEmpty();
        }
      }
    }
    assertThat(dump.facts().mountedStacksPrinted())
        .isEqualTo(
            Samples.feature(path) == 25
                && platform(dump).stream().anyMatch(DumpedThread::isCarrier));
  }

  @Test
  void jdk21AloneDoesNotSayWhatTheMountedVirtualThreadsRun() throws IOException {
    String print = "jdk21.0.8/class-init-carriers/thread-print.txt";
    assertThat(parse(print).mountedFramesKnown()).isFalse();
    assertThat(parse("jdk25/class-init-carriers/thread-print.txt").mountedFramesKnown()).isTrue();
    // completed by the JSON, which has every thread's frames
    ThreadDump merged =
        DumpMerge.of(Samples.json("jdk21.0.8/class-init-carriers/dump-to-file.json"), parse(print));
    assertThat(merged.mountedFramesKnown()).isTrue();
    assertThat(merged.threads().stream().filter(t -> t.carrier() >= 0))
        .hasSize(2)
        .allSatisfy(t -> assertThat(t.frames()).isNotEmpty());
  }

  /**
   * JDK 21's JSON marks no thread virtual, and lists one not started yet with no frames; the
   * Thread.print beside it lists every platform thread, so one it does not list is virtual.
   */
  @Test
  void aThreadThePrintDoesNotListIsVirtual() throws IOException {
    ThreadDump json = Samples.json("jdk21.0.8/carrier-starvation/dump-to-file.json");
    assertThat(Samples.named(json, "vt-pinned-2").kind()).isEqualTo(ThreadKind.UNKNOWN);
    assertThat(Samples.named(json, "vt-pinned-2").isVirtual()).isFalse();

    ThreadDump merged = DumpMerge.of(json, parse("jdk21.0.8/carrier-starvation/thread-print.txt"));

    assertThat(Samples.named(merged, "vt-pinned-2").kind()).isEqualTo(ThreadKind.VIRTUAL);
    assertThat(Samples.named(merged, "vt-pinned-3").isVirtual()).isTrue();
    assertThat(Samples.named(merged, "main").isVirtual()).isFalse();
    assertThat(Samples.named(merged, "Signal Dispatcher").isVirtual())
        .as("no Java frames, and listed by Thread.print")
        .isFalse();
  }

  @Test
  void lockLinesOfEveryKind() throws IOException {
    ThreadDump dump = parse("jdk25/platform-cycle/thread-print.txt");
    DumpedThread a = Samples.named(dump, "pt-monitor-A");
    assertThat(a.state()).isEqualTo("BLOCKED");
    assertThat(a.blocker())
        .isEqualTo(
            new Blocker.MonitorEnter(
                new ObjectRef("java.lang.Object", "0x00000000f0017018", ObjectRef.IdKind.ADDRESS)));
    assertThat(a.monitors())
        .containsExactly(
            new HeldMonitor(
                0,
                new ObjectRef("java.lang.Object", "0x00000000f0017008", ObjectRef.IdKind.ADDRESS)));
    DumpedThread lockA = Samples.named(dump, "pt-lock-A");
    assertThat(lockA.blocker()).isInstanceOf(Blocker.Parked.class);
    ObjectRef waitedFor = ((Blocker.Parked) lockA.blocker()).blocker();
    assertThat(waitedFor.className())
        .isEqualTo("java.util.concurrent.locks.ReentrantLock$NonfairSync");
    // -l: the lock it waits for is owned by the other platform thread
    assertThat(Samples.named(dump, "pt-lock-B").ownableSynchronizers()).contains(waitedFor);
    assertThat(Samples.named(dump, "Finalizer").blocker()).isInstanceOf(Blocker.MonitorWait.class);
  }

  @Test
  void theJvmsOwnDeadlockSectionsAreKept() throws IOException {
    for (String path :
        List.of(
            "jdk21.0.8/platform-cycle/thread-print.txt",
            "jdk25/platform-cycle/thread-print.txt",
            "jdk25/platform-cycle/jstack.txt")) {
      ThreadDump dump = parse(path);
      assertThat(dump.vmDeadlocks()).as(path).hasSize(2);
      VmDeadlock monitors =
          dump.vmDeadlocks().stream()
              .filter(d -> d.threadNames().contains("pt-monitor-A"))
              .findFirst()
              .orElseThrow();
      assertThat(monitors.threadNames()).containsExactlyInAnyOrder("pt-monitor-A", "pt-monitor-B");
      assertThat(monitors.waits())
          .allSatisfy(
              w ->
                  assertThat(w)
                      .startsWith("waiting to lock monitor")
                      .contains("which is held by \"pt-monitor-"));
      // the section's stacks do not add threads
      assertThat(dump.threads().stream().filter(t -> t.name().equals("pt-monitor-A"))).hasSize(1);
    }
    // none for virtual threads, whose cycles the JVM does not look for
    assertThat(parse("jdk25/monitor-cycle/thread-print.txt").vmDeadlocks()).isEmpty();
  }

  @Test
  void aClassInitialisationWaitBelongsToTheCarriedVirtualThread() throws IOException {
    for (String path :
        List.of(
            "jdk21.0.8/class-init-carriers/thread-print.txt",
            "jdk25/class-init-carriers/thread-print.txt")) {
      ThreadDump dump = parse(path);
      List<DumpedThread> waiting =
          dump.threads().stream().filter(t -> t.blocker() instanceof Blocker.ClassInit).toList();
      assertThat(waiting)
          .as(path)
          .singleElement()
          .satisfies(
              t -> {
                assertThat(t.kind()).isEqualTo(ThreadKind.VIRTUAL);
                assertThat(t.blocker()).isEqualTo(new Blocker.ClassInit("ClassInitDeadlock$Gate"));
                assertThat(dump.thread(t.carrier()).name()).startsWith("ForkJoinPool-1-worker-");
              });
    }
  }

  @Test
  void jdk21NamesTheVirtualThreadEachCarrierCarriesButNotItsFrames() throws IOException {
    ThreadDump dump = parse("jdk21-pinning-per-task.txt");
    // the Java threads (with a #id), not the JVM's own (GC, compiler)
    assertThat(platform(dump)).hasSize(14);
    DumpedThread first = Samples.named(dump, "ForkJoinPool-1-worker-1");
    assertThat(first.tid()).isEqualTo(19);
    assertThat(first.carrying()).isEqualTo(18);
    assertThat(first.isCarrier()).isTrue();
    assertThat(dump.thread(18).stack()).isNull();
    assertThat(first.cpuNanos()).isEqualTo(2_740_000L);
    assertThat(first.elapsedNanos()).isEqualTo(2_870_000_000L);
    assertThat(first.frames().get(0).className()).isEqualTo("jdk.internal.vm.Continuation");
    assertThat(first.frames().get(0).loader()).isEqualTo(Frame.ClassLoaderKind.BOOT);
    assertThat(Samples.named(dump, "ForkJoinPool-1-worker-2").carrying()).isEqualTo(21);
    assertThat(dump.threads().stream().filter(DumpedThread::isCarrier)).hasSize(2);
    assertThat(Samples.named(dump, "Finalizer").state()).isEqualTo("WAITING");
    assertThat(dump.facts().lockOwnersGiven()).as("taken without -l").isFalse();
  }

  @Test
  void jdk25AlsoPrintsTheFramesOfTheMountedVirtualThread() throws IOException {
    ThreadDump dump = parse("jdk25-poller-deadlock.txt");
    assertThat(platform(dump)).hasSize(15);
    DumpedThread carrier = Samples.named(dump, "ForkJoinPool-1-worker-1");
    assertThat(carrier.tid()).isEqualTo(23);
    assertThat(carrier.carrying()).isEqualTo(30);
    // the carrier's own frames end where it runs the continuation
    assertThat(carrier.frames().get(0).method()).isEqualTo("run");
    assertThat(carrier.frames().get(carrier.frames().size() - 1).className())
        .isEqualTo("java.util.concurrent.ForkJoinWorkerThread");
    List<Frame> mounted = dump.thread(30).frames();
    assertThat(mounted).isNotEmpty();
    assertThat(mounted.get(0).className()).isEqualTo("jdk.internal.misc.Unsafe");
    assertThat(mounted.get(0).isNativeMethod()).isTrue();
    assertThat(mounted.get(1).method()).isEqualTo("parkOnCarrierThread");
    assertThat(mounted.get(1).line()).isEqualTo(817);
    assertThat(mounted)
        .anySatisfy(
            f -> {
              assertThat(f.className()).startsWith("dev.vtscope.workloads.");
              assertThat(f.loader()).isEqualTo(Frame.ClassLoaderKind.APPLICATION);
            });
    DumpedThread second = Samples.named(dump, "ForkJoinPool-1-worker-2");
    assertThat(dump.thread(second.carrying()).frames()).isNotEmpty();
  }

  @Test
  void aNameWithQuotesAndAHeaderWithoutFiguresAreRead() {
    ThreadDump dump =
        ThreadPrint.parse(
            "\"a \"quoted\" name\" #5 [77] prio=5 os_prio=0 cpu=1.50ms elapsed=2.00s tid=0x1  \n"
                + "   java.lang.Thread.State: BLOCKED (on object monitor)\n"
                + "\tat app.Main.run(Main.java:12)\n"
                + "\n"
                + "\"bare\" #6 daemon\n");
    assertThat(dump.threads()).hasSize(2);
    DumpedThread quoted = dump.threads().get(0);
    assertThat(quoted.name()).isEqualTo("a \"quoted\" name");
    assertThat(quoted.tid()).isEqualTo(5);
    assertThat(quoted.cpuNanos()).isEqualTo(1_500_000L);
    assertThat(quoted.state()).isEqualTo("BLOCKED");
    assertThat(quoted.frames()).singleElement().satisfies(f -> assertThat(f.line()).isEqualTo(12));
    DumpedThread bare = dump.threads().get(1);
    assertThat(bare.cpuNanos()).isEqualTo(-1);
    assertThat(bare.elapsedNanos()).isEqualTo(-1);
    assertThat(bare.isCarrier()).isFalse();
  }

  @Test
  void hostileNamesAreKeptAsData() throws IOException {
    ThreadDump dump = parse("jdk25/escape-name/thread-print.txt");
    assertThat(dump.threads()).extracting(DumpedThread::name).contains("pt-\u001bx");
    String longName = "\"".repeat(10) + "\u0000\u001b" + "n".repeat(100_000);
    ThreadDump hostile =
        ThreadPrint.parse("\"" + longName + "\" #7 prio=5\n\tat a.B.c(B.java:1)\n");
    assertThat(hostile.threads())
        .singleElement()
        .satisfies(t -> assertThat(t.name()).isEqualTo(longName));
  }

  @Test
  void textThatIsNoDumpReadsAsNoThreads() {
    assertThat(ThreadPrint.parse("").threads()).isEmpty();
    assertThat(ThreadPrint.parse("Carrying virtual thread #3\n\tat a.B.c(B.java:1)").threads())
        .isEmpty();
    Random random = new Random(42);
    for (int i = 0; i < 200; i++) {
      byte[] bytes = new byte[random.nextInt(400)];
      random.nextBytes(bytes);
      String text = "\"t\" #1 " + new String(bytes, StandardCharsets.ISO_8859_1);
      // whatever the bytes, a list of threads and no exception
      assertThat(ThreadPrint.parse(text).threads())
          .isNotEmpty()
          .allSatisfy(t -> assertThat(t.tid()).isNotNegative());
    }
  }
}
