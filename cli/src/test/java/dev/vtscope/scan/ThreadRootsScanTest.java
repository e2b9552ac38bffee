package dev.vtscope.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.advice.Knowledge;
import dev.vtscope.advice.Severity;
import dev.vtscope.testing.GeneratedClasses;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Findings in code no virtual thread runs: a library's own threads, test classes. */
class ThreadRootsScanTest {

  @TempDir Path dir;

  private ScanResult scan(Map<String, String> sources) {
    return new ClassPathScanner(Knowledge.standard(), 3)
        .scan(List.of(GeneratedClasses.compile(dir, sources)));
  }

  private static ScanFinding of(ScanResult result, String qualifiedMethod) {
    return result.findings().stream()
        .filter(f -> f.qualifiedMethod().equals(qualifiedMethod))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no finding for " + qualifiedMethod));
  }

  private static final String WORKER =
      """
      package p;
      public class Worker extends Thread {
        private final Object lock = new Object();
        private final Queue queue;
        public Worker(Queue queue) { this.queue = queue; }
        @Override public void run() {
          synchronized (lock) {
            try { lock.wait(); } catch (InterruptedException e) { return; }
          }
          queue.drainOnWorker();
          queue.drain();
        }
      }
      """;

  private static final String QUEUE =
      """
      package p;
      public class Queue {
        private int items;
        public synchronized void drainOnWorker() {
          try { while (items == 0) wait(); } catch (InterruptedException e) { }
        }
        public synchronized void drain() {
          try { while (items == 0) wait(); } catch (InterruptedException e) { }
        }
        public synchronized void take() throws InterruptedException {
          while (items == 0) wait();
        }
      }
      """;

  @Test
  void aThreadSubclassRunAndWhatOnlyItCallsAreListedLastAsInfoWithTheirRoot() {
    ScanResult r =
        scan(
            Map.of(
                "p.Worker",
                WORKER,
                "p.Queue",
                QUEUE,
                "p.Api",
                """
                package p;
                public class Api {
                  public void drainNow(Queue q) { q.drain(); }
                }
                """));
    ScanFinding run = of(r, "p.Worker.run");
    assertThat(run.severity()).isEqualTo(Severity.INFO);
    assertThat(run.demotion())
        .isEqualTo(new Demotion(Demotion.Reason.LIBRARY_THREAD, "p.Worker.run"));
    ScanFinding onWorker = of(r, "p.Queue.drainOnWorker");
    assertThat(onWorker.demotion())
        .isEqualTo(new Demotion(Demotion.Reason.LIBRARY_THREAD, "p.Worker.run"));
    // also called from the public API: a virtual thread may run it
    ScanFinding drain = of(r, "p.Queue.drain");
    assertThat(drain.demotion()).isNull();
    assertThat(drain.severity()).isEqualTo(Severity.HIGH);
    // nothing calls it: an entry point, ranked
    assertThat(of(r, "p.Queue.take").demotion()).isNull();
    List<ScanFinding> all = r.findings();
    assertThat(all.indexOf(onWorker)).isGreaterThan(all.indexOf(of(r, "p.Queue.take")));
    assertThat(all.subList(all.indexOf(run), all.size()))
        .allSatisfy(f -> assertThat(f.demotion()).isNotNull());
  }

  @Test
  void aClassThatExtendsAThreadSubclassIsALibraryThreadToo() {
    ScanResult r =
        scan(
            Map.of(
                "p.Worker",
                WORKER,
                "p.Queue",
                QUEUE,
                "p.Special",
                """
                package p;
                public class Special extends Worker {
                  private final Object other = new Object();
                  public Special() { super(new Queue()); }
                  @Override public void run() {
                    synchronized (other) {
                      try { other.wait(); } catch (InterruptedException e) { }
                    }
                  }
                }
                """));
    assertThat(of(r, "p.Special.run").demotion())
        .isEqualTo(new Demotion(Demotion.Reason.LIBRARY_THREAD, "p.Special.run"));
  }

