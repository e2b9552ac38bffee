package dev.vtscope.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.advice.Knowledge;
import dev.vtscope.advice.Severity;
import dev.vtscope.attribution.BlockingKind;
import dev.vtscope.testing.GeneratedClasses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scan of classes compiled here, each showing one way a method pins or does not. */
class ClassPathScannerTest {

  @TempDir Path dir;

  private ScanResult scan(int depth, Map<String, String> sources) {
    return new ClassPathScanner(Knowledge.standard(), depth)
        .scan(List.of(GeneratedClasses.compile(dir, sources)));
  }

  private static List<ScanFinding> of(ScanResult result, String qualifiedMethod) {
    return result.findings().stream()
        .filter(f -> f.qualifiedMethod().equals(qualifiedMethod))
        .toList();
  }

  private static List<String> chain(ScanFinding f) {
    return f.chain().stream().map(ChainStep::qualifiedMethod).toList();
  }

  @Test
  void aSynchronizedMethodThatWaitsIsHighOnTheReleasesWhereMonitorsPin() {
    ScanResult r =
        scan(
            1,
            Map.of(
                "p.Pool",
                """
                package p;
                public class Pool {
                  private int free;
                  public synchronized void take() throws InterruptedException {
                    while (free == 0) {
                      wait();
                    }
                    free--;
                  }
                }
                """));
    ScanFinding f = of(r, "p.Pool.take").get(0);
    assertThat(f.kind()).isEqualTo(FindingKind.SYNCHRONIZED_METHOD);
    assertThat(f.blocking()).isEqualTo(BlockingKind.WAIT);
    assertThat(chain(f)).containsExactly("p.Pool.take", "java.lang.Object.wait");
    assertThat(f.chain().get(0).line()).isEqualTo(6);
    assertThat(f.severity()).isEqualTo(Severity.HIGH);
    assertThat(f.releases().display()).isEqualTo("21-23");
    assertThat(f.lines().first()).isEqualTo(5);
  }

  @Test
  void aHostLookupOfALiteralAddressAsksNoNameServiceButOfANameOrOfAChoiceDoes() {
    ScanResult r =
        scan(
            1,
            Map.of(
                "p.Acl",
                """
                package p;
                import java.net.InetAddress;
                import java.net.UnknownHostException;
                public class Acl {
                  static final byte[] ANY;
                  static final byte[] ANY6;
                  static {
                    try {
                      ANY = InetAddress.getByName("0.0.0.0").getAddress();
                      ANY6 = InetAddress.getByName("::").getAddress();
                    } catch (UnknownHostException e) {
                      throw new IllegalStateException(e);
                    }
                  }
                  public static synchronized InetAddress loopback() throws UnknownHostException {
                    return InetAddress.getAllByName("[::ffff:127.0.0.1]")[0];
                  }
                  public static synchronized InetAddress named() throws UnknownHostException {
                    return InetAddress.getByName("db.example.org");
                  }
                  public static synchronized InetAddress badQuad() throws UnknownHostException {
                    return InetAddress.getByName("256.1.1.1");
                  }
                  public static synchronized InetAddress either(boolean v6, String host)
                      throws UnknownHostException {
                    return InetAddress.getByName(v6 ? host : "127.0.0.1");
                  }
                }
                """));
    assertThat(of(r, "p.Acl.<clinit>")).isEmpty();
    assertThat(of(r, "p.Acl.loopback")).isEmpty();
    assertThat(of(r, "p.Acl.named"))
        .singleElement()
        .satisfies(f -> assertThat(f.blocking()).isEqualTo(BlockingKind.HOST_LOOKUP));
    // not an address: a name to look up
    assertThat(of(r, "p.Acl.badQuad")).hasSize(1);
    // the literal is one of two strings that reach the call
    assertThat(of(r, "p.Acl.either")).hasSize(1);
  }

  private static final String READER =
      """
      package q;
      public class Wire {
        private final java.net.Socket socket;
        public Wire(java.net.Socket socket) { this.socket = socket; }
        public int next() throws java.io.IOException {
          return socket.getInputStream().read();
        }
      }
      """;

