package dev.vtscope.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.advice.Advisor;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.Site;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.testing.Words;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each culprit kind on a real recording. The culprit must be the frame that holds the carrier,
 * which is often not the top application frame where the thread waited.
 */
class AttributionTest {

  private static Site onlySite(Analysis a) {
    assertThat(a.pinned().sites()).hasSize(1);
    return a.pinned().sites().get(0);
  }

  @Test
  void synchronizedBlockOnJdk21IsNamedWithItsLinesNotTheFrameWhereTheThreadWaited() {
    Path recording = TestRecordings.synchronizedPinningOnJdk21();
    Site site = onlySite(Reports.analyze("p.jfr", recording, GroupBy.CULPRIT));
    Culprit culprit = site.attribution().culprit();

    assertThat(culprit.kind()).isEqualTo(CulpritKind.SYNCHRONIZED_BLOCK);
    assertThat(culprit.qualifiedMethod())
        .isEqualTo("dev.vtscope.workloads.SharedLockPinning.withMonitor");
    int statement = lineOf("SharedLockPinning.java", "synchronized (monitor) {");
    assertThat(culprit.lineRange()).isEqualTo(new LineRange(statement, statement + 2));
    assertThat(culprit.owner()).isEqualTo(Owner.APPLICATION);
    // The top application frame is where the thread waited, not who holds the monitor.
    assertThat(site.topApplicationFrame().method()).isEqualTo("sleep");
    assertThat(culprit.frameIndex())
        .isNotEqualTo(site.stack().frames().indexOf(site.topApplicationFrame()));
    assertThat(site.attribution().waitedAt().method()).isEqualTo("sleep");
  }

  @Test
  void synchronizedMethodOnJdk21IsNamedFromTheRecordingAlone() {
    Path recording =
        TestRecordings.recordWorkload(
            TestRecordings.jdk21Java(),
            "0ms",
            "pinning",
            "--variant",
            "synchronized-method",
            "--tasks",
            "40");
    Analysis a = Reports.analyze("p.jfr", recording, GroupBy.CULPRIT);
    Site site = onlySite(a);
    assertThat(site.attribution().culprit().kind()).isEqualTo(CulpritKind.SYNCHRONIZED_METHOD);
    assertThat(site.attribution().culprit().method()).isEqualTo("withSynchronizedMethod");
    assertThat(site.topApplicationFrame().method()).isEqualTo("sleep");

    // Without any class bytes the synchronized method is still found: JFR records modifiers.
    Attributor blind = new Attributor(ClassBytesSource.none(), new FrameOwnership(List.of()));
    Culprit culprit = blind.pinned(site.stack(), null).culprit();
    assertThat(culprit.kind()).isEqualTo(CulpritKind.SYNCHRONIZED_METHOD);
    assertThat(culprit.detail()).contains("SharedLockPinning.sleep").contains("--classpath");
  }

  @Test
  void withoutClassBytesABlockIsNotGuessedButTheUserIsToldWhatWouldPinpointIt() {
    Path sample = TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");
    RecordedStack stack = onlySite(Reports.analyze("p.jfr", sample, GroupBy.STACK)).stack();

    Attribution blind =
        new Attributor(ClassBytesSource.none(), new FrameOwnership(List.of())).pinned(stack, null);

    assertThat(blind.culprit().kind()).isEqualTo(CulpritKind.UNKNOWN);
    assertThat(blind.culprit().detail())
        .startsWith("holds a monitor somewhere in ")
        .contains("SharedLockPinning.withMonitor")
        .contains("pass --classpath to pinpoint it")
        // no JDK class files either: where the program entered the JDK, and what would check it
        .contains("or in the JDK code entered at java.lang.Thread.sleep")
        .contains("the class files of the recording's JDK release were not found");
  }

  /** A native JDK method has no bytecode to check: it never makes a report ask for the JDK. */
  @Test
  void nativeJdkFramesAreNotCalledUnchecked() {
    RecordedStack stack =
        new RecordedStack(
            List.of(
                frame("app.Work", "compute", 0x0001, Frame.ClassLoaderKind.APPLICATION),
                frame(
                    "jdk.internal.vm.Continuation",
                    "enterSpecial",
                    0x0100 | 0x0008,
                    Frame.ClassLoaderKind.BOOT)),
            false);
    Culprit culprit =
        new Attributor(ClassBytesSource.none(), new FrameOwnership(List.of("app.")))
            .pinned(stack, null)
            .culprit();
    assertThat(culprit.detail()).contains("app.Work.compute").doesNotContain("JDK");
  }