  @Test
  void aLambdaOrRunnableHandedToNewThreadRunsOnlyThereButAMethodReferenceElsewhereIsKept() {
    ScanResult r =
        scan(
            Map.of(
                "p.Queue",
                QUEUE,
                "p.Pump",
                """
                package p;
                public class Pump {
                  private final Queue queue = new Queue();
                  private final Object lock = new Object();
                  public void start() {
                    new Thread(() -> {
                      synchronized (lock) {
                        try { lock.wait(); } catch (InterruptedException e) { }
                      }
                    }).start();
                    new Thread(new Loop(lock), "loop").start();
                  }
                  public Runnable drainer() { return queue::drain; }
                  public void spin() {
                    new Thread(queue::drainOnWorker).start();
                  }
                }
                """,
                "p.Loop",
                """
                package p;
                class Loop implements Runnable {
                  private final Object lock;
                  Loop(Object lock) { this.lock = lock; }
                  public void run() {
                    synchronized (lock) {
                      try { lock.wait(); } catch (InterruptedException e) { }
                    }
                  }
                }
                """));
    ScanFinding lambda =
        r.findings().stream()
            .filter(f -> f.className().equals("p.Pump") && f.method().startsWith("lambda$"))
            .findFirst()
            .orElseThrow();
    assertThat(lambda.demotion().reason()).isEqualTo(Demotion.Reason.LIBRARY_THREAD);
    assertThat(lambda.demotion().root()).isEqualTo("p.Pump." + lambda.method());
    assertThat(of(r, "p.Loop.run").demotion())
        .isEqualTo(new Demotion(Demotion.Reason.LIBRARY_THREAD, "p.Loop.run"));
    assertThat(of(r, "p.Queue.drainOnWorker").demotion())
        .isEqualTo(new Demotion(Demotion.Reason.LIBRARY_THREAD, "p.Queue.drainOnWorker"));
    // a method reference handed out may run on any thread
    assertThat(of(r, "p.Queue.drain").demotion()).isNull();
  }

  private static final String WAITER =
      """
      package p;
      public class Waiter implements Runnable {
        private final Object lock = new Object();
        public void start() { new Thread(this).start(); }
        public void run() {
          synchronized (lock) {
            try { lock.wait(); } catch (InterruptedException e) { }
          }
        }
      }
      """;

  @Test
  void aRunnableHandedToNewThreadAsThisOrThroughALocalIsAThreadRootWhenNothingElseCallsIt() {
    ScanResult r =
        scan(
            Map.of(
                "p.Waiter",
                WAITER,
                "p.Reaper",
                """
                package p;
                public class Reaper implements Runnable {
                  private final Object lock = new Object();
                  public void run() {
                    synchronized (lock) {
                      try { lock.wait(); } catch (InterruptedException e) { }
                    }
                  }
                  public static Thread start(int priority) {
                    Reaper reaper = new Reaper();
                    Thread t = new Thread(reaper, "reaper");
                    t.setPriority(priority);
                    return t;
                  }
                }
                """,
                "p.Given",
                """
                package p;
                public class Given implements Runnable {
                  private final Object lock = new Object();
                  public void run() {
                    synchronized (lock) {
                      try { lock.wait(); } catch (InterruptedException e) { }
                    }
                  }
                  public static Thread start(Runnable task) { return new Thread(task); }
                }
                """,
                "p.Shared",
                """
                package p;
                public class Shared implements Runnable {
                  private final Object lock = new Object();
                  public void start() { new Thread(this).start(); }
                  public void runHere() { run(); }
                  public void run() {
                    synchronized (lock) {
                      try { lock.wait(); } catch (InterruptedException e) { }
                    }
                  }
                }
                """));
    assertThat(of(r, "p.Waiter.run").demotion())
        .isEqualTo(new Demotion(Demotion.Reason.LIBRARY_THREAD, "p.Waiter.run"));
    assertThat(of(r, "p.Reaper.run").demotion())
        .isEqualTo(new Demotion(Demotion.Reason.LIBRARY_THREAD, "p.Reaper.run"));
    // a parameter may be anything: not followed
    assertThat(of(r, "p.Given.run").demotion()).isNull();
    // called as a plain method too: ranked
    assertThat(of(r, "p.Shared.run").demotion()).isNull();
  }

