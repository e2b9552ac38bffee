package dev.vtscope.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.Finding;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.testing.AnalysisBuilder;
import dev.vtscope.testing.LockedLines;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.testing.Words;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Stacks on which several frames hold monitors, in every order of library, JDK and application
 * frames. The carrier stays pinned until the outermost monitor is released, and the fix belongs to
 * code a user or a library's author can change: the culprit is the outermost holder that is not the
 * JDK's, and the JDK's holders are named as released with it.
 */
class NestedMonitorsTest {

  private static final Frame PARK =
      frame("java.lang.VirtualThread", "park", 0, Frame.ClassLoaderKind.BOOT);
  private static final Frame SOCKET_READ =
      frame("sun.nio.ch.NioSocketImpl", "read", 0, Frame.ClassLoaderKind.BOOT);
  private static final Frame READER_READ =
      frame("java.io.BufferedReader", "read", Modifier.SYNCHRONIZED, Frame.ClassLoaderKind.BOOT);
  private static final Frame MAP_COMPUTE =
      frame(
          "java.util.concurrent.ConcurrentHashMap",
          "compute",
          Modifier.SYNCHRONIZED,
          Frame.ClassLoaderKind.BOOT);
  private static final Frame LIBRARY_READ =
      frame(
          "org.acme.net.LineClient",
          "readLine",
          Modifier.SYNCHRONIZED,
          Frame.ClassLoaderKind.APPLICATION);
  private static final Frame LIBRARY_LOAD =
      frame(
          "org.acme.cache.Loader",
          "load",
          Modifier.SYNCHRONIZED,
          Frame.ClassLoaderKind.APPLICATION);
  private static final Frame APP_PAY =
      frame(
          "com.example.shop.Checkout",
          "pay",
          Modifier.SYNCHRONIZED,
          Frame.ClassLoaderKind.APPLICATION);
  private static final Frame APP_MAIN =
      frame("com.example.shop.Main", "run", 0, Frame.ClassLoaderKind.APPLICATION);

