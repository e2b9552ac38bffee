package dev.vtscope.threaddump;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.GeneratedDumps;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JSON of {@code Thread.dump_to_file -format=json}: every sample of JDK 21 and 25, files cut
 * short as the JDK's writer leaves them, hostile names, and a dump of 100,000 virtual threads.
 */
class ThreadDumpJsonTest {

  static Stream<String> jsonSamples() {
    return Stream.concat(Samples.named("dump-to-file.json"), Samples.named("in-process.json"));
  }

  @ParameterizedTest
  @MethodSource("jsonSamples")
  void everySampleReadsWholeWithWhatItsJdkWrites(String path) throws IOException {
    ThreadDump dump = Samples.json(path);
    if (path.contains("escape-name")) {
      // the JDK's writer failed on the ESC in a thread's name and left the file cut
      assertThat(dump.complete()).isFalse();
      assertThat(dump.notes()).singleElement().asString().startsWith("the JSON breaks off after");
      return;
    }
    assertThat(dump.complete()).as(dump.notes().toString()).isTrue();
    assertThat(dump.notes()).isEmpty();
    assertThat(dump.format()).isEqualTo(DumpFormat.JSON);
    assertThat(dump.feature()).isEqualTo(Samples.feature(path));
    assertThat(dump.pid()).isPositive();
    assertThat(dump.takenAt()).isNotNull();
    assertThat(dump.threads()).isNotEmpty().allSatisfy(t -> assertThat(t.tid()).isPositive());
    assertThat(dump.threads().stream().map(DumpedThread::tid).distinct())
        .hasSize(dump.threads().size());
    assertThat(dump.containers()).first().satisfies(c -> assertThat(c.name()).isEqualTo("<root>"));
    assertThat(dump.containers().stream().mapToInt(ThreadContainer::listed).sum())
        .isEqualTo(dump.threads().size());
    DumpedThread main = Samples.named(dump, "main");
    assertThat(main.container()).isEqualTo("<root>");
    assertThat(main.frames()).isNotEmpty();
    if (Samples.feature(path) == 21) {
      // JDK 21 writes each thread's id, name and stack, nothing more
      assertThat(dump.facts()).isEqualTo(DumpFacts.NONE);
      assertThat(dump.threads())
          .allSatisfy(
              t -> {
                assertThat(t.kind()).isEqualTo(ThreadKind.UNKNOWN);
                assertThat(t.state()).isNull();
                assertThat(t.carrier()).isEqualTo(-1);
                assertThat(t.blocker()).isNull();
                assertThat(t.monitors()).isEmpty();
                assertThat(t.sampledAt()).isNull();
              });
    } else {
      assertThat(dump.facts().statesGiven()).isTrue();
      assertThat(dump.facts().virtualMarked()).isTrue();
      assertThat(dump.facts().lockOwnersGiven()).as("parkBlocker.owner is JDK 26's").isFalse();
      assertThat(dump.threads())
          .allSatisfy(
              t -> {
                assertThat(t.kind()).isNotEqualTo(ThreadKind.UNKNOWN);
                assertThat(t.state()).isNotNull();
                assertThat(t.sampledAt()).isNotNull();
              });
      // "main" waits for the program's threads: parked on a latch, or in a join or a sleep
      assertThat(main.kind()).isEqualTo(ThreadKind.PLATFORM);
    }
  }

  @Test
  void jdk25NamesTheMonitorsOfACycleBetweenVirtualThreads() throws IOException {
    ThreadDump dump = Samples.json("jdk25/monitor-cycle/dump-to-file.json");
    DumpedThread a = Samples.named(dump, "vt-monitor-A");
    DumpedThread b = Samples.named(dump, "vt-monitor-B");
    assertThat(a.kind()).isEqualTo(ThreadKind.VIRTUAL);
    assertThat(a.isVirtual()).isTrue();
    assertThat(a.state()).isEqualTo("BLOCKED");
    assertThat(a.blocker())
        .isEqualTo(
            new Blocker.MonitorEnter(
                new ObjectRef(
                    "java.lang.Object", "java.lang.Object@528d919", ObjectRef.IdKind.IDENTITY)));
    assertThat(a.monitors())
        .containsExactly(new HeldMonitor(0, ObjectRef.identity("java.lang.Object@3a2f26d7")));
    // each holds what the other waits for
    assertThat(((Blocker.MonitorEnter) b.blocker()).lock()).isEqualTo(a.monitors().get(0).lock());
    assertThat(b.monitors().get(0).lock()).isEqualTo(((Blocker.MonitorEnter) a.blocker()).lock());
    assertThat(a.frames().get(0).className()).isEqualTo("MonitorCycle");
    assertThat(a.frames().get(0).line()).isEqualTo(22);
    DumpedThread finalizer = Samples.named(dump, "Finalizer");
    assertThat(finalizer.blocker()).isInstanceOf(Blocker.MonitorWait.class);
    DumpedThread main = Samples.named(dump, "main");
    assertThat(main.blocker())
        .isEqualTo(
            new Blocker.Parked(
                ObjectRef.identity("java.util.concurrent.CountDownLatch$Sync@74ac3d25"), -1));
  }

