package dev.vtscope.threaddump;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The plain text of {@code Thread.dump_to_file}: every sample of JDK 21 and 25, hostile names. */
class ThreadDumpTextTest {

  static Stream<String> textSamples() {
    return Stream.concat(Samples.named("dump-to-file.txt"), Samples.named("in-process.txt"));
  }

  @ParameterizedTest
  @MethodSource("textSamples")
  void everySampleReadsWithWhatItsJdkWrites(String path) throws IOException {
    ThreadDump dump = Samples.plain(path);
    assertThat(dump.format()).isEqualTo(DumpFormat.PLAIN_TEXT);
    assertThat(dump.complete()).isTrue();
    assertThat(dump.pid()).isPositive();
    assertThat(dump.takenAt()).isNotNull();
    assertThat(dump.feature()).isEqualTo(Samples.feature(path));
    assertThat(dump.facts().virtualMarked()).isTrue();
    assertThat(dump.threads()).isNotEmpty().allSatisfy(t -> assertThat(t.tid()).isPositive());
    assertThat(dump.threads())
        .allSatisfy(t -> assertThat(t.kind()).isNotEqualTo(ThreadKind.UNKNOWN));
    DumpedThread main = Samples.named(dump, "main");
    assertThat(main.kind()).isEqualTo(ThreadKind.PLATFORM);
    assertThat(main.frames()).isNotEmpty();
    if (Samples.feature(path) == 21) {
      assertThat(dump.facts().statesGiven()).isFalse();
      assertThat(dump.threads()).allSatisfy(t -> assertThat(t.state()).isNull());
    } else {
      assertThat(dump.facts().statesGiven()).isTrue();
      assertThat(dump.threads())
          .allSatisfy(
              t -> {
                assertThat(t.state()).isNotNull();
                assertThat(t.sampledAt()).isNotNull();
              });
    }
  }

  @Test
  void jdk25NamesLocksAsTheJsonDoes() throws IOException {
    ThreadDump dump = Samples.plain("jdk25/monitor-cycle/dump-to-file.txt");
    DumpedThread a = Samples.named(dump, "vt-monitor-A");
    assertThat(a.kind()).isEqualTo(ThreadKind.VIRTUAL);
    assertThat(a.state()).isEqualTo("BLOCKED");
    assertThat(a.blocker())
        .isEqualTo(new Blocker.MonitorEnter(ObjectRef.identity("java.lang.Object@528d919")));
    assertThat(a.monitors())
        .containsExactly(new HeldMonitor(0, ObjectRef.identity("java.lang.Object@3a2f26d7")));
    DumpedThread finalizer = Samples.named(dump, "Finalizer");
    assertThat(finalizer.blocker())
        .isEqualTo(
            new Blocker.MonitorWait(
                ObjectRef.identity("java.lang.ref.ReferenceQueue$Lock@5a2e4114")));
    // JDK-8361926: a thread in Object.wait() lists the object it waits on as locked too
    assertThat(finalizer.monitors())
        .extracting(HeldMonitor::lock)
        .contains(ObjectRef.identity("java.lang.ref.ReferenceQueue$Lock@5a2e4114"));
    assertThat(Samples.named(dump, "main").blocker()).isInstanceOf(Blocker.Parked.class);
  }

  @Test
  void jdk21MarksVirtualThreadsEvenThoseNeverRun() throws IOException {
    ThreadDump dump = Samples.plain("jdk21.0.8/carrier-starvation/dump-to-file.txt");
    assertThat(Samples.named(dump, "vt-pinned-0").kind()).isEqualTo(ThreadKind.VIRTUAL);
    assertThat(Samples.named(dump, "vt-pinned-2").kind()).isEqualTo(ThreadKind.VIRTUAL);
    assertThat(Samples.named(dump, "vt-pinned-2").frames()).isEmpty();
    assertThat(Samples.named(dump, "ForkJoinPool-1-worker-1").kind())
        .isEqualTo(ThreadKind.PLATFORM);
  }

  @Test
  void aNameWithAnEscCharacterIsReadRaw() throws IOException {
    for (String path :
        new String[] {
          "jdk21.0.8/escape-name/dump-to-file.txt", "jdk25/escape-name/dump-to-file.txt"
        }) {
      ThreadDump dump = Samples.plain(path);
      assertThat(dump.threads())
          .as(path)
          .anySatisfy(t -> assertThat(t.name()).isEqualTo("vt-\u001b[31mred"));
    }
  }

  @Test
  void hostileNamesAreKeptAsData() throws IOException {
    String longName = "\"q\" virtual RUNNABLE ".repeat(5_000);
    String text =
        "12\n2026-11-27T11:15:36.993702851Z\n25.0.3+9-LTS\n\n"
            + "#3 \"a \"quoted\" \u0007 name\" virtual WAITING 2026-11-27T11:15:37Z\n"
            + "    at app.Main.run(Main.java:12)\n"
            + "    - a line no JDK writes\n"
            + "\n"
            + "#4 \""
            + longName
            + "\" RUNNABLE 2026-11-27T11:15:37Z\n"
            + "\n"
            + "#99999999999999999999 \"too long an id\"\n"
            + "    at app.Main.run(Main.java:13)\n";
    ThreadDump dump = ThreadDumpText.read(new StringReader(text));
    assertThat(dump.threads()).hasSize(2);
    DumpedThread quoted = dump.thread(3);
    assertThat(quoted.name()).isEqualTo("a \"quoted\" \u0007 name");
    assertThat(quoted.kind()).isEqualTo(ThreadKind.VIRTUAL);
    assertThat(quoted.state()).isEqualTo("WAITING");
    assertThat(quoted.frames()).hasSize(1);
    assertThat(dump.thread(4).name()).isEqualTo(longName).hasSize(105_000);
    assertThat(dump.thread(4).kind()).isEqualTo(ThreadKind.PLATFORM);
  }
}
