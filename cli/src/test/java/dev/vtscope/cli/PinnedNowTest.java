package dev.vtscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.attribution.Attributor;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.live.ThreadDumpTaker;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.threaddump.DumpMerge;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadDumpJson;
import dev.vtscope.threaddump.ThreadKind;
import dev.vtscope.threaddump.ThreadPrint;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pinned-now threads from real thread dumps ({@code src/test/resources/threaddumps}, taken with
 * {@code jcmd PID Thread.dump_to_file -format=json} and {@code jcmd PID Thread.print}): JDK 25's
 * {@code poller-deadlock}, both readers mounted and waiting, and JDK 21's {@code pinning-per-task},
 * two virtual threads parked on their carriers inside a synchronized block.
 */
class PinnedNowTest {

  private static ThreadDump dump(String name, boolean withPrint) throws IOException {
    ThreadDump json;
    try (InputStream in = resource(name + ".json")) {
      json = ThreadDumpJson.read(in);
    }
    if (!withPrint) {
      return json;
    }
    return DumpMerge.of(json, printed(name));
  }

  private static ThreadDump printed(String name) throws IOException {
    try (InputStream in = resource(name + ".txt")) {
      return ThreadPrint.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  private static InputStream resource(String name) {
    InputStream in = PinnedNowTest.class.getResourceAsStream("/threaddumps/" + name);
    assertThat(in).as(name).isNotNull();
    return in;
  }

  private static List<PinnedNow> pinnedNow(ThreadDump dump, String javaVersion, int feature) {
    try (ClassBytesSource classes =
        ClassBytesSource.of(
            List.of(),
            List.of(
                new ClassBytesSource.RecordedClassPath(
                    TestRecordings.workloadsClassPath(), null, null)),
            javaVersion,
            feature,
            InstalledJdks::homes)) {
      return PinnedNow.find(
          List.of(dump), new Attributor(classes, new FrameOwnership(List.of())), f -> true);
    }
  }

  @Test
  void jdk25NamesBothReadersAndTheUpcallThatHoldsTheirCarriers() throws IOException {
    ThreadDump dump = dump("jdk25-poller-deadlock", true);
    assertThat(dump.runtimeVersion()).startsWith("25");
    List<PinnedNow> pinned = pinnedNow(dump, dump.runtimeVersion(), 25);
    assertThat(pinned)
        .extracting(PinnedNow::name)
        .containsExactlyInAnyOrder("reader-0", "reader-1");
    assertThat(pinned).allSatisfy(p -> assertThat(p.carrier()).isPositive());
    assertThat(pinned.stream().map(PinnedNow::carrier).distinct()).hasSize(2);
    for (PinnedNow p : pinned) {
      assertThat(p.attribution().culprit().qualifiedMethod())
          .isEqualTo("dev.vtscope.workloads.PollerDeadlock.readInCallback");
      assertThat(p.attribution().culprit().kind()).isEqualTo(CulpritKind.FOREIGN_FUNCTION);
    }
    // the read pollers are virtual threads too, not mounted: not pinned
    assertThat(dump.threads())
        .anySatisfy(
            t -> {
              assertThat(t.name()).startsWith("SubPoller");
              assertThat(t.kind()).isEqualTo(ThreadKind.VIRTUAL);
            });
  }

  @Test
  void jdk25JsonAloneFindsTheReadersButHidesTheUpcall() throws IOException {
    // The JSON leaves the JDK's hidden frames out (the upcall stub): Thread.print has them.
    List<PinnedNow> pinned = pinnedNow(dump("jdk25-poller-deadlock", false), "25", 25);
    assertThat(pinned).hasSize(2);
    assertThat(pinned)
        .allSatisfy(
            p ->
                assertThat(p.attribution().culprit().kind())
                    .isNotEqualTo(CulpritKind.FOREIGN_FUNCTION));
  }

  @Test
  void jdk21FindsThreadsParkedOnTheirCarriersAndTheSynchronizedBlock() throws IOException {
    ThreadDump dump = dump("jdk21-pinning-per-task", true);
    assertThat(dump.runtimeVersion()).startsWith("21");
    // JDK 21's JSON says neither virtual, state nor carrier
    assertThat(dump("jdk21-pinning-per-task", false).threads())
        .allSatisfy(
            t -> {
              assertThat(t.kind()).isEqualTo(ThreadKind.UNKNOWN);
              assertThat(t.state()).isNull();
              assertThat(t.carrier()).isEqualTo(-1);
            });
    List<PinnedNow> pinned = pinnedNow(dump, dump.runtimeVersion(), 21);
    assertThat(pinned).hasSize(2); // two carriers, each pinned by a sleeping task
    assertThat(pinned.stream().map(PinnedNow::carrier).distinct()).hasSize(2);
    for (PinnedNow p : pinned) {
      assertThat(p.carrier()).as("from Thread.print's 'Carrying virtual thread'").isPositive();
      assertThat(p.attribution().culprit().qualifiedMethod())
          .isEqualTo("dev.vtscope.workloads.PerTaskPinning.withMonitor");
      assertThat(p.attribution().culprit().kind()).isEqualTo(CulpritKind.SYNCHRONIZED_BLOCK);
    }
  }

  /**
   * Read as a dump is taken, with Thread.print's text beside the JSON: the unmounted virtual
   * threads (most of a large JVM's) are left out, and the pinned-now threads are the same.
   */
  @ParameterizedTest
  @ValueSource(strings = {"jdk25-poller-deadlock", "jdk21-pinning-per-task"})
  void unmountedVirtualThreadsAreLeftOutAndPinnedNowIsTheSame(String name) throws IOException {
    ThreadDump whole = dump(name, true);
    ThreadDump read;
    try (InputStream json = resource(name + ".json")) {
      read = ThreadDumpTaker.read(json, printed(name));
    }
    int feature = Integer.parseInt(whole.runtimeVersion().replaceAll("^(\\d+).*", "$1"));
    // those not started yet (no frames) are kept: they wait for a carrier, as a starvation says
    assertThat(read.threads())
        .as("no virtual thread that has run, without a carrier")
        .noneMatch(t -> t.isVirtual() && t.carrier() < 0 && !t.frames().isEmpty());
    assertThat(pinnedNow(read, read.runtimeVersion(), feature))
        .isEqualTo(pinnedNow(whole, whole.runtimeVersion(), feature));
    // the platform threads are all kept
    assertThat(read.threads())
        .containsAll(whole.threads().stream().filter(t -> !t.isVirtual()).toList());
  }

  /**
   * A dump is taken thread by thread: it can see one thread pinned on a carrier and then the next
   * one pinned on the same carrier after the first let go. Carriers held count carriers, not
   * threads.
   */
  @Test
  void carriersHeldCountsEachNamedCarrierOnce() {
    List<PinnedNow> sameCarrier =
        List.of(new PinnedNow(31, "", 21, null), new PinnedNow(32, "", 21, null));
    assertThat(PinnedNow.carriersHeld(sameCarrier, 2)).isEqualTo(1);
    List<PinnedNow> two =
        List.of(
            new PinnedNow(31, "", 21, null),
            new PinnedNow(32, "", 22, null),
            new PinnedNow(33, "", 21, null));
    assertThat(PinnedNow.carriersHeld(two, 2)).isEqualTo(2);
    assertThat(PinnedNow.carriersHeld(two, -1)).isEqualTo(2);
  }

  /**
   * Where the dump names no carrier (JDK 21), threads pinned on a carrier count at most the
   * parallelism, and those in {@code Object.wait()}, for which the scheduler starts another
   * carrier, count beside them.
   */
  @Test
  void carriersHeldWithoutNamedCarriersStopAtTheParallelismButForCompensatedWaits() {
    List<PinnedNow> three =
        List.of(
            new PinnedNow(31, "", -1, null),
            new PinnedNow(32, "", -1, null),
            new PinnedNow(33, "", -1, null));
    assertThat(PinnedNow.carriersHeld(three, 2)).isEqualTo(2);
    assertThat(PinnedNow.carriersHeld(three, -1)).as("parallelism unknown").isEqualTo(3);
    List<PinnedNow> waiting =
        List.of(
            new PinnedNow(31, "", -1, null),
            new PinnedNow(32, "", -1, null),
            new PinnedNow(33, "", -1, null),
            new PinnedNow(34, "", -1, null, true),
            new PinnedNow(35, "", -1, null, true));
    assertThat(PinnedNow.carriersHeld(waiting, 2)).isEqualTo(4);
  }

  /**
   * On JDK 21 the scheduler starts a carrier for a thread in {@code Object.wait()}, not a sleep.
   */
  @Test
  void jdk21ObjectWaitIsCompensatedAndASleepIsNot() throws IOException {
    String json;
    try (InputStream in = resource("jdk21-pinning-per-task.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String parked =
        "\"java.base\\/jdk.internal.misc.Unsafe.park(Native Method)\",\n"
            + "              \"java.base\\/java.lang.VirtualThread.parkOnCarrierThread(Unknown"
            + " Source)\",";
    assertThat(json).contains(parked);
    String waiting =
        json.replaceFirst(
            java.util.regex.Pattern.quote(parked),
            java.util.regex.Matcher.quoteReplacement(
                "\"java.base\\/java.lang.Object.wait0(Native Method)\",\n"
                    + "              \"java.base\\/java.lang.Object.wait(Unknown Source)\","));
    List<PinnedNow> pinned =
        pinnedNow(
            ThreadDumpJson.read(
                new java.io.ByteArrayInputStream(waiting.getBytes(StandardCharsets.UTF_8))),
            "21.0.8",
            21);
    assertThat(pinned).hasSize(2);
    assertThat(pinned).extracting(PinnedNow::compensated).containsExactlyInAnyOrder(true, false);
    assertThat(PinnedNow.carriersHeld(pinned, 1)).isEqualTo(2);
  }
}
