package dev.vtscope.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.ChildJvms;
import dev.vtscope.testing.ControlCharacterNameProgram;
import dev.vtscope.threaddump.DumpFormat;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadPrint;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Thread dumps of JVMs of JDK 21 and 24+ whose JSON dump fails: a thread's name holds an ESC
 * character, on which the JDK's JSON writer throws, leaving its file cut short. The dump falls back
 * to the plain text, says so and why, and keeps the thread with its name as it is.
 */
class ThreadDumpTakerTest {

  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#targetJavas")
  void aNameTheJsonWriterFailsOnFallsBackToThePlainText(Path java) throws Exception {
    Process target =
        new ProcessBuilder(
                ChildJvms.program(
                    java,
                    "-cp",
                    System.getProperty("java.class.path"),
                    ControlCharacterNameProgram.class.getName()))
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("ready");
      ThreadDump dump = ThreadDumpTaker.take(target.pid(), ThreadDumpTaker.Scope.LIVE_VIEW);
      assertThat(dump.format()).isEqualTo(DumpFormat.PLAIN_TEXT);
      assertThat(dump.notes())
          .singleElement()
          .asString()
          .startsWith("the JSON thread dump failed (")
          .contains("control character")
          .endsWith("read its plain text (Thread.dump_to_file) instead")
          .doesNotContain("\n");
      DumpedThread named =
          dump.threads().stream()
              .filter(t -> t.name().equals(ControlCharacterNameProgram.NAME))
              .findFirst()
              .orElseThrow(() -> new AssertionError(dump.threads().toString()));
      assertThat(named.frames()).isNotEmpty();
      // completed by Thread.print: the platform threads' CPU time
      assertThat(named.cpuNanos()).isNotNegative();
    } finally {
      target.destroyForcibly();
      target.waitFor(20, TimeUnit.SECONDS);
    }
  }

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
    // the others kept have not started: they wait for a carrier, which tells a starvation
    assertThat(dump.threads().stream().filter(DumpedThread::isVirtual))
        .filteredOn(t -> !t.frames().isEmpty())
        .hasSize(2)
        .allSatisfy(t -> assertThat(t.carrier()).isPositive());
    assertThat(dump.threads().stream().filter(DumpedThread::isVirtual))
        .filteredOn(t -> t.frames().isEmpty())
        .hasSize(8)
        .allSatisfy(t -> assertThat(t.name()).matches("vt-user-[1-7]|vt-releaser"));
  }
}