  @Test
  void aBlockThatCallsAnotherClassReadingASocketIsFoundAtDepthTwoWithItsLines() {
    ScanResult r =
        scan(
            2,
            Map.of(
                "q.Wire",
                READER,
                "p.Client",
                """
                package p;
                public class Client {
                  private final Object lock = new Object();
                  private final q.Wire wire;
                  public Client(q.Wire wire) { this.wire = wire; }
                  public int call() throws java.io.IOException {
                    int before = 0;
                    synchronized (lock) {
                      before++;
                      return wire.next() + before;
                    }
                  }
                }
                """));
    ScanFinding f = of(r, "p.Client.call").get(0);
    assertThat(f.kind()).isEqualTo(FindingKind.SYNCHRONIZED_BLOCK);
    assertThat(chain(f))
        .containsExactly("p.Client.call", "q.Wire.next", "java.net.Socket.getInputStream");
    assertThat(f.blocking()).isEqualTo(BlockingKind.SOCKET);
    assertThat(f.lines().first()).isEqualTo(8);
    assertThat(f.lines().last()).isEqualTo(10);
    assertThat(f.virtual()).isFalse();
  }

  @Test
  void aCallAfterTheBlockEndsIsNoFinding() {
    ScanResult r =
        scan(
            3,
            Map.of(
                "p.Counter",
                """
                package p;
                public class Counter {
                  private final Object lock = new Object();
                  private int count;
                  public void tick() throws InterruptedException {
                    synchronized (lock) {
                      count++;
                    }
                    Thread.sleep(10);
                  }
                }
                """));
    assertThat(of(r, "p.Counter.tick")).isEmpty();
  }

  private static final Map<String, String> THREE_DEEP =
      Map.of(
          "p.Deep",
          """
          package p;
          public class Deep {
            public synchronized void top() throws InterruptedException { middle(); }
            void middle() throws InterruptedException { bottom(); }
            void bottom() throws InterruptedException { Thread.sleep(1); }
          }
          """);

  @Test
  void theDepthLimitsTheCallsFollowed() {
    assertThat(of(scan(2, THREE_DEEP), "p.Deep.top")).isEmpty();
    ScanFinding f = of(scan(3, THREE_DEEP), "p.Deep.top").get(0);
    assertThat(chain(f))
        .containsExactly("p.Deep.top", "p.Deep.middle", "p.Deep.bottom", "java.lang.Thread.sleep");
  }

  @Test
  void anInterfaceCallFollowsTheImplementationThatBlocksAndSaysItGuessed() {
    ScanResult r =
        scan(
            3,
            Map.of(
                "p.Task",
                "package p; public interface Task { void run() throws Exception; }",
                "p.Quick",
                "package p; public class Quick implements Task { public void run() {} }",
                "p.Slow",
                """
                package p;
                public class Slow implements Task {
                  public void run() throws Exception {
                    new java.util.concurrent.CountDownLatch(1).await();
                  }
                }
                """,
                "p.Runner",
                """
                package p;
                public class Runner {
                  public synchronized void go(Task t) throws Exception { t.run(); }
                }
                """));
    ScanFinding f = of(r, "p.Runner.go").get(0);
    assertThat(chain(f))
        .containsExactly("p.Runner.go", "p.Slow.run", "java.util.concurrent.CountDownLatch.await");
    assertThat(f.chain().get(1).virtual()).isTrue();
    assertThat(f.virtual()).isTrue();
    // the guess costs it: the same wait through a direct call is riskier
    assertThat(f.score()).isLessThan(5 * BlockingKind.PARK.weight() - 4);
  }

  @Test
  void aNativeMethodCalledUnderAMonitorIsAChainAndAFindingOfItsOwn() {
    ScanResult r =
        scan(
            2,
            Map.of(
                "p.Device",
                """
                package p;
                public class Device {
                  static native int poll();
                  public synchronized int read() { return poll(); }
                }
                """));
    ScanFinding held = of(r, "p.Device.read").get(0);
    assertThat(held.blocking()).isEqualTo(BlockingKind.NATIVE);
    assertThat(chain(held)).containsExactly("p.Device.read", "p.Device.poll");
    ScanFinding declared = of(r, "p.Device.poll").get(0);
    assertThat(declared.kind()).isEqualTo(FindingKind.NATIVE_METHOD);
    assertThat(declared.releases().last()).isZero();
  }