  @Test
  void jdk25NamesTheCarrierOfAMountedVirtualThreadAfterItsStack() throws IOException {
    ThreadDump dump = Samples.json("jdk25/class-init-carriers/dump-to-file.json");
    List<DumpedThread> mounted = dump.threads().stream().filter(t -> t.carrier() >= 0).toList();
    assertThat(mounted).hasSize(2).allSatisfy(t -> assertThat(t.isVirtual()).isTrue());
    for (DumpedThread t : mounted) {
      assertThat(dump.thread(t.carrier()).name()).startsWith("ForkJoinPool-1-worker-");
    }
    // kept by a reading that keeps mounted threads only: decided when the object ends, with its
    // frames (the carrier comes after the stack)
    ThreadDump kept;
    try (InputStream in = Samples.open("jdk25/class-init-carriers/dump-to-file.json")) {
      kept = ThreadDumpJson.read(in, t -> !t.isVirtual() || t.carrier() >= 0);
    }
    assertThat(kept.threads().stream().filter(DumpedThread::isVirtual))
        .hasSize(2)
        .allSatisfy(t -> assertThat(t.frames()).isNotEmpty());
  }

  @Test
  void jdk21TellsVirtualThreadsByTheirStacksOnly() throws IOException {
    ThreadDump dump = Samples.json("jdk21.0.8/carrier-starvation/dump-to-file.json");
    assertThat(Samples.named(dump, "vt-pinned-0").isVirtual()).isTrue();
    assertThat(Samples.named(dump, "ForkJoinPool-1-worker-1").isVirtual()).isFalse();
    // never run: no frames, so not told
    assertThat(Samples.named(dump, "vt-pinned-2").frames()).isEmpty();
    assertThat(Samples.named(dump, "vt-pinned-2").isVirtual()).isFalse();
    assertThat(dump.containers())
        .extracting(ThreadContainer::name)
        .anySatisfy(n -> assertThat(n).startsWith("ForkJoinPool-1/"));
  }

  @Test
  void aFileCutShortAsTheJdkLeavesItKeepsTheThreadsBeforeTheCut() throws IOException {
    for (String path :
        List.of(
            "jdk21.0.2/escape-name/dump-to-file.json",
            "jdk21.0.8/escape-name/dump-to-file.json",
            "jdk25/escape-name/dump-to-file.json",
            "jdk21.0.8/in-process/in-process-esc.json",
            "jdk25/in-process/in-process-esc.json")) {
      ThreadDump dump = Samples.json(path);
      assertThat(dump.complete()).as(path).isFalse();
      assertThat(dump.notes()).as(path).hasSize(1);
      assertThat(dump.notes().get(0)).as(path).doesNotContain("\n");
      if (Samples.bytes(path).length > 0) {
        assertThat(dump.threads()).as(path).isNotEmpty();
        assertThat(Samples.named(dump, "main").frames()).isNotEmpty();
      }
    }
  }

  @Test
  void everyCutOfAFileReadsAsAnIncompleteDumpNeverAnException() throws IOException {
    byte[] whole = Samples.bytes("jdk25/monitor-cycle/dump-to-file.json");
    int threads = Samples.json("jdk25/monitor-cycle/dump-to-file.json").threads().size();
    for (int length = 0; length < whole.length - 1; length += 37) {
      ThreadDump dump = ThreadDumpJson.read(new ByteArrayInputStream(whole, 0, length));
      assertThat(dump.complete()).as("cut at %d", length).isFalse();
      assertThat(dump.threads().size()).isLessThanOrEqualTo(threads);
      assertThat(dump.notes()).hasSize(1);
    }
  }

