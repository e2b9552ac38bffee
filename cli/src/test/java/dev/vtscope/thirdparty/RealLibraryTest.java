package dev.vtscope.thirdparty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.Finding;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Artifact;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.MonitorFrame;
import dev.vtscope.attribution.Owner;
import dev.vtscope.recording.Frame;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import dev.vtscope.testing.Words;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Real libraries from Maven Central that hold the carrier in their own code, each recorded on JDK
 * 21 (monitors pin) and on JDK 25 (JEP 491): a connection pool whose checkout waits in Object.wait,
 * a database client that reads its socket under a monitor, and a native library that calls Java
 * back. Each test checks what a user needs from the report: the code that holds the carrier, the
 * frame of theirs that called into it, and the fix.
 */
class RealLibraryTest {

  private static final String POOL = "com.mchange.v2.resourcepool.BasicResourcePool";
  private static final String H2_QUERY = "org.h2.command.CommandRemote.executeQuery";
  private static final String JNA_CALL = "com.sun.jna.Native.invokeVoid";

  /** Records a program of this package with pins and monitor waits of any length. */
  private static Analysis record(Path java, Class<?> program, String... args) {
    Path recording =
        TestRecordings.recordTestProgram(
            java,
            List.of("jdk.VirtualThreadPinned#threshold=0ms", "jdk.JavaMonitorWait#threshold=0ms"),
            List.of(),
            program.getName(),
            args);
    return Reports.analyze(program.getSimpleName() + ".jfr", recording, GroupBy.CULPRIT);
  }

  private static Analysis onJdk21(Class<?> program, String... args) {
    Analysis a = record(TestRecordings.jdk21Java(), program, args);
    assertThat(a.feature()).isEqualTo(21);
    return a;
  }

  private static Analysis onJdk25(Class<?> program, String... args) {
    Analysis a = record(TestRecordings.jdk24PlusJava(), program, args);
    assertThat(a.feature()).isGreaterThanOrEqualTo(24);
    return a;
  }

  private static Analysis pool21() {
    return onJdk21(C3p0CheckoutWait.class, "24");
  }

  private static Analysis remoteH2On21() {
    return onJdk21(H2RemoteSharedConnection.class, "30");
  }

  private static List<Finding> findings(Analysis a) {
    return Advisor.standard().advise(a).findings();
  }

  private static Site pinnedSite(Analysis a, String culprit) {
    return a.pinned().sites().stream()
        .filter(s -> s.attribution().culprit().qualifiedMethod().equals(culprit))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no pinned site held by " + culprit));
  }

  /**
   * Nothing of the program or its library is worth fixing: findings at medium or above may only be
   * the JVM initialising or loading the JDK's own classes on first use.
   */
  private static void assertNothingToFix(Analysis a, String libraryPackage) {
    assertThat(a.pinned().sites())
        .noneMatch(s -> s.attribution().culprit().className().startsWith(libraryPackage));
    assertThat(findings(a))
        .filteredOn(f -> f.severity().compareTo(Severity.MEDIUM) >= 0)
        .allSatisfy(
            f -> {
              assertThat(f.id()).isIn("class-init-pinning", "class-loading-pinning");
              assertThat(f.classes()).allMatch(c -> c.matches("(java|javax|jdk|sun)\\..*"));
            });
    assertThat(findings(a))
        .extracting(Finding::id)
        .doesNotContain("monitor-pinning", "carrier-compensation", "monitor-contention");
  }

  // c3p0 0.10.2: a pool of two connections, 24 virtual threads borrowing.

  @Test
  void onJdk21APoolCheckoutWaitsInsideC3p0AndTheBorrowIsTheApplicationsFrame() {
    Analysis a = pool21();
    assertThat(a.monitorWait().sites()).isNotEmpty();
    Site site = a.monitorWait().sites().get(0);
    Culprit culprit = site.attribution().culprit();

    assertThat(culprit.kind()).isEqualTo(CulpritKind.MONITOR_WAIT);
    assertThat(culprit.qualifiedMethod()).isEqualTo(POOL + ".awaitAvailable");
    assertThat(culprit.owner()).isEqualTo(Owner.LIBRARY);
    assertThat(site.monitorClass()).isEqualTo(POOL);
    // The waiting is done inside the synchronized method that knowledge.json names.
    assertThat(site.attribution().otherMonitorFrames())
        .extracting(
            m -> site.stack().frames().get(m.frameIndex()).qualifiedMethod(), MonitorFrame::kind)
        .contains(tuple(POOL + ".prelimCheckoutResource", CulpritKind.SYNCHRONIZED_METHOD));
    // c3p0's jar has no Maven metadata and no version header, only its module name.
    Artifact artifact = culprit.artifact();
    assertThat(artifact.name()).isEqualTo("com.mchange.v2.c3p0");
    assertThat(artifact.header()).isEqualTo("Automatic-Module-Name");
    // its manifest names no version: the jar's file name does
    assertThat(artifact.version()).isEqualTo("0.10.2");
    assertThat(artifact.jar()).isEqualTo("c3p0-0.10.2.jar");
    assertThat(site.attribution().calledFrom().qualifiedMethod())
        .isEqualTo(C3p0CheckoutWait.class.getName() + ".placeOrder");
    assertThat(site.virtualThreads()).isGreaterThan(2);
  }