  @Test
  void aClassInitialiserThatBlocksPinsOnEveryReleaseAndItsWaitersUntilTheKnowledgeSays() {
    ScanResult r =
        scan(
            2,
            Map.of(
                "p.Config",
                """
                package p;
                public class Config {
                  static final String VALUE;
                  static {
                    try {
                      VALUE = new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("c")));
                    } catch (java.io.IOException e) {
                      throw new ExceptionInInitializerError(e);
                    }
                  }
                }
                """));
    ScanFinding f = of(r, "p.Config.<clinit>").get(0);
    assertThat(f.kind()).isEqualTo(FindingKind.CLASS_INIT);
    assertThat(f.blocking()).isEqualTo(BlockingKind.FILE);
    assertThat(f.releases().last()).isZero();
    assertThat(f.waitersPinnedUpTo())
        .isEqualTo(Knowledge.standard().jdk().classInitWaitUnmountsIn() - 1);
  }

  @Test
  void aFatJarIsReadAsTheClassPathItCarriesAndADamagedJarIsSkippedWithANote() throws IOException {
    Path inner =
        GeneratedClasses.jar(
            GeneratedClasses.compile(dir, Map.of("q.Wire", READER)),
            dir.resolve("wire-1.0.jar"),
            Map.of());
    Path app =
        GeneratedClasses.compile(
            dir,
            Map.of(
                "q.Wire",
                READER,
                "p.App",
                """
                package p;
                public class App {
                  public synchronized int call(q.Wire w) throws java.io.IOException {
                    return w.next();
                  }
                }
                """));
    Files.delete(app.resolve("q/Wire.class"));
    Path appClasses = Files.createDirectories(dir.resolve("fat/BOOT-INF/classes"));
    Files.createDirectories(appClasses.resolve("p"));
    Files.copy(app.resolve("p/App.class"), appClasses.resolve("p/App.class"));
    Path fat =
        GeneratedClasses.jar(
            dir.resolve("fat"),
            dir.resolve("app.jar"),
            Map.of("BOOT-INF/lib/wire-1.0.jar", Files.readAllBytes(inner)));
    Path damaged = Files.writeString(dir.resolve("broken-2.0.jar"), "not a zip");
    ScanResult r = new ClassPathScanner(Knowledge.standard(), 3).scan(List.of(fat, damaged));
    ScanFinding f = of(r, "p.App.call").get(0);
    assertThat(chain(f))
        .containsExactly("p.App.call", "q.Wire.next", "java.net.Socket.getInputStream");
    assertThat(r.archives())
        .extracting(ScannedArchive::location)
        .contains(fat + "!/BOOT-INF/classes/", fat + "!/BOOT-INF/lib/wire-1.0.jar");
    assertThat(r.archives())
        .filteredOn(a -> a.location().endsWith("wire-1.0.jar"))
        .extracting(ScannedArchive::artifact)
        .containsExactly("wire:1.0");
    assertThat(r.problems())
        .extracting(ScannedArchive::location)
        .containsExactly(damaged.toString());
    // nothing of the fat jar was written beside it
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.startsWith("BOOT-INF") || n.equals("wire-1.0.jar.tmp"));
    }
  }

  @Test
  void recursionNeitherHidesABlockNorLoopsTheChain() {
    ScanResult r =
        scan(
            8,
            Map.of(
                "p.Parser",
                """
                package p;
                public class Parser {
                  private final java.io.Reader in;
                  public Parser(java.io.Reader in) { this.in = in; }
                  public synchronized int value(int n) throws java.io.IOException {
                    return n > 0 ? list(n - 1) : atom();
                  }
                  int list(int n) throws java.io.IOException {
                    return n > 0 ? value(n - 1) : 0;
                  }
                  int atom() throws java.io.IOException {
                    return in.read();
                  }
                }
                """));
    ScanFinding f = of(r, "p.Parser.value").get(0);
    assertThat(chain(f)).containsExactly("p.Parser.value", "p.Parser.atom", "java.io.Reader.read");
  }
}
