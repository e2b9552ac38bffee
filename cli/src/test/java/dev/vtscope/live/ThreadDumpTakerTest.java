package dev.vtscope.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadPrint;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** Reading a running JVM's dump as it is taken: the JSON completed by Thread.print. */
class ThreadDumpTakerTest {

  /**
   * A virtual thread that mounted between {@code Thread.print} and the JSON: JDK 25 writes its
   * carrier after its stack, and it is kept with its frames.
   */
  @Test
  void aThreadMountedAfterThreadPrintIsKeptWithItsStack() throws Exception {
    ThreadDump dump;
    try (InputStream json =
        ThreadDumpTakerTest.class.getResourceAsStream(
            "/threaddumps/jdk25/class-init-carriers/dump-to-file.json")) {
      dump = ThreadDumpTaker.read(json, ThreadPrint.parse(""));
    }
    assertThat(dump.complete()).isTrue();
    assertThat(dump.threads().stream().filter(DumpedThread::isVirtual))
        .hasSize(2)
        .allSatisfy(
            t -> {
              assertThat(t.carrier()).isPositive();
              assertThat(t.frames()).isNotEmpty();
            });
  }
}