  @Test
  void onJdk21TheCompensationFindingNamesC3p0sMethodItsFixedReleaseAndTheCallersThrottle() {
    Analysis a = pool21();
    Finding first = findings(a).get(0);

    assertThat(first.id()).isEqualTo("carrier-compensation");
    assertThat(first.severity()).isIn(Severity.HIGH, Severity.MEDIUM);
    assertThat(Words.title(first))
        .startsWith("Object.wait() in " + POOL + ".awaitAvailable made the scheduler start ")
        .contains("extra carrier");
    assertThat(first.classes()).containsExactly(POOL);
    // knowledge.json's c3p0 entry, from the version the jar's file name gives
    assertThat(Words.actions(first))
        .anySatisfy(
            x ->
                assertThat(x)
                    .startsWith(
                        "Upgrade com.mchange:c3p0 from 0.10.2 to 0.11.0 or later: 0.11.0 rewrote"
                            + " BasicResourcePool on ReentrantLock and Condition")
                    .contains("https://github.com/swaldman/c3p0/issues/179"));
    assertThat(Words.actions(first))
        .anySatisfy(
            x ->
                assertThat(x)
                    .startsWith(
                        "The wait is inside com.mchange.v2.c3p0:0.10.2, in "
                            + POOL
                            + ".awaitAvailable")
                    .contains(
                        "Until the upgrade: in "
                            + C3p0CheckoutWait.class.getName()
                            + ".placeOrder(")
                    .contains("Semaphore"));
  }

  @Test
  void onJdk25ThePoolsWaitUnmountsAndNothingIsToFix() {
    Analysis a = onJdk25(C3p0CheckoutWait.class, "24");
    assertThat(a.monitorWait() == null ? 0 : a.monitorWait().events()).isZero();
    assertNothingToFix(a, "com.mchange.");
  }

  // H2 1.4.200 over TCP: one connection shared by 30 virtual threads, a slow function on the
  // server.

  @Test
  void onJdk21TheRemoteClientHoldsItsSessionMonitorWhileItReadsTheServersReply() {
    Analysis a = remoteH2On21();
    Site site = a.pinned().sites().get(0);
    Culprit culprit = site.attribution().culprit();

    assertThat(culprit.qualifiedMethod()).isEqualTo(H2_QUERY);
    assertThat(culprit.kind()).isEqualTo(CulpritKind.SYNCHRONIZED_BLOCK);
    assertThat(culprit.lineRange()).isNotNull();
    assertThat(culprit.lineRange().first()).isLessThanOrEqualTo(culprit.line());
    assertThat(culprit.lineRange().last()).isGreaterThanOrEqualTo(culprit.line());
    assertThat(culprit.owner()).isEqualTo(Owner.LIBRARY);
    // H2's jar is named by its OSGi manifest, not Maven coordinates.
    assertThat(culprit.artifact().display()).isEqualTo("com.h2database:1.4.200");
    assertThat(culprit.artifact().header()).isEqualTo("Bundle-SymbolicName");
    // Where the thread waited: H2's reading of the reply, over the JDK's socket read.
    Frame waitedAt = site.attribution().waitedAt();
    assertThat(waitedAt.qualifiedMethod()).isEqualTo("org.h2.value.Transfer.readInt");
    List<Frame> frames = site.stack().frames();
    assertThat(frames.subList(0, frames.indexOf(waitedAt)))
        .extracting(Frame::qualifiedMethod)
        .contains("sun.nio.ch.NioSocketImpl.read");
    assertThat(site.attribution().calledFrom().qualifiedMethod())
        .isEqualTo(H2RemoteSharedConnection.class.getName() + ".checkStock");
    // The statement's synchronized (session) further down is H2's own, freed by the same fix.
    assertThat(site.attribution().otherMonitorFrames())
        .extracting(m -> frames.get(m.frameIndex()).qualifiedMethod(), MonitorFrame::kind)
        .contains(tuple("org.h2.jdbc.JdbcStatement.executeQuery", CulpritKind.SYNCHRONIZED_BLOCK));
    // Preparing the statement is a round trip under the session's monitor too.
    Site prepare = pinnedSite(a, "org.h2.engine.SessionRemote.prepareCommand");
    assertThat(prepare.attribution().culprit().kind()).isEqualTo(CulpritKind.SYNCHRONIZED_METHOD);
    assertThat(prepare.attribution().waitedAt().qualifiedMethod())
        .isEqualTo("org.h2.value.Transfer.readInt");
  }

