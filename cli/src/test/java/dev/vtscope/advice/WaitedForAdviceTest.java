package dev.vtscope.advice;

import static dev.vtscope.testing.AnalysisBuilder.site;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.testing.AnalysisBuilder;
import dev.vtscope.testing.Words;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The advice for virtual threads in {@code Object.wait()} fits what they wait for: a pool's free
 * object (bound the callers), a response or data (an asynchronous API, platform threads), a class's
 * initialisation, or what the names do not say (no pool assumed).
 */
class WaitedForAdviceTest {

  @Test
  void aLibraryPoolIsBoundedBySemaphoreOrABiggerPool() {
    List<String> actions =
        compensationActions(
            site("org.example.pool.ObjectPool", "borrowObject")
                .library("org.example:pool", "1.0")
                .calledFrom("com.example.Handler", "handle"));
    assertThat(actions)
        .anySatisfy(
            a ->
                assertThat(a)
                    .startsWith(
                        "The wait is inside org.example:pool:1.0, in"
                            + " org.example.pool.ObjectPool.borrowObject.")
                    .contains("a java.util.concurrent.Semaphore with as many permits as the pool")
                    .contains("Or give the pool more objects"));
  }

  /** The user's case: a client's synchronized request/response call is no pool. */
  @Test
  void aLibraryWaitForAResponseIsNotTreatedAsAPool() {
    List<String> actions =
        compensationActions(
            site("org.example.rpc.RpcClient", "request")
                .library("org.example:rpc", "2.3")
                .monitorClass("org.example.rpc.RpcClient$Reply")
                .calledFrom("com.example.Handler", "handle"));
    assertThat(actions)
        .anySatisfy(
            a ->
                assertThat(a)
                    .startsWith(
                        "The wait is inside org.example:rpc:2.3, in"
                            + " org.example.rpc.RpcClient.request, for a response or data to"
                            + " arrive")
                    .contains(
                        "in com.example.Handler.handle(Handler.java:7), make that call from"
                            + " platform threads"))
        .anySatisfy(a -> assertThat(a).startsWith("Upgrade to JDK 24 or later"));
    assertNoPool(actions);
  }

  @Test
  void aKnownLibrarysAsynchronousApiIsNamed() {
    List<String> actions =
        compensationActions(
            site("okhttp3.internal.http2.Http2Stream", "waitForIo")
                .library("com.squareup.okhttp3:okhttp-jvm", "5.1.0")
                .calledFrom("com.example.Client", "fetch"));
    assertThat(actions)
        .anySatisfy(
            a ->
                assertThat(a)
                    .contains("its names do not say what it waits for")
                    .contains("OkHttp (HTTP/2 connections) has one: Call.enqueue(Callback)"));
    assertNoPool(actions);
  }

  /** A wait in the JDK's code, called by a known library: that library's asynchronous API. */
  @Test
  void aJdkWaitCalledByAKnownLibraryNamesItsAsynchronousApi() {
    List<String> actions =
        compensationActions(
            site("java.lang.Thread", "join").jdk().calledFrom("okhttp3.internal.Streams", "read"));
    assertThat(actions.get(0))
        .startsWith("The wait is in the JDK's own code, which you cannot change: in okhttp3")
        .endsWith(
            "OkHttp (HTTP/2 connections) has one: Call.enqueue(Callback), which runs the call"
                + " on OkHttp's dispatcher threads; complete a CompletableFuture in the callback and let"
                + " the virtual thread wait for it.");
    assertNoPool(actions);
  }

  @Test
  void anApplicationWaitForAReplyGetsAFuture() {
    List<String> actions = compensationActions(site("com.example.Client", "awaitReply"));
    assertThat(actions.get(0))
        .startsWith("Replace wait()/notify() in com.example.Client.awaitReply")
        .contains("complete a CompletableFuture when the response or data arrives");
    assertNoPool(actions);
  }

  /** "WorkerThread" says nothing of reading: names are split into words. */
  @Test
  void anApplicationWaitTheNamesSayNothingOfAssumesNoPool() {
    List<String> actions = compensationActions(site("com.example.WorkerThread", "finish"));
    assertThat(actions.get(0))
        .startsWith("Replace wait()/notify() in com.example.WorkerThread.finish")
        .contains("a ReentrantLock with a Condition")
        .contains("a CountDownLatch");
    assertNoPool(actions);
  }

  @Test
  void aWaitInsideAStaticInitialiserIsAboutTheClassInitialisation() {
    List<String> actions =
        compensationActions(
            site("com.example.Config", "<clinit>").calledFrom("com.example.Main", "run"));
    assertThat(actions.get(0))
        .startsWith(
            "The wait is part of a class's initialisation (in com.example.Config's static"
                + " initialiser): every thread that needs the class waits until it ends.");
    assertNoPool(actions);
  }

  @Test
  void namesAreReadAsWords() {
    assertThat(WaitedFor.words(List.of("WorkerThread", "checkOut", "RpcClient$Reply")))
        .contains("worker", "thread", "checkout", "check", "out", "reply")
        .doesNotContain("read");
  }

  private static void assertNoPool(List<String> actions) {
    assertThat(actions).noneSatisfy(a -> assertThat(a).containsIgnoringCase("pool has objects"));
    assertThat(actions).noneSatisfy(a -> assertThat(a).contains("a Semaphore for a pool"));
  }

  private static List<String> compensationActions(AnalysisBuilder.SiteBuilder wait) {
    var analysis =
        AnalysisBuilder.jdk(21)
            .recorded(Duration.ofSeconds(10))
            .carriersStarted(12, 256)
            .monitorWait(wait.kind(CulpritKind.MONITOR_WAIT).pins(30, Duration.ofMillis(100)))
            .build();
    List<Finding> findings =
        Advisor.standard().advise(analysis).findings().stream()
            .filter(f -> f.id().equals(CompensationRule.ID))
            .toList();
    assertThat(findings).hasSize(1);
    return Words.actions(findings.get(0));
  }
}