  @Test
  void aTimerTaskRunsOnlyOnItsTimersThread() {
    ScanResult r =
        scan(
            Map.of(
                "p.Sweep",
                """
                package p;
                public class Sweep extends java.util.TimerTask {
                  private final Object lock = new Object();
                  @Override public void run() {
                    synchronized (lock) {
                      try { lock.wait(10); } catch (InterruptedException e) { }
                    }
                  }
                }
                """));
    ScanFinding f = of(r, "p.Sweep.run");
    assertThat(f.demotion()).isEqualTo(new Demotion(Demotion.Reason.TIMER_THREAD, "p.Sweep.run"));
    assertThat(f.severity()).isEqualTo(Severity.INFO);
  }

  private static final String CONNECTION =
      """
      package %s;
      public class Connection implements java.io.Closeable {
        private int pongs;
        public void ping() { awaitPong(); }
        public void pingNow() { }
        public synchronized void awaitPong() {
          try { while (pongs == 0) wait(); } catch (InterruptedException e) { }
        }
        public synchronized void awaitPongForTests() { awaitPongUntil(); }
        synchronized void awaitPongUntil() {
          try { while (pongs == 0) wait(100); } catch (InterruptedException e) { }
        }
        @Override public synchronized void close() {
          try { while (pongs == 0) wait(); } catch (InterruptedException e) { }
        }
      }
      """;

  @Test
  void codeNothingCallsInAnInternalPackageIsNotRankedButPublicPackagesAndOverridesAre() {
    ScanResult r =
        scan(
            Map.of(
                "p.internal.http.Connection",
                CONNECTION.formatted("p.internal.http"),
                "p.pub.Connection",
                CONNECTION.formatted("p.pub"),
                "p.pub.Api",
                """
                package p.pub;
                public class Api {
                  public void check() { new p.internal.http.Connection().awaitPong(); }
                }
                """));
    assertThat(of(r, "p.internal.http.Connection.awaitPongForTests").demotion())
        .isEqualTo(
            new Demotion(
                Demotion.Reason.NOT_CALLED, "p.internal.http.Connection.awaitPongForTests"));
    // called only from what nothing calls, in the same internal package
    assertThat(of(r, "p.internal.http.Connection.awaitPongUntil").demotion())
        .isEqualTo(
            new Demotion(
                Demotion.Reason.NOT_CALLED, "p.internal.http.Connection.awaitPongForTests"));
    // called from ping, which nothing calls, and from a public package's class: ranked
    assertThat(of(r, "p.internal.http.Connection.awaitPong").demotion()).isNull();
    // Closeable.close: whoever closes a Closeable runs it
    assertThat(of(r, "p.internal.http.Connection.close").demotion()).isNull();
    // a package that is not internal: an application may call it
    assertThat(of(r, "p.pub.Connection.awaitPongForTests").demotion()).isNull();
    assertThat(of(r, "p.pub.Connection.awaitPongUntil").demotion()).isNull();
  }