  @Test
  void onJdk21TheFirstFindingIsTheClientsMonitorWithH2sFixedRelease() {
    Analysis a = remoteH2On21();
    List<Finding> all = findings(a);
    Finding first =
        all.stream().filter(f -> f.id().equals("monitor-pinning")).findFirst().orElseThrow();

    // First on a quiet machine. When other work slows the recorded JVM (a suite run beside
    // another build), the contention or starvation that slowness causes is real and can rank
    // above it; nothing else may.
    assertThat(all.subList(0, all.indexOf(first)))
        .extracting(Finding::id)
        .allMatch(id -> id.equals("monitor-contention") || id.equals("carrier-starvation"));
    // high on a quiet machine; its share of the carriers' capacity falls near the 10% line when
    // other work slows the recorded JVM, and medium is as right then
    assertThat(first.severity()).isGreaterThanOrEqualTo(Severity.MEDIUM);
    assertThat(Words.title(first))
        .isEqualTo(
            H2_QUERY
                + " pins carriers: it holds a monitor while the virtual thread blocks"
                + " (synchronized block, lines "
                + pinnedSite(a, H2_QUERY).attribution().culprit().lineRange().first()
                + "-"
                + pinnedSite(a, H2_QUERY).attribution().culprit().lineRange().last()
                + ")");
    // knowledge.json lists the client's CommandRemote.executeQuery too (checked on 2.2.220 and
    // 2.2.222's bytecode): the upgrade comes first.
    assertThat(Words.actions(first).get(0))
        .startsWith("Upgrade com.h2database:h2 from 1.4.200 to 2.2.222 or later: ")
        .contains("https://github.com/h2database/h2database/issues/3824");
    // A library's code is its maintainers': no advice to edit it.
    assertThat(Words.actions(first)).noneMatch(x -> x.startsWith("Where you can change the code"));
    assertThat(Words.actions(first)).anySatisfy(x -> assertThat(x).startsWith("Upgrade to JDK 24"));
  }

  @Test
  void onJdk25TheRemoteClientsReadUnmounts() {
    assertNothingToFix(onJdk25(H2RemoteSharedConnection.class, "30"), "org.h2.");
  }

  // JNA 5.14.0: libc's qsort calls a Java comparator that blocks, on every JDK.

  private static void assertJnaNativeCallHoldsTheCarrier(Analysis a) {
    Site site = a.pinned().sites().get(0);
    Culprit culprit = site.attribution().culprit();

    assertThat(culprit.kind()).isEqualTo(CulpritKind.NATIVE_METHOD);
    assertThat(culprit.qualifiedMethod()).isEqualTo(JNA_CALL);
    assertThat(culprit.owner()).isEqualTo(Owner.LIBRARY);
    assertThat(culprit.artifact().display()).isEqualTo("com.sun.jna:5.14.0");
    assertThat(culprit.artifact().jar()).isEqualTo("jna-5.14.0.jar");
    assertThat(site.attribution().waitedAt().qualifiedMethod())
        .isEqualTo(JnaSortCallback.class.getName() + ".compareSlowly");
    assertThat(site.attribution().calledFrom().qualifiedMethod())
        .isEqualTo(JnaSortCallback.class.getName() + ".sortPrices");
    // JNA's callback dispatch sits between the comparator and the native call.
    List<Frame> frames = site.stack().frames();
    assertThat(frames.subList(0, culprit.frameIndex()))
        .extracting(Frame::qualifiedMethod)
        .contains("com.sun.jna.CallbackReference$DefaultCallbackProxy.callback");
    // four sorts, each comparing at least twice
    assertThat(site.virtualThreads()).isEqualTo(4);
    assertThat(site.durations().count()).isGreaterThanOrEqualTo(8);

    Finding first = findings(a).get(0);
    assertThat(first.id()).isEqualTo("native-pinning");
    assertThat(Words.title(first))
        .isEqualTo(JNA_CALL + " pins carriers: the virtual thread blocks under a native method");
    assertThat(Words.actions(first))
        .contains("A JDK upgrade does not help: native frames pin on every release.");
  }

  @Test
  void onJdk21JnasNativeCallHoldsTheCarrierWhileTheCallbackBlocks() {
    assertJnaNativeCallHoldsTheCarrier(onJdk21(JnaSortCallback.class, "4"));
  }

  @Test
  void onJdk25JnasNativeCallStillHoldsTheCarrierAndTheJvmSaysWhy() {
    Analysis a = onJdk25(JnaSortCallback.class, "4");
    assertJnaNativeCallHoldsTheCarrier(a);
    Site site = pinnedSite(a, JNA_CALL);
    assertThat(site.reason()).isEqualTo("Native or VM frame on stack");
    assertThat(site.attribution().culprit().detail())
        .contains("native code called back into Java and the thread blocked there");
  }
}