  /**
   * The user's case: a library's synchronized block on a lock it passed to a JDK reader, which
   * synchronizes on it again and blocks in a socket read. The block is found in the class file
   * compiled with the tests.
   */
  @Test
  void aLibraryBlockReenteredByAJdkReaderIsTheLibrarysNotTheJdks() throws Exception {
    Path classes =
        Path.of(LockedLines.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    byte[] bytes =
        Files.readAllBytes(
            classes.resolve(LockedLines.class.getName().replace('.', '/') + ".class"));
    AsmSynchronizedBlocks.Region block = new AsmSynchronizedBlocks(bytes).regions("next()I").get(0);
    // the frame stands in the block, at the reader's call: the line the source gives that call
    List<String> source =
        Files.readAllLines(
            TestRecordings.repoRoot()
                .resolve("cli/src/test/java/dev/vtscope/testing/LockedLines.java"));
    int readLine = source.stream().map(String::strip).toList().indexOf("return reader.read();") + 1;
    assertThat(readLine).isPositive();
    Frame library =
        new Frame(
            LockedLines.class.getName(),
            "next",
            "()I",
            readLine,
            block.startBci(),
            "Interpreted",
            Modifier.PUBLIC,
            Frame.ClassLoaderKind.APPLICATION);
    RecordedStack stack =
        new RecordedStack(List.of(PARK, SOCKET_READ, READER_READ, library, APP_MAIN), false);

    try (ClassBytesSource found = new ClassBytesSource(List.of(classes), null, 0, List::of)) {
      Attribution attribution =
          new Attributor(found, new FrameOwnership(List.of())).pinned(stack, null);

      Culprit culprit = attribution.culprit();
      assertThat(culprit.qualifiedMethod()).isEqualTo(LockedLines.class.getName() + ".next");
      assertThat(culprit.kind()).isEqualTo(CulpritKind.SYNCHRONIZED_BLOCK);
      assertThat(culprit.owner()).isEqualTo(Owner.LIBRARY);
      assertThat(culprit.lineRange()).isEqualTo(block.lines());
      assertThat(attribution.otherMonitorFrames()).extracting(MonitorFrame::frameIndex).contains(2);
      assertThat(attribution.calledFrom()).isEqualTo(APP_MAIN);

      List<String> actions = monitorActions(stack, attribution);
      assertThat(actions)
          .anySatisfy(
              a ->
                  assertThat(a)
                      .startsWith(
                          "Inside the monitor of dev.vtscope.testing.LockedLines.next, this stack"
                              + " holds another monitor (java.io.BufferedReader.read), taken after"
                              + " it and released with it"));
      assertNeverBlamesTheJdk(actions);
    }
  }

  @Test
  void aLibraryMethodOutsideAJdkOneIsTheCulprit() {
    RecordedStack stack =
        new RecordedStack(List.of(PARK, SOCKET_READ, READER_READ, LIBRARY_READ, APP_MAIN), false);
    Attribution attribution = attribute(stack);
    assertThat(attribution.culprit().qualifiedMethod())
        .isEqualTo("org.acme.net.LineClient.readLine");
    assertThat(attribution.culprit().owner()).isEqualTo(Owner.LIBRARY);
    assertThat(attribution.otherMonitorFrames())
        .extracting(MonitorFrame::frameIndex)
        .containsExactly(2);
    List<String> actions = monitorActions(stack, attribution);
    assertThat(actions).anySatisfy(a -> assertThat(a).contains("(java.io.BufferedReader.read)"));
    assertNeverBlamesTheJdk(actions);
  }

  @Test
  void aLibraryMonitorInsideAJdkOneIsTheLibrarysAndTheJdksIsNamedAsHeldFurtherDown() {
    RecordedStack stack =
        new RecordedStack(List.of(PARK, SOCKET_READ, LIBRARY_LOAD, MAP_COMPUTE, APP_MAIN), false);
    Attribution attribution = attribute(stack);
    assertThat(attribution.culprit().qualifiedMethod()).isEqualTo("org.acme.cache.Loader.load");
    assertThat(attribution.otherMonitorFrames())
        .extracting(MonitorFrame::frameIndex)
        .containsExactly(3);
    List<String> actions = monitorActions(stack, attribution);
    assertThat(actions)
        .anySatisfy(
            a ->
                assertThat(a)
                    .startsWith(
                        "This stack holds another monitor further down"
                            + " (java.util.concurrent.ConcurrentHashMap.compute)")
                    .contains("The JDK's monitor is held while it runs the code passed to it"));
    assertNeverBlamesTheJdk(actions);
  }

  @Test
  void anApplicationMonitorOutsideALibraryOneIsTheApplications() {
    RecordedStack stack =
        new RecordedStack(List.of(PARK, SOCKET_READ, LIBRARY_READ, APP_PAY, APP_MAIN), false);
    Attribution attribution = attribute(stack);
    assertThat(attribution.culprit().qualifiedMethod()).isEqualTo("com.example.shop.Checkout.pay");
    assertThat(attribution.culprit().owner()).isEqualTo(Owner.APPLICATION);
    List<String> actions = monitorActions(stack, attribution);
    assertThat(actions)
        .anySatisfy(
            a ->
                assertThat(a)
                    .startsWith(
                        "Inside the monitor of com.example.shop.Checkout.pay, this stack holds"
                            + " another monitor (org.acme.net.LineClient.readLine)"))
        .anySatisfy(
            a ->
                assertThat(a)
                    .startsWith(
                        "Hold a java.util.concurrent.locks.ReentrantLock instead of the monitor in"
                            + " com.example.shop.Checkout.pay"));
    assertNeverBlamesTheJdk(actions);
  }

  @Test
  void ofMonitorsOnDifferentLocksOfEveryOwnerTheOutermostChangeableOneIsTheCulprit() {
    RecordedStack stack =
        new RecordedStack(
            List.of(PARK, READER_READ, LIBRARY_READ, APP_PAY, MAP_COMPUTE, APP_MAIN), false);
    Attribution attribution = attribute(stack);
    assertThat(attribution.culprit().qualifiedMethod()).isEqualTo("com.example.shop.Checkout.pay");
    assertThat(attribution.otherMonitorFrames())
        .extracting(MonitorFrame::frameIndex)
        .containsExactly(1, 2, 4);
    List<String> actions = monitorActions(stack, attribution);
    assertThat(actions)
        .anySatisfy(
            a ->
                assertThat(a)
                    .contains(
                        "this stack holds 2 other monitors (java.io.BufferedReader.read,"
                            + " org.acme.net.LineClient.readLine)"))
        .anySatisfy(
            a ->
                assertThat(a)
                    .contains("further down (java.util.concurrent.ConcurrentHashMap.compute)"));
    assertNeverBlamesTheJdk(actions);
  }

  /**
   * A library's own nested monitors are freed by the same fix: its innermost is named, as the
   * knowledge names a library's pins (H2's statement around its command).
   */
  @Test
  void ofOneLibrarysNestedMonitorsTheInnermostIsNamed() {
    Frame decode =
        frame(
            "org.acme.net.codec.Decoder",
            "decode",
            Modifier.SYNCHRONIZED,
            Frame.ClassLoaderKind.APPLICATION);
    RecordedStack stack =
        new RecordedStack(
            List.of(PARK, SOCKET_READ, READER_READ, decode, LIBRARY_READ, APP_MAIN), false);
    Attribution attribution = attribute(stack);
    assertThat(attribution.culprit().qualifiedMethod())
        .isEqualTo("org.acme.net.codec.Decoder.decode");
    assertThat(attribution.otherMonitorFrames())
        .extracting(MonitorFrame::frameIndex)
        .containsExactly(2, 4);
    assertNeverBlamesTheJdk(monitorActions(stack, attribution));
  }

  /** Only when no application or library frame holds a monitor is the JDK's monitor the culprit. */
  @Test
  void onlyWhenTheJdkAloneHoldsMonitorsIsTheJdksMonitorBlamed() {
    RecordedStack stack =
        new RecordedStack(List.of(PARK, SOCKET_READ, READER_READ, MAP_COMPUTE, APP_MAIN), false);
    Attribution attribution = attribute(stack);
    assertThat(attribution.culprit().qualifiedMethod()).isEqualTo("java.io.BufferedReader.read");
    assertThat(attribution.culprit().owner()).isEqualTo(Owner.JDK);
    assertThat(attribution.calledFrom()).isEqualTo(APP_MAIN);
    assertThat(monitorActions(stack, attribution))
        .anySatisfy(
            a ->
                assertThat(a)
                    .startsWith(
                        "The monitor is the JDK's, held by java.io.BufferedReader.read while the"
                            + " JDK blocks by itself: no code of com.example.shop.Main.run"));
  }

  private static void assertNeverBlamesTheJdk(List<String> actions) {
    assertThat(actions).noneSatisfy(a -> assertThat(a).contains("The monitor is the JDK's"));
    assertThat(actions).noneSatisfy(a -> assertThat(a).contains("no code of"));
  }

  private static Attribution attribute(RecordedStack stack) {
    return new Attributor(ClassBytesSource.none(), new FrameOwnership(List.of()))
        .pinned(stack, null);
  }

  private static List<String> monitorActions(RecordedStack stack, Attribution attribution) {
    var analysis = AnalysisBuilder.jdk(21).pinned(stack, attribution, 40).build();
    List<Finding> findings =
        Advisor.standard().advise(analysis).findings().stream()
            .filter(f -> f.id().equals("monitor-pinning"))
            .toList();
    assertThat(findings).hasSize(1);
    assertThat(findings.get(0).classes()).containsExactly(attribution.culprit().className());
    return Words.actions(findings.get(0));
  }

  private static Frame frame(
      String cls, String method, int modifiers, Frame.ClassLoaderKind loader) {
    return new Frame(cls, method, "()V", 10, 3, "Interpreted", modifiers, loader);
  }
}
