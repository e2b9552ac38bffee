package dev.vtscope.waits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.threaddump.DumpMerge;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadDumpFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A monitor cycle between two virtual threads on JDK 21, whose dumps state neither monitor nor
 * holder: the shipped dump of the {@code deadlock --variant monitor} workload (JSON, with the
 * {@code Thread.print} taken beside it), as a series whose threads stood still, as one dump, and as
 * a series whose threads moved.
 */
class MonitorEntriesTest {

  private static final Path DUMPS = TestRecordings.repoRoot().resolve("samples/jdk21/dumps");

  private final ClassBytesSource classes =
      ClassBytesSource.of(List.of(), List.of(), null, 0, List::of);
  private final Attributor attributor = new Attributor(classes, new FrameOwnership(List.of()));

  @AfterEach
  void close() {
    classes.close();
  }

  /** The workload's dump, taken {@code seconds} after it was. */
  private static ThreadDump dump(long seconds) throws Exception {
    ThreadDump json = ThreadDumpFiles.read(DUMPS.resolve("deadlock-monitor.dump.json"));
    ThreadDump printed = ThreadDumpFiles.read(DUMPS.resolve("deadlock-monitor.thread-print.txt"));
    ThreadDump merged = DumpMerge.of(json, printed);
    return merged.withTakenAt(json.takenAt().plusSeconds(seconds));
  }

  private List<Deadlock> find(List<ThreadDump> series) {
    return Deadlocks.find(series, 0, attributor, feature -> feature < 24);
  }

  @Test
  void twoVirtualThreadsStandingStillWhereTheyEnterMonitorsAreStuckOverMonitors() throws Exception {
    List<Deadlock> found = find(List.of(dump(0), dump(2)));

    assertThat(found).hasSize(1);
    Deadlock d = found.get(0);
    assertThat(d.kind()).isEqualTo(Deadlock.Kind.MONITOR);
    assertThat(d.closed()).as("no dump names the holders").isFalse();
    assertThat(d.proven()).isFalse();
    assertThat(d.stuckAtLeast()).isEqualTo(Duration.ofSeconds(2));
    assertThat(d.weakest()).isEqualTo(WaitEdge.Evidence.INFERRED);
    assertThat(d.threads())
        .extracting(WaitGraph.Node::name)
        .containsExactlyInAnyOrder("holds-a-wants-b", "holds-b-wants-a");
    assertThat(d.threads()).as("blocked entering pins on JDK 21").allMatch(n -> n.holdsCarrier());
    for (WaitEdge e : d.edges()) {
      WaitEdge.Resource.MonitorEntry m = (WaitEdge.Resource.MonitorEntry) e.resource();
      assertThat(m.at().display())
          .isEqualTo(
              "dev.vtscope.workloads.LockOrderDeadlock.withMonitors(LockOrderDeadlock.java:105)");
      assertThat(m.holding())
          .as("the outer synchronized block of the same frame")
          .isEqualTo(m.at());
    }
  }

  /**
   * What holds a carrier now is one rule for the deadlock and for pinned now: the series shows both
   * threads pinned while they wait to enter a monitor (JDK 21), one dump does not, and a JDK where
   * entering a monitor unmounts never counts them.
   */
  @Test
  void theThreadsASeriesShowsEnteringAMonitorHoldTheirCarrierNow() throws Exception {
    assertThat(CarrierHolding.heldNow(List.of(dump(0), dump(2)), attributor, f -> f < 24))
        .extracting(DumpedThread::name)
        .containsExactlyInAnyOrder("holds-a-wants-b", "holds-b-wants-a");
    assertThat(CarrierHolding.heldNow(List.of(dump(2)), attributor, f -> f < 24)).isEmpty();
    assertThat(CarrierHolding.heldNow(List.of(dump(0), dump(2)), attributor, f -> false)).isEmpty();
  }

  /**
   * The groups of the waits count what holds a carrier by the same rule: the two threads the series
   * shows entering a monitor wait there, holding their carriers, and do not run there.
   */
  @Test
  void theGroupsOfASeriesCountTheThreadsEnteringAMonitorAsHoldingTheirCarrier() throws Exception {
    WaitSeries series =
        WaitSeries.of(
            List.of(dump(0), dump(2)),
            new WaitClassifier(new FrameOwnership(List.of()), attributor, f -> f < 24));

    DumpWaits last = series.dumps().get(1);
    assertThat(last.carriersHeld()).isEqualTo(2);
    WaitGroup first = last.groups().get(0);
    assertThat(first.key().kind()).isEqualTo(WaitKind.MONITOR_ENTER);
    assertThat(first.carriersHeld()).isEqualTo(2);
    assertThat(first.key().site()).contains("LockOrderDeadlock.withMonitors");
    assertThat(series.groups().get(0).stuck()).as("the same wait in both dumps").isTrue();
    // they stood there from the first dump of the series on
    assertThat(series.dumps().get(0).carriersHeld()).isEqualTo(2);
    // the group's threads in full (explore's list) are read the same way
    assertThat(
            WaitGrouping.members(last, new WaitClassifier(new FrameOwnership(List.of())))
                .get(first.key()))
        .extracting(DumpedThread::name)
        .containsExactlyInAnyOrder("holds-a-wants-b", "holds-b-wants-a");
  }

  @Test
  void oneDumpMakesItOnlyPossible() throws Exception {
    List<Deadlock> found = find(List.of(dump(0)));

    assertThat(found).hasSize(1);
    assertThat(found.get(0).stuck()).isFalse();
    assertThat(found.get(0).proven()).isFalse();
    assertThat(found.get(0).threads())
        .as("one dump does not show them blocked, so not pinned either")
        .noneMatch(WaitGraph.Node::holdsCarrier);
  }

  @Test
  void threadsThatMovedBetweenTheDumpsAreNotWaiting() throws Exception {
    ThreadDump later = dump(2);
    List<DumpedThread> moved = new ArrayList<>();
    for (DumpedThread t : later.threads()) {
      if (t.name().equals("holds-a-wants-b")) {
        // one line further on: it ran between the dumps
        List<Frame> frames = new ArrayList<>(t.frames());
        Frame top = frames.get(0);
        frames.set(
            0,
            new Frame(
                top.className(),
                top.method(),
                top.descriptor(),
                top.line() + 1,
                top.bytecodeIndex(),
                top.type(),
                top.modifiers(),
                top.loader()));
        t = t.withStack(new RecordedStack(frames, false));
      }
      moved.add(t);
    }
    ThreadDump withMoved = later.with(later.pid(), moved);
    List<Deadlock> found = find(List.of(dump(0), withMoved));

    assertThat(found).as("one thread left the cycle: no chain of two stands still").isEmpty();
  }

  @Test
  void withoutClassFilesNothingIsInferred() throws Exception {
    assertThat(Deadlocks.find(List.of(dump(0), dump(2)), 0)).isEmpty();
  }
}
