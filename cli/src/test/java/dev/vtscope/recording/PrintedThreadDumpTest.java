package dev.vtscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.PrintedThreadDump.PrintedThread;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Thread dumps as {@code jcmd Thread.print} prints them, and as {@code jdk.ThreadDump} holds them:
 * the real dumps of {@code src/test/resources/threaddumps} (JDK 21's {@code pinning-per-task}, two
 * carriers carrying virtual threads parked in a synchronized block; JDK 25's {@code
 * poller-deadlock}, both carriers pinned in an upcall's socket read), and text that is no dump.
 */
class PrintedThreadDumpTest {

  private static String text(String name) throws IOException {
    try (InputStream in = PrintedThreadDumpTest.class.getResourceAsStream("/threaddumps/" + name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static PrintedThread named(PrintedThreadDump dump, String name) {
    return dump.threads().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void jdk21NamesTheVirtualThreadEachCarrierCarriesButNotItsFrames() throws IOException {
    PrintedThreadDump dump = PrintedThreadDump.parse(text("jdk21-pinning-per-task.txt"));
    // the Java threads (with a #id), not the JVM's own (GC, compiler)
    assertThat(dump.threads()).hasSize(14);
    PrintedThread first = named(dump, "ForkJoinPool-1-worker-1");
    assertThat(first.tid()).isEqualTo(19);
    assertThat(first.carrying()).isEqualTo(18);
    assertThat(first.isCarrier()).isTrue();
    assertThat(first.mountedStack()).isNull();
    assertThat(first.cpuNanos()).isEqualTo(2_740_000L);
    assertThat(first.elapsedNanos()).isEqualTo(2_870_000_000L);
    assertThat(first.stack().get(0).className()).isEqualTo("jdk.internal.vm.Continuation");
    assertThat(first.stack().get(0).loader()).isEqualTo(Frame.ClassLoaderKind.BOOT);
    assertThat(named(dump, "ForkJoinPool-1-worker-2").carrying()).isEqualTo(21);
    assertThat(dump.threads().stream().filter(PrintedThread::isCarrier)).hasSize(2);
    assertThat(named(dump, "Finalizer").state()).isEqualTo("WAITING");
  }

  @Test
  void jdk25AlsoPrintsTheFramesOfTheMountedVirtualThread() throws IOException {
    PrintedThreadDump dump = PrintedThreadDump.parse(text("jdk25-poller-deadlock.txt"));
    assertThat(dump.threads()).hasSize(15);
    PrintedThread carrier = named(dump, "ForkJoinPool-1-worker-1");
    assertThat(carrier.tid()).isEqualTo(23);
    assertThat(carrier.carrying()).isEqualTo(30);
    // the carrier's own frames end where it runs the continuation
    assertThat(carrier.stack().get(0).method()).isEqualTo("run");
    assertThat(carrier.stack().get(carrier.stack().size() - 1).className())
        .isEqualTo("java.util.concurrent.ForkJoinWorkerThread");
    List<Frame> mounted = carrier.mountedStack();
    assertThat(mounted).isNotNull();
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
    assertThat(named(dump, "ForkJoinPool-1-worker-2").mountedStack()).isNotEmpty();
  }

  @Test
  void aNameWithQuotesAndAHeaderWithoutFiguresAreRead() {
    PrintedThreadDump dump =
        PrintedThreadDump.parse(
            "\"a \"quoted\" name\" #5 [77] prio=5 os_prio=0 cpu=1.50ms elapsed=2.00s tid=0x1  \n"
                + "   java.lang.Thread.State: BLOCKED (on object monitor)\n"
                + "\tat app.Main.run(Main.java:12)\n"
                + "\n"
                + "\"bare\" #6 daemon\n");
    assertThat(dump.threads()).hasSize(2);
    PrintedThread quoted = dump.threads().get(0);
    assertThat(quoted.name()).isEqualTo("a \"quoted\" name");
    assertThat(quoted.tid()).isEqualTo(5);
    assertThat(quoted.cpuNanos()).isEqualTo(1_500_000L);
    assertThat(quoted.state()).isEqualTo("BLOCKED");
    assertThat(quoted.stack()).singleElement().satisfies(f -> assertThat(f.line()).isEqualTo(12));
    PrintedThread bare = dump.threads().get(1);
    assertThat(bare.cpuNanos()).isEqualTo(-1);
    assertThat(bare.elapsedNanos()).isEqualTo(-1);
    assertThat(bare.isCarrier()).isFalse();
  }

  @Test
  void textThatIsNoDumpReadsAsNoThreads() {
    assertThat(PrintedThreadDump.parse("").threads()).isEmpty();
    assertThat(
            PrintedThreadDump.parse("Carrying virtual thread #3\n\tat a.B.c(B.java:1)").threads())
        .isEmpty();
    Random random = new Random(42);
    for (int i = 0; i < 200; i++) {
      byte[] bytes = new byte[random.nextInt(400)];
      random.nextBytes(bytes);
      String text = "\"t\" #1 " + new String(bytes, StandardCharsets.ISO_8859_1);
      // whatever the bytes, a list of threads and no exception
      assertThat(PrintedThreadDump.parse(text).threads())
          .isNotEmpty()
          .allSatisfy(t -> assertThat(t.tid()).isNotNegative());
    }
  }

  @Test
  void framesAsADumpPrintsThem() {
    Frame jdk =
        PrintedThreadDump.printedFrame("java.lang.Thread.sleep(java.base@25.0.3/Thread.java:509)");
    assertThat(jdk.className()).isEqualTo("java.lang.Thread");
    assertThat(jdk.method()).isEqualTo("sleep");
    assertThat(jdk.line()).isEqualTo(509);
    assertThat(jdk.loader()).isEqualTo(Frame.ClassLoaderKind.BOOT);
    assertThat(jdk.descriptor()).isNull();
    assertThat(jdk.bytecodeIndex()).isEqualTo(-1);
    Frame app = PrintedThreadDump.printedFrame("app.Main$Inner.run(Main.java:12)");
    assertThat(app.className()).isEqualTo("app.Main$Inner");
    assertThat(app.loader()).isEqualTo(Frame.ClassLoaderKind.APPLICATION);
    Frame unknown =
        PrintedThreadDump.printedFrame("java.lang.Object.wait(java.base@21.0.8/Unknown Source)");
    assertThat(unknown.line()).isEqualTo(-1);
    Frame nativeFrame =
        PrintedThreadDump.printedFrame(
            "jdk.internal.misc.Unsafe.park(java.base@25.0.3/Native Method)");
    assertThat(nativeFrame.isNativeMethod()).isTrue();
    // a hidden class keeps its address
    Frame stub =
        PrintedThreadDump.printedFrame(
            "jdk.internal.foreign.abi.UpcallStub/0x00000000280c6000.invoke(java.base@25.0.3/Unknown"
                + " Source)");
    assertThat(stub.className())
        .isEqualTo("jdk.internal.foreign.abi.UpcallStub/0x00000000280c6000");
    assertThat(stub.method()).isEqualTo("invoke");
    assertThat(stub.loader()).isEqualTo(Frame.ClassLoaderKind.BOOT);
    assertThat(PrintedThreadDump.printedFrame("no frame here")).isNull();
    assertThat(PrintedThreadDump.printedFrame("noDot(File.java:1)")).isNull();
  }
}
