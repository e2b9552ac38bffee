package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.ChunkHeader;
import dev.vtscope.recording.ChunkScanner;
import dev.vtscope.recording.CpuFacts;
import dev.vtscope.recording.CpuSampleEvent;
import dev.vtscope.recording.EventSetting;
import dev.vtscope.recording.FileIoEvent;
import dev.vtscope.recording.JvmFacts;
import dev.vtscope.recording.MonitorEvent;
import dev.vtscope.recording.PinnedEvent;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingListener;
import dev.vtscope.recording.SubmitFailedEvent;
import dev.vtscope.recording.ThreadStartEvent;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one interval mechanism of {@code watch} and the agent: what an interval says is what its own
 * events alone say, and the running total is the merge of the sealed intervals, in any order.
 */
class IntervalStreamTest {

  private static final long SECOND = 1_000_000_000L;
  private static final int INTERVALS = 4;
  private static final AnalysisOptions OPTIONS =
      new AnalysisOptions(GroupBy.CULPRIT, List.of(), List.of(), List::of);

  /** One callback of a reader, to be replayed to another listener. */
  private record Call(
      boolean fact, boolean pinned, boolean eventful, Consumer<RecordingListener> replay) {}

  /** Every callback the JDK's reader makes for {@code recording}, but chunk starts, in order. */
  private static List<Call> calls(Path recording) throws Exception {
    List<Call> calls = new ArrayList<>();
    RecordingListener capture =
        new RecordingListener() {
          @Override
          public void pinned(PinnedEvent e) {
            calls.add(new Call(false, true, true, l -> l.pinned(e)));
          }

          @Override
          public void submitFailed(SubmitFailedEvent e) {
            calls.add(new Call(false, false, true, l -> l.submitFailed(e)));
          }

          @Override
          public void monitor(MonitorEvent e) {
            calls.add(new Call(false, false, true, l -> l.monitor(e)));
          }

          @Override
          public void threadStart(ThreadStartEvent e) {
            calls.add(new Call(false, false, false, l -> l.threadStart(e)));
          }

          @Override
          public void cpuSample(CpuSampleEvent e) {
            calls.add(new Call(false, false, false, l -> l.cpuSample(e)));
          }

          @Override
          public void fileIo(FileIoEvent e) {
            calls.add(new Call(false, false, true, l -> l.fileIo(e)));
          }

          @Override
          public void jvm(JvmFacts f) {
            calls.add(new Call(true, false, false, l -> l.jvm(f)));
          }

          @Override
          public void cpu(CpuFacts f) {
            calls.add(new Call(true, false, false, l -> l.cpu(f)));
          }

          @Override
          public void systemProperty(String key, String value) {
            calls.add(new Call(true, false, false, l -> l.systemProperty(key, value)));
          }

          @Override
          public void setting(EventSetting s) {
            calls.add(new Call(true, false, false, l -> l.setting(s)));
          }

          @Override
          public void stackDepth(int depth) {
            calls.add(new Call(true, false, false, l -> l.stackDepth(depth)));
          }
        };
    ReaderKind.JDK.create().read(recording, ChunkScanner.scan(recording), capture);
    return calls;
  }

  /**
   * The calls cut into {@link #INTERVALS} parts with about as many events each of those that make
   * an interval worth analysing.
   */
  private static List<List<Call>> intervals(List<Call> calls) {
    long events = calls.stream().filter(Call::eventful).count();
    List<List<Call>> parts = new ArrayList<>();
    for (int i = 0; i < INTERVALS; i++) {
      parts.add(new ArrayList<>());
    }
    long seen = 0;
    for (Call c : calls) {
      int part = (int) Math.min(INTERVALS - 1, seen * INTERVALS / Math.max(1, events));
      parts.get(part).add(c);
      seen += c.eventful() ? 1 : 0;
    }
    return parts;
  }