  @Test
  void aPackageTheKnowledgeSaysNoApplicationRunsIsNotRankedUnlessReachedFromOutside() {
    Map<String, String> sources =
        Map.of(
            "p.server.Server",
            """
            package p.server;
            public class Server {
              private int requests;
              public synchronized void enqueue() {
                try { while (requests > 10) wait(); } catch (InterruptedException e) { }
              }
              public static synchronized void copyStat() {
                try { Server.class.wait(1); } catch (InterruptedException e) { }
              }
            }
            """,
            "p.client.Client",
            """
            package p.client;
            public class Client {
              public void stat() { p.server.Server.copyStat(); }
              public void listen(p.lib.Pipeline pipeline) {
                pipeline.add(new p.server.PathHandler());
              }
            }
            """,
            "p.lib.Pipeline",
            """
            package p.lib;
            public class Pipeline {
              private final java.util.List<Handler> handlers = new java.util.ArrayList<>();
              public void add(Handler h) { handlers.add(h); }
              public void fire() { for (Handler h : handlers) h.handle(); }
            }
            """,
            "p.lib.Handler",
            """
            package p.lib;
            public interface Handler { void handle(); }
            """,
            "p.server.ConnectionHandler",
            """
            package p.server;
            public class ConnectionHandler implements p.lib.Handler {
              public synchronized void handle() {
                try { wait(); } catch (InterruptedException e) { }
              }
            }
            """,
            "p.server.PathHandler",
            """
            package p.server;
            public class PathHandler implements p.lib.Handler {
              public synchronized void handle() {
                try { wait(); } catch (InterruptedException e) { }
              }
            }
            """);
    Path classes = GeneratedClasses.compile(dir, sources);
    Knowledge standard = Knowledge.standard();
    String artifact =
        new ClassPathScanner(standard, 3).scan(List.of(classes)).archives().get(0).artifact();
    Knowledge k =
        new Knowledge(
            standard.jdk(),
            standard.thresholds(),
            standard.libraries(),
            standard.submitFailures(),
            standard.scanDoesNotFollow(),
            List.of(new Knowledge.UnrunPackage("p.server", artifact, "the server", "a test")));
    ScanResult r = new ClassPathScanner(k, 3).scan(List.of(classes));
    assertThat(of(r, "p.server.Server.enqueue").demotion())
        .isEqualTo(new Demotion(Demotion.Reason.PACKAGE_NOT_RUN, "p.server: the server"));
    // the client calls it: ranked
    assertThat(of(r, "p.server.Server.copyStat").demotion()).isNull();
    // the library calls every Handler it is given, but only the server makes this one
    assertThat(of(r, "p.server.ConnectionHandler.handle").demotion())
        .isEqualTo(new Demotion(Demotion.Reason.PACKAGE_NOT_RUN, "p.server: the server"));
    // the client makes one of these: the library may run it
    assertThat(of(r, "p.server.PathHandler.handle").demotion()).isNull();
    // another artifact's package of that name is not the one the knowledge means
    Knowledge elsewhere =
        new Knowledge(
            standard.jdk(),
            standard.thresholds(),
            standard.libraries(),
            standard.submitFailures(),
            standard.scanDoesNotFollow(),
            List.of(new Knowledge.UnrunPackage("p.server", "g:other", "the server", "a test")));
    assertThat(
            of(new ClassPathScanner(elsewhere, 3).scan(List.of(classes)), "p.server.Server.enqueue")
                .demotion())
        .isNull();
  }

  @Test
  void aTestClassInTheJarIsListedAsTestCode() {
    ScanResult r =
        scan(
            Map.of(
                "p.PoolTest",
                """
                package p;
                public class PoolTest {
                  public static synchronized void main(String[] args) throws Exception {
                    PoolTest.class.wait();
                  }
                }
                """,
                "p.testing.Harness",
                """
                package p.testing;
                public class Harness {
                  public synchronized void await() throws InterruptedException { wait(); }
                }
                """));
    assertThat(of(r, "p.PoolTest.main").demotion())
        .isEqualTo(new Demotion(Demotion.Reason.TEST_CODE, "p.PoolTest.main"));
    assertThat(of(r, "p.testing.Harness.await").demotion())
        .isEqualTo(new Demotion(Demotion.Reason.TEST_CODE, "p.testing.Harness.await"));
    assertThat(of(r, "p.testing.Harness.await").severity()).isEqualTo(Severity.INFO);
  }

  @Test
  void testClassesAreFoundByPackageOrTopLevelName() {
    assertThat(ThreadRoots.isTest("a.b.Contest")).isFalse();
    assertThat(ThreadRoots.isTest("a.b.PoolTests$Inner")).isTrue();
    assertThat(ThreadRoots.isTest("a.test.Pool")).isTrue();
    // a nested class named for what it is (X11's XTest extension) is not a test class
    assertThat(ThreadRoots.isTest("a.b.X11$XTest")).isFalse();
  }
}