  /**
   * A thread dump's frames say no method modifiers (a recording's do): a synchronized method that
   * holds the monitor is found from the class file, by its name and the line on the stack.
   */
  @Test
  void aSynchronizedMethodInAThreadDumpIsFoundFromItsClassFile() {
    String owner = "dev.vtscope.workloads.SharedLockPinning";
    RecordedStack dumped =
        new RecordedStack(
            List.of(
                dumpFrame("java.lang.Thread", "sleep", -1, Frame.ClassLoaderKind.UNKNOWN),
                dumpFrame(owner, "sleep", 110, Frame.ClassLoaderKind.UNKNOWN),
                dumpFrame(owner, "withSynchronizedMethod", 96, Frame.ClassLoaderKind.UNKNOWN),
                dumpFrame(owner, "lambda$run$1", 66, Frame.ClassLoaderKind.UNKNOWN)),
            false);
    try (ClassBytesSource classes =
        ClassBytesSource.of(
            List.of(),
            List.of(
                new ClassBytesSource.RecordedClassPath(
                    TestRecordings.workloadsClassPath(), null, null)),
            null,
            21,
            List::of)) {
      Culprit culprit =
          new Attributor(classes, new FrameOwnership(List.of())).pinned(dumped, null).culprit();
      assertThat(culprit.kind()).isEqualTo(CulpritKind.SYNCHRONIZED_METHOD);
      assertThat(culprit.qualifiedMethod()).isEqualTo(owner + ".withSynchronizedMethod");
    }
  }

  private static Frame dumpFrame(
      String className, String method, int line, Frame.ClassLoaderKind loader) {
    return new Frame(className, method, null, line, -1, null, 0, loader);
  }

  /**
   * A native callback reached through a reflection proxy (JNA's way): the line to change is the
   * caller of the proxy, not the generated $Proxy class nor a lambda's hidden class.
   */
  @Test
  void calledFromPassesOverProxiesAndLambdas() {
    RecordedStack stack =
        new RecordedStack(
            List.of(
                frame("java.lang.Thread", "sleep", 0x0001, Frame.ClassLoaderKind.BOOT),
                frame("demo.Callbacks", "compare", 0x0001, Frame.ClassLoaderKind.APPLICATION),
                frame(
                    "com.sun.jna.Native", "invokeVoid", 0x0109, Frame.ClassLoaderKind.APPLICATION),
                frame("demo.$Proxy12", "qsort", 0x0011, Frame.ClassLoaderKind.APPLICATION),
                frame(
                    "demo.App$$Lambda/0x000001f0010a3b28",
                    "run",
                    0x0001,
                    Frame.ClassLoaderKind.APPLICATION),
                frame("demo.App", "sortAll", 0x0001, Frame.ClassLoaderKind.APPLICATION)),
            false);
    Attribution a =
        new Attributor(ClassBytesSource.none(), new FrameOwnership(List.of("demo.")))
            .pinned(stack, null);
    assertThat(a.culprit().kind()).isEqualTo(CulpritKind.NATIVE_METHOD);
    assertThat(a.calledFrom().qualifiedMethod()).isEqualTo("demo.App.sortAll");
    assertThat(new Frame("demo.$Proxy0", "m", "()V", -1, 0, null, 0, null).isGenerated()).isTrue();
    assertThat(new Frame("demo.$ProxyFactory", "m", "()V", -1, 0, null, 0, null).isGenerated())
        .isFalse();
  }

  @Test
  void monitorEnterOfVirtualThreadsOnJdk21IsItsOwnKind() {
    Path sample = TestRecordings.repoRoot().resolve("samples/jdk21/pinning-synchronized.jfr");
    Analysis a = Reports.analyze("p.jfr", sample, GroupBy.CULPRIT);
    assertThat(a.monitorEnter().sites()).isNotEmpty();
    Culprit culprit = a.monitorEnter().sites().get(0).attribution().culprit();
    assertThat(culprit.kind()).isEqualTo(CulpritKind.MONITOR_ENTER);
    assertThat(culprit.method()).isEqualTo("withMonitor");
    assertThat(culprit.detail()).contains("java.lang.Object").contains("no pinned event");
  }