  @Test
  void hostileNamesAreKeptAsData() throws IOException {
    String longName = "x".repeat(100_000);
    String json =
        """
        {"threadDump": {"processId": 7, "runtimeVersion": "25.0.3+9-LTS", "threadContainers": [
          {"container": "<root>", "parent": null, "owner": null, "threads": [
            {"tid": 1, "name": "vt-\\u001b[31mred\\u0000\\"quoted\\"\\/", "state": "RUNNABLE",
             "virtual": true, "stack": ["app.Main.run(Main.java:1)"], "carrier": 2},
            {"tid": "2", "name": "%s", "state": "RUNNABLE", "stack": []},
            {"tid": "3", "name": null, "stack": ["no frame", 12, {"a": [1]}, "a.B.c(B.java:3)"]}
          ], "threadCount": "3"}]}}
        """
            .formatted(longName);
    ThreadDump dump =
        ThreadDumpJson.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    assertThat(dump.complete()).as(dump.notes().toString()).isTrue();
    assertThat(dump.pid()).isEqualTo(7);
    assertThat(dump.threads()).hasSize(3);
    DumpedThread escaped = dump.thread(1);
    assertThat(escaped.name()).isEqualTo("vt-\u001b[31mred\u0000\"quoted\"/");
    assertThat(escaped.carrier()).isEqualTo(2);
    assertThat(dump.thread(2).name()).hasSize(100_000);
    assertThat(dump.thread(2).kind()).isEqualTo(ThreadKind.PLATFORM);
    // what is no frame is left out
    assertThat(dump.thread(3).name()).isEmpty();
    assertThat(dump.thread(3).frames())
        .singleElement()
        .satisfies(f -> assertThat(f.line()).isEqualTo(3));
    assertThat(dump.containers())
        .singleElement()
        .satisfies(c -> assertThat(c.threadCount()).isEqualTo(3));
  }

  @Test
  void aRawControlCharacterEndsTheDumpAsIncomplete() throws IOException {
    String json =
        "{\"threadDump\": {\"threadContainers\": [{\"container\": \"<root>\", \"threads\": ["
            + "{\"tid\": \"1\", \"name\": \"main\", \"stack\": []},"
            + "{\"tid\": \"2\", \"name\": \"vt-\u001b[31mred\", \"stack\": []}]}]}}";
    ThreadDump dump =
        ThreadDumpJson.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    assertThat(dump.complete()).isFalse();
    assertThat(dump.threads()).extracting(DumpedThread::name).containsExactly("main");
    assertThat(dump.notes().get(0)).startsWith("the JSON breaks off after 1 thread ");
  }

  /**
   * 100,000 parked virtual threads, written as JDK 25 writes them and never held whole, in memory
   * or on disk: each thread is read as it comes, and the few distinct stacks are made once.
   */
  @Test
  void aHundredThousandVirtualThreadsShareTheirFewStacks() throws IOException {
    int count = 100_000;
    ThreadDump dump = ThreadDumpJson.read(GeneratedDumps.parkedCrowd(count));
    assertThat(dump.complete()).as(dump.notes().toString()).isTrue();
    assertThat(dump.threads()).hasSize(count + 1);
    assertThat(dump.containers()).extracting(ThreadContainer::listed).containsExactly(1, count);
    Set<Object> stacks = Collections.newSetFromMap(new IdentityHashMap<>());
    Set<Object> frames = Collections.newSetFromMap(new IdentityHashMap<>());
    for (DumpedThread t : dump.threads()) {
      stacks.add(t.stack());
      frames.addAll(t.frames());
    }
    // the main thread's stack and three of the virtual threads'
    assertThat(stacks).hasSize(4);
    assertThat(frames.size()).isLessThan(40);
    DumpedThread last = dump.threads().get(count);
    assertThat(last.tid()).isEqualTo(100 + count - 1);
    assertThat(last.name()).isEqualTo("worker-" + (count - 1));
    assertThat(last.isVirtual()).isTrue();
    assertThat(last.blocker()).isInstanceOf(Blocker.Parked.class);
  }
}
