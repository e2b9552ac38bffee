package dev.vtscope.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.advice.Knowledge;
import dev.vtscope.attribution.BlockingKind;
import dev.vtscope.testing.GeneratedClasses;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which monitors an exception handler runs under: only those held where an exception can reach it.
 * A try around a synchronized block covers the block's instructions too, but the block's own
 * handler comes first in the table and catches everything, so the try's handler is never entered
 * holding the block's monitor (a loop whose catch leads back to a blocking call is the shape of
 * Curator's {@code ConnectionStateManager.processEvents}).
 */
class ExceptionHandlerScanTest {

  @TempDir Path dir;

  private List<ScanFinding> findings(String className, String source, String method) {
    ScanResult r =
        new ClassPathScanner(Knowledge.standard(), 1)
            .scan(List.of(GeneratedClasses.compile(dir, Map.of(className, source))));
    return r.findings().stream().filter(f -> f.qualifiedMethod().equals(method)).toList();
  }

  @Test
  void aCatchAroundASynchronizedBlockDoesNotHoldItsMonitorWhenTheLoopBlocksAgain() {
    List<ScanFinding> found =
        findings(
            "p.Events",
            """
            package p;
            import java.util.concurrent.*;
            public class Events {
              private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();
              private int seen;
              private volatile boolean running = true;
              public void process() {
                while (running) {
                  try {
                    String e = queue.poll(1, TimeUnit.SECONDS);
                    synchronized (this) {
                      seen++;
                    }
                  } catch (InterruptedException e) {
                    // closing
                  }
                }
              }
            }
            """,
            "p.Events.process");
    assertThat(found).isEmpty();
  }

  @Test
  void aCatchInsideASynchronizedBlockStillHoldsItsMonitor() {
    List<ScanFinding> found =
        findings(
            "p.Retry",
            """
            package p;
            import java.util.concurrent.*;
            public class Retry {
              private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();
              private String last;
              public void next() throws InterruptedException {
                synchronized (this) {
                  try {
                    last = String.valueOf(Integer.parseInt(last) + 1);
                  } catch (NumberFormatException e) {
                    last = queue.take();
                  }
                }
              }
            }
            """,
            "p.Retry.next");
    assertThat(found).hasSize(1);
    assertThat(found.get(0).blocking()).isEqualTo(BlockingKind.QUEUE);
    assertThat(found.get(0).kind()).isEqualTo(FindingKind.SYNCHRONIZED_BLOCK);
  }

  @Test
  void aCatchAroundASynchronizedBlockThatBlocksInsideIsStillAFinding() {
    List<ScanFinding> found =
        findings(
            "p.Gate",
            """
            package p;
            public class Gate {
              private boolean open;
              public void pass() {
                try {
                  synchronized (this) {
                    while (!open) {
                      wait();
                    }
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
            }
            """,
            "p.Gate.pass");
    assertThat(found).hasSize(1);
    assertThat(found.get(0).blocking()).isEqualTo(BlockingKind.WAIT);
  }
}
