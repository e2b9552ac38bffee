package dev.vtscope.report;

import dev.vtscope.advice.Knowledge;
import dev.vtscope.scan.ClassPathScanner;
import dev.vtscope.scan.ScanResult;
import dev.vtscope.testing.GeneratedClasses;
import dev.vtscope.testing.TestRecordings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The text and Markdown of a scan of a small jar compiled here, against committed files
 * (cli/src/test/resources/scan-reports), as {@link GoldenReportTest} does for recordings.
 */
class ScanReportGoldenTest {

  @TempDir Path dir;

  private static final Map<String, String> SOURCES =
      Map.of(
          "shop.Pool",
          """
          package shop;
          public class Pool {
            private int free;
            public synchronized void take() throws InterruptedException {
              while (free == 0) {
                wait();
              }
              free--;
            }
          }
          """,
          "shop.Wire",
          """
          package shop;
          public class Wire {
            private final java.net.Socket socket;
            private final Object lock = new Object();
            public Wire(java.net.Socket socket) { this.socket = socket; }
            public int next() throws java.io.IOException {
              synchronized (lock) {
                return read();
              }
            }
            private int read() throws java.io.IOException {
              return socket.getInputStream().read();
            }
            static native int poll();
          }
          """,
          "shop.Settings",
          """
          package shop;
          public class Settings {
            static final long READY;
            static {
              try {
                Thread.sleep(100);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
              READY = System.nanoTime();
            }
          }
          """);

  @Test
  void aSmallJarsScanReadsAsCommitted() throws IOException {
    Path jar =
        GeneratedClasses.jar(
            GeneratedClasses.compile(dir, SOURCES), dir.resolve("shop-1.0.jar"), Map.of());
    ScanResult result = new ClassPathScanner(Knowledge.standard(), 3).scan(List.of(jar));
    Path golden = TestRecordings.repoRoot().resolve("cli/src/test/resources/scan-reports");
    GoldenReportTest.compare(
        golden.resolve("shop.txt"), render(new TextReport(TextStyle.PLAIN), result));
    GoldenReportTest.compare(golden.resolve("shop.md"), render(new MarkdownReport(), result));
  }

  private static String render(ReportRenderer renderer, ScanResult result) {
    StringWriter text = new StringWriter();
    renderer.render(new Report.Scanned(result), new PrintWriter(text));
    return text.toString();
  }
}