  /**
   * JDK 21 writes a wait for another thread's class initialiser as a monitor wait on the class's
   * initialisation lock (an int[]) with no Object.wait on the stack: it is not an Object.wait.
   */
  @Test
  void aWaitForAClassInitialiserOnJdk21IsNotAnObjectWait() {
    Path sample = TestRecordings.repoRoot().resolve("samples/jdk21/class-init.jfr");
    Analysis a = Reports.analyze("class-init.jfr", sample, GroupBy.CULPRIT);
    assertThat(a.monitorWait().sites()).isNotEmpty();
    assertThat(a.monitorWait().sites())
        .allSatisfy(
            s -> {
              assertThat(s.monitorClass()).isEqualTo("[I");
              assertThat(s.attribution().culprit().kind()).isEqualTo(CulpritKind.CLASS_INIT_WAIT);
              assertThat(s.stack().frames().get(0).className()).isNotEqualTo("java.lang.Object");
            });
    assertThat(Advisor.standard().advise(a).findings())
        .extracting(dev.vtscope.advice.Finding::id)
        .doesNotContain("carrier-compensation");
  }

  @Test
  void classInitialisationOnJdk24PlusNamesTheClassFromTheReason() {
    Analysis a = Reports.analyze("c.jfr", TestRecordings.classInit(), GroupBy.CULPRIT);
    List<CulpritKind> kinds =
        a.pinned().sites().stream().map(s -> s.attribution().culprit().kind()).toList();
    if (a.feature() >= 24) {
      assertThat(kinds).contains(CulpritKind.CLASS_INIT, CulpritKind.CLASS_INIT_WAIT);
      for (Site site : a.pinned().sites()) {
        Culprit culprit = site.attribution().culprit();
        if (culprit.kind() == CulpritKind.CLASS_LOADING) {
          // on a loaded machine the JVM may fail to unmount a thread at the line that first
          // touches the class ("Freeze or preempt failed"): that line is named, no monitor in it
          assertThat(culprit.className()).isEqualTo("dev.vtscope.workloads.ClassInitPinning");
          continue;
        }
        assertThat(culprit.className())
            .isEqualTo("dev.vtscope.workloads.ClassInitPinning$SlowInit");
        assertThat(culprit.method()).isEqualTo("<clinit>");
      }
    } else {
      assertThat(kinds).contains(CulpritKind.CLASS_INIT);
    }
  }