  /** Site key to its events and time: what an analysis says of each site. */
  private static Map<String, List<Long>> sites(Analysis a) {
    Map<String, List<Long>> sites = new TreeMap<>();
    a.pinned()
        .sites()
        .forEach(
            s ->
                sites.put(
                    "pinned " + s.key(),
                    List.of(s.durations().count(), s.durations().totalNanos())));
    if (a.monitorEnter() != null) {
      a.monitorEnter()
          .sites()
          .forEach(
              s ->
                  sites.put(
                      "enter " + s.key(),
                      List.of(s.durations().count(), s.durations().totalNanos())));
    }
    return sites;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "jdk21/pinning-synchronized.jfr",
        "jdk21/submit-failed.jfr",
        "jdk21/connection-pool-wait-notify.jfr"
      })
  void eachIntervalIsItsOwnEventsAndTheTotalIsTheirMerge(String sample) throws Exception {
    List<Call> calls = calls(TestRecordings.repoRoot().resolve("samples").resolve(sample));
    assertThat(calls.stream().filter(Call::eventful).count()).isGreaterThan(INTERVALS);
    IntervalStream stream = IntervalStream.keepingTotal(OPTIONS, "r", null, 0);
    Analyzer analyzer = new Analyzer(OPTIONS);
    List<Call> factsSoFar = new ArrayList<>();
    List<RecordingSummary> sealed = new ArrayList<>();
    IntervalStream.Tick last = null;
    long pinnedInIntervals = 0;
    int i = 0;
    for (List<Call> part : intervals(calls)) {
      part.forEach(c -> c.replay().accept(stream));
      IntervalStream.Tick tick = stream.next((i + 1) * SECOND);

      // the same events, and the facts stated so far, in a builder of their own
      SummaryBuilder alone = new SummaryBuilder();
      alone.chunk(new ChunkHeader(i, 0, 2, 0, 0, 0, 0, i * SECOND, 0, 0));
      factsSoFar.forEach(c -> c.replay().accept(alone));
      part.forEach(c -> c.replay().accept(alone));
      alone.endNanos = (i + 1) * SECOND;
      Analysis expected = analyzer.analyze("r", RecordingSummary.of(alone));

      assertThat(tick.quiet()).as("interval %d", i).isFalse();
      Analysis interval = tick.interval();
      assertThat(interval.pinned().durations()).isEqualTo(expected.pinned().durations());
      assertThat(interval.submitFailed().events()).isEqualTo(expected.submitFailed().events());
      assertThat(interval.carriers().peak()).isEqualTo(expected.carriers().peak());
      assertThat(sites(interval)).as("interval %d", i).isEqualTo(sites(expected));
      assertThat(Reports.json(interval)).isEqualTo(Reports.json(expected));

      // what watch shows of the interval is the interval's own analysis
      LiveSnapshot snapshot = LiveSnapshot.of(tick, null, null, null);
      assertThat(snapshot.pinnedInInterval()).isEqualTo(expected.pinned().durations().count());
      assertThat(snapshot.pinnedNanosInInterval())
          .isEqualTo(expected.pinned().durations().totalNanos());
      assertThat(snapshot.carriersHeldInInterval()).isEqualTo(expected.carriers().peak());
      assertThat(snapshot.submitFailuresInInterval()).isEqualTo(expected.submitFailed().events());
      Map<String, List<Long>> active = new TreeMap<>();
      snapshot.sites().stream()
          .filter(a -> a.eventsInInterval() > 0)
          .forEach(
              a ->
                  active.put(
                      (a.monitorEnter() ? "enter " : "pinned ") + a.site().key(),
                      List.of(a.eventsInInterval(), a.nanosInInterval())));
      assertThat(active).isEqualTo(sites(expected));

      pinnedInIntervals += snapshot.pinnedInInterval();
      part.stream().filter(Call::fact).forEach(factsSoFar::add);
      sealed.add(tick.summary());
      last = tick;
      i++;
    }
    assertThat(pinnedInIntervals).isEqualTo(last.total().pinned().durations().count());

    // the total is the merge of the sealed intervals, whatever their order
    String total = Reports.json(last.total());
    Random random = new Random(sample.hashCode());
    for (int round = 0; round < 5; round++) {
      List<RecordingSummary> shuffled = new ArrayList<>(sealed);
      Collections.shuffle(shuffled, random);
      assertThat(Reports.json(analyzer.analyze("r", RecordingSummary.mergeAll(shuffled))))
          .as("merged in the order of round %d", round)
          .isEqualTo(total);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdk21/pinning-synchronized.jfr"})
  void aStreamWithoutTotalAnalysesEachIntervalAloneAndSaysWhenNothingHappened(String sample)
      throws Exception {
    List<Call> calls = calls(TestRecordings.repoRoot().resolve("samples").resolve(sample));
    IntervalStream stream = IntervalStream.intervalsOnly(OPTIONS, "r", 0);
    calls.forEach(c -> c.replay().accept(stream));
    IntervalStream.Tick busy = stream.next(SECOND);
    assertThat(busy.total()).isNull();
    assertThat(busy.interval().pinned().durations().count())
        .isEqualTo(calls.stream().filter(Call::pinned).count());
    IntervalStream.Tick quiet = stream.next(2 * SECOND);
    assertThat(quiet.quiet()).isTrue();
    // a quiet interval still knows the JVM's facts, stated in the first one only
    assertThat(quiet.summary().content().jvm).isEqualTo(busy.summary().content().jvm).isNotNull();
  }
}
