package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vtscope.recording.ChunkHeader;
import dev.vtscope.recording.ThreadDumpEvent;
import org.junit.jupiter.api.Test;

/** A summary is a value: once made, neither its builder nor a merge changes what it holds. */
class RecordingSummaryTest {

  private static final long SECOND = 1_000_000_000L;

  private static SummaryBuilder chunk(int index, long startNanos, String dump) {
    SummaryBuilder builder = new SummaryBuilder();
    builder.chunk(new ChunkHeader(index, 0, 2, 0, 100, 0, 0, startNanos, SECOND, 0));
    builder.threadDump(new ThreadDumpEvent(startNanos, dump));
    return builder;
  }

  @Test
  void aSealedBuilderRefusesEverything() {
    SummaryBuilder builder = chunk(0, 0, "dump 0");
    RecordingSummary.of(builder);
    assertThatThrownBy(() -> builder.threadDump(new ThreadDumpEvent(SECOND, "later")))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> builder.stackDepth(64)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> builder.endAt(2 * SECOND)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> builder.merge(chunk(1, SECOND, "dump 1")))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> builder.takeFacts(new SummaryBuilder()))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void mergingMakesANewSummaryAndLeavesItsOperands() {
    RecordingSummary first = RecordingSummary.of(chunk(0, 0, "dump 0"));
    RecordingSummary second = RecordingSummary.of(chunk(1, SECOND, "dump 1"));
    RecordingSummary both = first.merge(second);
    assertThat(both).isNotSameAs(first).isNotSameAs(second);
    assertThat(both.chunks()).isEqualTo(2);
    assertThat(both.bytes()).isEqualTo(200);
    assertThat(both.endNanos()).isEqualTo(2 * SECOND);
    assertThat(both.content().lastDump.text()).isEqualTo("dump 1");
    assertThat(both.content().dumpBefore.text()).isEqualTo("dump 0");
    // the operands hold what they did
    assertThat(first.chunks()).isEqualTo(1);
    assertThat(first.endNanos()).isEqualTo(SECOND);
    assertThat(first.content().lastDump.text()).isEqualTo("dump 0");
    assertThat(first.content().dumpBefore).isNull();
    assertThat(second.chunks()).isEqualTo(1);
    assertThat(second.startNanos()).isEqualTo(SECOND);
    assertThat(second.content().dumpBefore).isNull();
  }
}