  @Test
  void aLibraryCulpritNamesItsArtifactFromTheJarsMavenMetadata() throws Exception {
    // jackson-databind's jar carries META-INF/maven/.../pom.properties; picocli's has only a
    // manifest, which names it less precisely.
    Path jacksonJar =
        Path.of(
            com.fasterxml.jackson.databind.ObjectMapper.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    Path picocliJar =
        Path.of(
            picocli.CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Frame park = frame("java.lang.VirtualThread", "park", 0, Frame.ClassLoaderKind.BOOT);
    Frame library =
        frame(
            "com.fasterxml.jackson.databind.ObjectMapper",
            "execute",
            Modifier.SYNCHRONIZED,
            Frame.ClassLoaderKind.APPLICATION);
    Frame app = frame("com.example.shop.Checkout", "run", 0, Frame.ClassLoaderKind.APPLICATION);
    RecordedStack stack = new RecordedStack(List.of(park, library, app), false);

    try (ClassBytesSource classes =
        new ClassBytesSource(List.of(jacksonJar, picocliJar), null, 0, List::of)) {
      Attribution attribution =
          new Attributor(classes, new FrameOwnership(List.of())).pinned(stack, null);
      assertThat(attribution.culprit().kind()).isEqualTo(CulpritKind.SYNCHRONIZED_METHOD);
      assertThat(attribution.culprit().owner()).isEqualTo(Owner.LIBRARY);
      assertThat(attribution.culprit().artifact().display())
          .startsWith("com.fasterxml.jackson.core:jackson-databind:2.");
      assertThat(attribution.culprit().artifact().source()).isEqualTo(Artifact.Source.MAVEN);
      assertThat(attribution.culprit().artifact().jar()).startsWith("jackson-databind-");

      Frame picocli =
          frame(
              "picocli.CommandLine",
              "execute",
              Modifier.SYNCHRONIZED,
              Frame.ClassLoaderKind.APPLICATION);
      Attribution fromManifest =
          new Attributor(classes, new FrameOwnership(List.of()))
              .pinned(new RecordedStack(List.of(park, picocli, app), false), null);
      // No Maven metadata in picocli's jar: its manifest's bundle name, with no group.
      assertThat(fromManifest.culprit().artifact().display()).matches("picocli:\\d+\\.\\d+\\.\\d+");
      assertThat(fromManifest.culprit().artifact().source()).isEqualTo(Artifact.Source.MANIFEST);
      assertThat(fromManifest.culprit().artifact().header()).isEqualTo("Bundle-SymbolicName");
      assertThat(fromManifest.culprit().artifact().version()).matches("\\d+\\.\\d+\\.\\d+");
      assertThat(attribution.calledFrom()).isEqualTo(app);
      assertThat(attribution.owners()).containsExactly(Owner.JDK, Owner.LIBRARY, Owner.APPLICATION);
    }
  }

  @Test
  void appPackagesOverrideTheDefaultOwnership() {
    Frame lib =
        frame(
            "org.acme.db.Driver",
            "query",
            Modifier.SYNCHRONIZED,
            Frame.ClassLoaderKind.APPLICATION);
    Frame app = frame("com.example.shop.Checkout", "run", 0, Frame.ClassLoaderKind.APPLICATION);
    RecordedStack stack = new RecordedStack(List.of(lib, app), false);
    assertThat(new FrameOwnership(List.of()).classify(stack))
        .containsExactly(Owner.LIBRARY, Owner.APPLICATION);
    assertThat(new FrameOwnership(List.of("org.acme")).classify(stack))
        .containsExactly(Owner.APPLICATION, Owner.LIBRARY);
  }

  /**
   * A program in the default package (a single-file program, a test's) is every class of that
   * package: a library is never there, and no class is a library to its neighbour.
   */
  @Test
  void theDefaultPackageIsOneApplication() {
    Frame helper = frame("LockCycle", "cycle", 0, Frame.ClassLoaderKind.APPLICATION);
    Frame lib = frame("org.acme.db.Driver", "query", 0, Frame.ClassLoaderKind.APPLICATION);
    Frame main = frame("PlatformCycle", "lambda$main$2", 0, Frame.ClassLoaderKind.APPLICATION);
    RecordedStack stack = new RecordedStack(List.of(helper, lib, main), false);
    assertThat(new FrameOwnership(List.of()).classify(stack))
        .containsExactly(Owner.APPLICATION, Owner.LIBRARY, Owner.APPLICATION);
  }

  @Test
  void aBlockingForeignFunctionUpcallBlamesTheJavaFrameThatCalledNativeCode() {
    if (Runtime.version().feature() < 22) {
      // The foreign-function API is final from JDK 22: on 21 the workload must say so, not crash.
      TestRecordings.Run run =
          TestRecordings.runWorkload(TestRecordings.currentJava(), "native-pinning");
      assertThat(run.exitCode()).isEqualTo(3);
      assertThat(run.output()).contains("needs the foreign-function API, final in JDK 22");
      return;
    }
    // the recording AdviceTest's starvation case makes on the JDK running the tests: one for both
    Path recording =
        TestRecordings.recordWorkload(
            TestRecordings.currentJava(),
            "0ms",
            "native-pinning",
            "--threads",
            "4",
            "--block",
            "25ms");
    Analysis a = Reports.analyze("n.jfr", recording, GroupBy.CULPRIT);
    Site site = a.pinned().sites().get(0);
    Culprit culprit = site.attribution().culprit();
    assertThat(culprit.kind()).isEqualTo(CulpritKind.FOREIGN_FUNCTION);
    assertThat(culprit.method()).isEqualTo("sortNatively");
    assertThat(culprit.detail())
        .contains("upcall to dev.vtscope.workloads.ForeignCallPinning.compare");
    assertThat(site.topApplicationFrame().method()).isEqualTo("block");
    if (a.feature() >= 24) {
      assertThat(site.reason()).isEqualTo("Native or VM frame on stack");
    }
  }

  @Test
  void aWaitNotifyPoolThatStallsOnJdk21IsSeenWithoutAnyPinnedEvent() {
    // The stall can come before any wait completes: then the recording has no monitor wait at all,
    // and only the carriers the scheduler started show it. Each task holds its connection for a
    // minute, so that the pool surely stalls: with the default 10 ms a busy machine let it finish
    // after starting 251 carriers of 256.
    Path recording =
        TestRecordings.recordWorkload(
            TestRecordings.jdk21Java(),
            "20ms",
            "connection-pool",
            "--variant",
            "wait-notify",
            "--query",
            "60s",
            "--stall-after",
            "5s");
    Analysis a = Reports.analyze("pool.jfr", recording, GroupBy.CULPRIT);
    assertThat(a.pinned().events()).isZero();
    assertThat(a.scheduler().carriersStarted())
        .isGreaterThanOrEqualTo(a.scheduler().maxPoolSize().value());
    assertThat(a.notes())
        .filteredOn(n -> n.id().equals("compensation"))
        .singleElement()
        .satisfies(
            n -> assertThat(n.severity()).isEqualTo(dev.vtscope.analysis.Note.Severity.WARNING))
        .satisfies(n -> assertThat(Words.message(n)).contains("can stall"))
        .satisfies(n -> assertThat(Words.message(n)).contains("blocked in Object.wait() ("));
    assertThat(a.carrierWork().compensationSites())
        .extracting(s -> s.attribution().blockedIn())
        .allSatisfy(
            call -> {
              assertThat(call.kind()).isEqualTo(BlockingKind.WAIT);
              assertThat(call.method()).isEqualTo("java.lang.Object.wait");
            });
  }

  /**
   * JDK 21's socket-read event looks the peer's host name up on the reading virtual thread: the
   * carrier the scheduler started for it is named with the call it blocked in, the lookup it was
   * made in, and the recording as its cause. Without the event, no such lookup is made.
   */
  @Test
  void aCarrierStartedForJfrsOwnHostLookupNamesTheLookupAndTheRecording() {
    List<String> parallelismOne = List.of("-Djdk.virtualThreadScheduler.parallelism=1");
    Analysis withEvent =
        Reports.analyze(
            "read.jfr",
            TestRecordings.recordTestProgram(
                TestRecordings.jdk21Java(),
                // JDK 21 instruments the socket classes only for an event its settings files
                // name: the JDK's default settings beside vtscope's, every read recorded
                List.of("settings=default", "jdk.SocketRead#threshold=0ms"),
                parallelismOne,
                dev.vtscope.testing.HostLookupReadProgram.class.getName()),
            GroupBy.CULPRIT);
    assertThat(withEvent.carrierWork().compensationSites())
        .extracting(s -> s.attribution().blockedIn())
        .anySatisfy(
            call -> {
              assertThat(call.during()).isEqualTo("java.net.InetAddress.getHostName");
              assertThat(call.byRecorder()).isTrue();
            });
    assertThat(withEvent.notes())
        .filteredOn(n -> n.id().equals("compensation"))
        .singleElement()
        .satisfies(
            n ->
                assertThat(Words.message(n))
                    .contains("during java.net.InetAddress.getHostName")
                    .contains("the recording's own socket event"));

    Analysis withoutEvent =
        Reports.analyze(
            "read.jfr",
            TestRecordings.recordTestProgram(
                TestRecordings.jdk21Java(),
                List.of("settings=default", "jdk.SocketRead#enabled=false"),
                parallelismOne,
                dev.vtscope.testing.HostLookupReadProgram.class.getName()),
            GroupBy.CULPRIT);
    assertThat(withoutEvent.carrierWork().compensationSites())
        .extracting(s -> s.attribution().blockedIn())
        .allSatisfy(call -> assertThat(call == null || !call.byRecorder()).isTrue());
  }

  @Test
  void monitorWaitsOfVirtualThreadsNameTheWaitingMethod() {
    Path sample =
        TestRecordings.repoRoot().resolve("samples/jdk21/connection-pool-wait-notify.jfr");
    Analysis a = Reports.analyze("pool.jfr", sample, GroupBy.CULPRIT);
    assertThat(a.monitorWait().sites()).isNotEmpty();
    Culprit culprit = a.monitorWait().sites().get(0).attribution().culprit();
    assertThat(culprit.kind()).isEqualTo(CulpritKind.MONITOR_WAIT);
    assertThat(culprit.qualifiedMethod())
        .isEqualTo("dev.vtscope.workloads.ConnectionPoolStall$MonitorPool.checkout");
    assertThat(culprit.detail()).contains("no pinned event");
  }

  private static int lineOf(String file, String text) {
    Path source =
        TestRecordings.repoRoot().resolve("workloads/src/main/java/dev/vtscope/workloads/" + file);
    try {
      List<String> lines = java.nio.file.Files.readAllLines(source);
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).contains(text)) {
          return i + 1;
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    throw new AssertionError(text + " not found in " + source);
  }

  private static Frame frame(
      String cls, String method, int modifiers, Frame.ClassLoaderKind loader) {
    return new Frame(cls, method, "()V", 10, 3, "Interpreted", modifiers, loader);
  }
}
