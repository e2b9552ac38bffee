package dev.vtscope.waits;

import static dev.vtscope.waits.Threads.VT_BOTTOM;
import static dev.vtscope.waits.Threads.parkedOn;
import static dev.vtscope.waits.Threads.thread;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.threaddump.Blocker;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ObjectRef;
import dev.vtscope.threaddump.Samples;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadKind;
import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class WaitClassifierTest {

  private final WaitClassifier classifier = new WaitClassifier(new FrameOwnership(List.of()));

  private static final String[] SEMAPHORE_21 = {
    "java.base/java.lang.VirtualThread.park(Unknown Source)",
    "java.base/java.util.concurrent.locks.LockSupport.park(Unknown Source)",
    "java.base/java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire(Unknown Source)",
    "java.base/java.util.concurrent.Semaphore.acquire(Unknown Source)",
    "com.acme.PartnerClient.call(PartnerClient.java:40)",
    VT_BOTTOM
  };

  private static final String[] SEMAPHORE_25 = {
    "java.base/java.lang.VirtualThread.park(VirtualThread.java:742)",
    "java.base/java.util.concurrent.locks.LockSupport.park(LockSupport.java:221)",
    "java.base/java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire(AbstractQueuedSynchronizer.java:790)",
    "java.base/java.util.concurrent.Semaphore.acquire(Semaphore.java:318)",
    "com.acme.PartnerClient.call(PartnerClient.java:40)",
    VT_BOTTOM
  };

  /**
   * The JDK's own service threads join the JVM's threads without Java frames in one line; a
   * finalizer running the application's code is the application's wait.
   */
  @Test
  void theJvmsServiceThreadsAreOneWaitWithItsFramelessThreads() {
    Wait frameless = classifier.classify(thread(2, ThreadKind.PLATFORM, "RUNNABLE", null));
    Wait finalizer =
        classifier.classify(
            thread(
                3,
                ThreadKind.PLATFORM,
                "WAITING",
                null,
                "java.base/java.lang.Object.wait0(Native Method)",
                "java.base/java.lang.ref.ReferenceQueue.remove0(ReferenceQueue.java:138)",
                "java.base/java.lang.ref.Finalizer$FinalizerThread.run(Finalizer.java:173)"));
    Wait jfr =
        classifier.classify(
            thread(
                4,
                ThreadKind.PLATFORM,
                "TIMED_WAITING",
                null,
                "java.base/java.lang.Object.wait0(Native Method)",
                "jdk.jfr/jdk.jfr.internal.PlatformRecorder.takeNap(PlatformRecorder.java:553)",
                "jdk.jfr/jdk.jfr.internal.PlatformRecorder$$Lambda/0x1.run(Unknown Source)",
                "java.base/java.lang.Thread.runWith(Thread.java:1487)",
                "java.base/java.lang.Thread.run(Thread.java:1474)"));
    Wait finalizing =
        classifier.classify(
            thread(
                5,
                ThreadKind.PLATFORM,
                "WAITING",
                null,
                "java.base/java.lang.Object.wait0(Native Method)",
                "com.acme.Pool.release(Pool.java:12)",
                "com.acme.Pool.finalize(Pool.java:30)",
                "java.base/java.lang.ref.Finalizer$FinalizerThread.run(Finalizer.java:173)"));

    assertThat(frameless.key().kind()).isEqualTo(WaitKind.NATIVE);
    assertThat(finalizer.key()).isEqualTo(frameless.key());
    assertThat(jfr.key()).isEqualTo(frameless.key());
    assertThat(finalizing.key()).isNotEqualTo(frameless.key());
    assertThat(finalizing.site().display()).isEqualTo("com.acme.Pool.release(Pool.java:12)");
  }

  @Test
  void aSemaphoreWaitHasOneKeyOnJdk21AndOn25ButForTheObjectOnlyJdk25Names() {
    Wait on21 = classifier.classify(thread(1, ThreadKind.UNKNOWN, null, null, SEMAPHORE_21));
    Wait on25 =
        classifier.classify(
            thread(
                1,
                ThreadKind.VIRTUAL,
                "WAITING",
                parkedOn("java.util.concurrent.Semaphore$NonfairSync@6efb9"),
                SEMAPHORE_25));
    assertThat(on21.key())
        .isEqualTo(
            new WaitKey(
                WaitKind.SYNCHRONIZER,
                "java.util.concurrent.Semaphore",
                null,
                "java.util.concurrent.Semaphore.acquire",
                null,
                "com.acme.PartnerClient.call:40"));
    assertThat(on25.key())
        .isEqualTo(withId(on21.key(), "java.util.concurrent.Semaphore$NonfairSync@6efb9"));
    assertThat(on25.site().display())
        .isEqualTo("com.acme.PartnerClient.call(PartnerClient.java:40)");
  }

  /**
   * A pool's borrowers wait in the JDK's queue that a library calls: the key names the library's
   * API the application called between the JDK's method and the application's line, and only when a
   * library stands there.
   */
  @Test
  void theLibraryMethodTheApplicationCalledIsNamedBetweenTheJdksAndTheApplicationsFrame() {
    Wait borrower =
        classifier.classify(
            thread(
                7,
                ThreadKind.VIRTUAL,
                "TIMED_WAITING",
                parkedOn("java.util.concurrent.SynchronousQueue$Transferer@7393"),
                "java.base/java.lang.VirtualThread.parkNanos(VirtualThread.java:801)",
                "java.base/java.util.concurrent.locks.LockSupport.parkNanos(LockSupport.java:271)",
                "java.base/java.util.concurrent.LinkedTransferQueue.awaitMatch(LinkedTransferQueue.java:669)",
                "java.base/java.util.concurrent.SynchronousQueue.poll(SynchronousQueue.java:338)",
                "com.zaxxer.hikari.util.ConcurrentBag.borrow(ConcurrentBag.java:192)",
                "com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:160)",
                "com.zaxxer.hikari.HikariDataSource.getConnection(HikariDataSource.java:99)",
                "com.acme.orders.OrderDao.find(OrderDao.java:31)",
                "com.acme.orders.OrderService.lambda$handle$0(OrderService.java:12)",
                VT_BOTTOM));
    assertThat(borrower.key())
        .isEqualTo(
            new WaitKey(
                WaitKind.QUEUE,
                "java.util.concurrent.SynchronousQueue",
                "java.util.concurrent.SynchronousQueue$Transferer@7393",
                "java.util.concurrent.SynchronousQueue.poll",
                "com.zaxxer.hikari.HikariDataSource.getConnection",
                "com.acme.orders.OrderDao.find:31"));
    assertThat(borrower.via().display())
        .isEqualTo("com.zaxxer.hikari.HikariDataSource.getConnection(HikariDataSource.java:99)");

    // the application calls the JDK itself: nothing between
    Wait direct = classifier.classify(thread(1, ThreadKind.UNKNOWN, null, null, SEMAPHORE_21));
    assertThat(direct.via()).isNull();
    assertThat(direct.key().via()).isNull();
    // a pool's own worker, no frame of the application's: the library's frame is the site
    Wait worker =
        classifier.classify(
            thread(
                8,
                ThreadKind.PLATFORM,
                "TIMED_WAITING",
                null,
                "java.base/java.lang.Thread.sleep(Thread.java:509)",
                "com.zaxxer.hikari.pool.HikariPool$HouseKeeper.run(HikariPool.java:700)",
                "java.base/java.lang.Thread.run(Thread.java:1474)"));
    assertThat(worker.via()).isNull();
    assertThat(worker.site().display())
        .isEqualTo("com.zaxxer.hikari.pool.HikariPool$HouseKeeper.run(HikariPool.java:700)");
  }

  @Test
  void theOutermostKnownApiSaysTheKindNotThePrimitiveItParksIn() {
    assertThat(kind("java.base/java.util.concurrent.CountDownLatch.await(Unknown Source)"))
        .isEqualTo(WaitKind.SYNCHRONIZER);
    assertThat(kind("java.base/java.util.concurrent.locks.ReentrantLock.lock(Unknown Source)"))
        .isEqualTo(WaitKind.LOCK);
    assertThat(
            kind(
                "java.base/java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock.lock(Unknown Source)"))
        .isEqualTo(WaitKind.LOCK);
    assertThat(
            kind(
                "java.base/java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(Unknown Source)"))
        .isEqualTo(WaitKind.CONDITION);
    assertThat(kind("java.base/java.util.concurrent.CompletableFuture.get(Unknown Source)"))
        .isEqualTo(WaitKind.FUTURE);
    assertThat(kind("java.base/java.util.concurrent.LinkedBlockingQueue.take(Unknown Source)"))
        .isEqualTo(WaitKind.QUEUE);
    assertThat(kind("java.base/java.lang.Thread.sleep(Unknown Source)")).isEqualTo(WaitKind.SLEEP);
    assertThat(kind("java.base/java.lang.Thread.join(Unknown Source)")).isEqualTo(WaitKind.JOIN);
    assertThat(kind("java.base/java.lang.Object.wait(Unknown Source)"))
        .isEqualTo(WaitKind.MONITOR_WAIT);
    assertThat(kind("java.base/java.util.concurrent.locks.LockSupport.park(Unknown Source)"))
        .isEqualTo(WaitKind.PARKED);
  }

  @Test
  void socketWaitsSayTheirOperation() {
    Wait read =
        classifier.classify(
            thread(
                1,
                ThreadKind.VIRTUAL,
                "WAITING",
                null,
                "java.base/sun.nio.ch.NioSocketImpl.park(NioSocketImpl.java:191)",
                "java.base/sun.nio.ch.NioSocketImpl.read(NioSocketImpl.java:304)",
                "java.base/java.net.Socket$SocketInputStream.read(Socket.java:1099)",
                "java.base/java.io.InputStream.read(InputStream.java:220)",
                "com.acme.Client.poll(Client.java:9)",
                VT_BOTTOM));
    assertThat(read.key().kind()).isEqualTo(WaitKind.SOCKET_IO);
    assertThat(read.operation()).isEqualTo("read");
    assertThat(read.key().resourceClass()).isEqualTo("java.net.Socket");
    assertThat(read.key().entry()).isEqualTo("java.io.InputStream.read");
    Wait accept =
        classifier.classify(
            thread(
                2,
                ThreadKind.PLATFORM,
                "RUNNABLE",
                null,
                "java.base/sun.nio.ch.Net.accept(Native Method)",
                "java.base/sun.nio.ch.NioSocketImpl.accept(NioSocketImpl.java:748)",
                "java.base/java.net.ServerSocket.implAccept(ServerSocket.java:698)",
                "java.base/java.net.ServerSocket.accept(ServerSocket.java:554)",
                "com.acme.Server.run(Server.java:3)"));
    assertThat(accept.key().kind()).isEqualTo(WaitKind.SOCKET_IO);
    assertThat(accept.operation()).isEqualTo("accept");
    assertThat(accept.key().resourceClass()).isEqualTo("java.net.ServerSocket");
  }

  @Test
  void explicitFieldsTellWhatTheStackCannot() {
    Wait enter =
        classifier.classify(
            thread(
                1,
                ThreadKind.VIRTUAL,
                "BLOCKED",
                new Blocker.MonitorEnter(ObjectRef.identity("com.acme.Account@1f")),
                "com.acme.Account.debit(Account.java:12)",
                VT_BOTTOM));
    assertThat(enter.key())
        .isEqualTo(
            new WaitKey(
                WaitKind.MONITOR_ENTER,
                "com.acme.Account",
                "com.acme.Account@1f",
                null,
                null,
                "com.acme.Account.debit:12"));
    Wait init =
        classifier.classify(
            thread(
                2,
                ThreadKind.PLATFORM,
                "RUNNABLE",
                new Blocker.ClassInit("com.acme.Config"),
                "com.acme.Main.main(Main.java:5)"));
    assertThat(init.key().kind()).isEqualTo(WaitKind.CLASS_INIT);
    assertThat(init.key().resourceClass()).isEqualTo("com.acme.Config");
    // Thread.print's addresses move with the garbage collector: never a key
    Wait printed =
        classifier.classify(
            thread(
                3,
                ThreadKind.PLATFORM,
                "BLOCKED (on object monitor)",
                new Blocker.MonitorEnter(
                    new ObjectRef(
                        "java.lang.Object", "0x00000000f0017018", ObjectRef.IdKind.ADDRESS)),
                "com.acme.Account.debit(Account.java:12)"));
    assertThat(printed.key().resourceId()).isNull();
    assertThat(printed.key().resourceClass()).isEqualTo("java.lang.Object");
  }

  @Test
  void threadsWithoutFramesAreNotStartedOrTheJvmsOwn() {
    assertThat(classifier.classify(thread(1, ThreadKind.VIRTUAL, null, null)).key().kind())
        .isEqualTo(WaitKind.NOT_STARTED);
    assertThat(classifier.classify(thread(2, ThreadKind.PLATFORM, "RUNNABLE", null)).key().kind())
        .isEqualTo(WaitKind.NATIVE);
    assertThat(
            classifier
                .classify(
                    thread(
                        3,
                        ThreadKind.PLATFORM,
                        "RUNNABLE",
                        null,
                        "com.acme.Loop.spin(Loop.java:3)"))
                .key()
                .kind())
        .isEqualTo(WaitKind.RUNNING);
  }

  @Test
  void poolWorkersWaitingForWorkAreIdle() {
    Wait idle =
        classifier.classify(
            thread(
                1,
                ThreadKind.PLATFORM,
                "WAITING",
                parkedOn("java.util.concurrent.ForkJoinPool@76ad3aa6"),
                "java.base/jdk.internal.misc.Unsafe.park(Native Method)",
                "java.base/java.util.concurrent.ForkJoinPool.awaitWork(ForkJoinPool.java:2109)",
                "java.base/java.util.concurrent.ForkJoinPool.runWorker(ForkJoinPool.java:2027)",
                "java.base/java.util.concurrent.ForkJoinWorkerThread.run(ForkJoinWorkerThread.java:187)"));
    assertThat(idle.key().kind()).isEqualTo(WaitKind.IDLE_WORKER);
    assertThat(idle.key().entry()).isEqualTo("java.util.concurrent.ForkJoinPool.awaitWork");
    assertThat(idle.site()).isNull();
  }

  @Test
  void aCarrierCarriesRatherThanWaitsForTheTasksItRuns() {
    Wait carrying =
        classifier.classify(
            thread(
                1,
                ThreadKind.PLATFORM,
                "WAITING",
                null,
                "java.base/jdk.internal.vm.Continuation.run(Unknown Source)",
                "java.base/java.lang.VirtualThread.runContinuation(Unknown Source)",
                "java.base/java.util.concurrent.ForkJoinTask$RunnableExecuteAction.exec(Unknown Source)",
                "java.base/java.util.concurrent.ForkJoinTask.doExec(Unknown Source)",
                "java.base/java.util.concurrent.ForkJoinPool.runWorker(Unknown Source)",
                "java.base/java.util.concurrent.ForkJoinWorkerThread.run(Unknown Source)"));
    assertThat(carrying.key().kind()).isEqualTo(WaitKind.CARRYING);
  }

  @Test
  void theApplicationsOwnPackagesChooseTheSitePastALibrary() {
    String[] frames = {
      "java.base/java.lang.Thread.sleep(Thread.java:509)",
      "org.lib.Retry.backOff(Retry.java:7)",
      "com.acme.Job.run(Job.java:3)",
      VT_BOTTOM
    };
    DumpedThread t = thread(1, ThreadKind.VIRTUAL, "TIMED_WAITING", null, frames);
    assertThat(new WaitClassifier(new FrameOwnership(List.of("com.acme"))).classify(t).key().site())
        .isEqualTo("com.acme.Job.run:3");
    assertThat(classifier.classify(t).key().entry()).isEqualTo("java.lang.Thread.sleep");
  }

  static Stream<String> samples() {
    return Stream.of("dump-to-file.json", "dump-to-file.txt", "thread-print.txt")
        .flatMap(Samples::named);
  }

  /** Every thread of every real dump gets a key, and the same thread's kind is one of few. */
  @ParameterizedTest
  @MethodSource("samples")
  void everyThreadOfEverySampleIsClassified(String sample) throws IOException {
    ThreadDump dump = Samples.any(sample);
    for (DumpedThread t : dump.threads()) {
      Wait w = classifier.classify(t);
      assertThat(w.key().kind()).as(sample + " " + t.name()).isNotNull();
      if (w.key().resourceId() != null) {
        assertThat(w.key().resourceId()).doesNotStartWith("0x");
      }
    }
  }

  /** The same scenario's waits get the same keys from JDK 21's JSON and JDK 25's, ids aside. */
  @ParameterizedTest
  @MethodSource("scenariosOfBothJdks")
  void jdk21AndJdk25SayTheSameOfTheSameWaits(String scenario) throws IOException {
    ThreadDump on21 = Samples.json("jdk21.0.8/" + scenario + "/dump-to-file.json");
    ThreadDump on25 = Samples.json("jdk25/" + scenario + "/dump-to-file.json");
    for (DumpedThread t : on21.threads()) {
      if (!t.name().startsWith("fan-")
          && !t.name().startsWith("vt-lock-")
          && !t.name().startsWith("sleeper-")) {
        continue;
      }
      DumpedThread same = Samples.named(on25, t.name());
      assertThat(withId(classifier.classify(same).key(), null))
          .as(scenario + " " + t.name())
          .isEqualTo(classifier.classify(t).key());
    }
  }

  static Stream<String> scenariosOfBothJdks() {
    return Stream.of("lock-cycle", "semaphore-fan-out");
  }

  @Test
  void lockCycleThreadsWaitForEachOthersLocks() throws IOException {
    ThreadDump dump = Samples.json("jdk25/lock-cycle/dump-to-file.json");
    Wait a = classifier.classify(Samples.named(dump, "vt-lock-A"));
    Wait b = classifier.classify(Samples.named(dump, "vt-lock-B"));
    assertThat(a.key().kind()).isEqualTo(WaitKind.LOCK);
    assertThat(a.key().entry()).isEqualTo("java.util.concurrent.locks.ReentrantLock.lock");
    assertThat(a.key().resourceId())
        .startsWith("java.util.concurrent.locks.ReentrantLock$NonfairSync@");
    assertThat(a.key().resourceId()).isNotEqualTo(b.key().resourceId());
  }

  @Test
  void monitorCycleThreadsBlockEnteringMonitorsOnJdk25() throws IOException {
    ThreadDump dump = Samples.json("jdk25/monitor-cycle/dump-to-file.json");
    long blocked =
        dump.threads().stream()
            .filter(t -> classifier.classify(t).key().kind() == WaitKind.MONITOR_ENTER)
            .count();
    assertThat(blocked).isGreaterThanOrEqualTo(2);
  }

  @Test
  void classInitialisationIsToldByThreadPrint() throws IOException {
    ThreadDump dump = Samples.any("jdk25/class-init-cycle/thread-print.txt");
    assertThat(dump.threads())
        .anySatisfy(
            t -> assertThat(classifier.classify(t).key().kind()).isEqualTo(WaitKind.CLASS_INIT));
  }

  private WaitKind kind(String apiFrame) {
    return classifier
        .classify(
            thread(
                1,
                ThreadKind.PLATFORM,
                "WAITING",
                null,
                "java.base/jdk.internal.misc.Unsafe.park(Native Method)",
                "java.base/java.util.concurrent.locks.LockSupport.park(Unknown Source)",
                apiFrame,
                "com.acme.Main.main(Main.java:1)"))
        .key()
        .kind();
  }

  private static WaitKey withId(WaitKey k, String id) {
    return new WaitKey(k.kind(), k.resourceClass(), id, k.entry(), k.via(), k.site());
  }
}
