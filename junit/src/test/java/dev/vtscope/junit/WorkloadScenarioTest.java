package dev.vtscope.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * The project's pinning workloads under {@code @NoPinning}, run by JUnit as a build runs them: the
 * pinning scenario fails with the holder, its kind, artifact, the frame to change and the fix; its
 * fixed twin passes.
 */
class WorkloadScenarioTest {

  @TempDir Path recordings;

  /** Monitor pinning and its fixed twin, as a team would annotate them. */
  static class SharedLock {
    @Test
    @NoPinning
    void synchronizedBlock() throws Exception {
      Scenarios.synchronizedBlock();
    }

    @Test
    @NoPinning
    void reentrantLock() throws Exception {
      Scenarios.reentrantLock();
    }
  }

  /** A blocking foreign-function upcall and its fixed twin. */
  @NoPinning
  static class ForeignCall {
    @Test
    void upcall() throws Exception {
      Scenarios.foreignUpcall();
    }

    @Test
    void javaSort() throws Exception {
      Scenarios.javaSort();
    }
  }

  @Test
  void synchronizedBlockFailsNamingTheBlockAndTheFixOnJdk21To23() throws Exception {
    Map<String, TestExecutionResult> results = Kit.run(SharedLock.class, recordings);

    assertThat(results.get("reentrantLock").getStatus()).isEqualTo(Status.SUCCESSFUL);
    if (Scenarios.JDK >= 24) {
      // JEP 491: a virtual thread blocked in synchronized unmounts, so the same code passes
      assertThat(results.get("synchronizedBlock").getStatus()).isEqualTo(Status.SUCCESSFUL);
      assertThat(recordings).isEmptyDirectory();
      return;
    }
    String message = Kit.failure(results.get("synchronizedBlock"));
    // 20 tasks sleep in the block: at least 20 pins, more when a parked sleep wakes early and parks
    // again (the JDK loops until the time has passed, and each park while pinned is an event)
    Matcher over =
        Pattern.compile("Over budget: pinned events <= 0 \\((\\d+) pinned events\\)\\.")
            .matcher(message);
    assertThat(over.find()).as(message).isTrue();
    int pins = Integer.parseInt(over.group(1));
    assertThat(pins).isGreaterThanOrEqualTo(20);
    assertThat(message)
        .startsWith("vtscope: Virtual threads pinned their carriers while the test ran on JDK ")
        .contains(
            "1. dev.vtscope.workloads.SharedLockPinning.withMonitor holds the carrier: "
                + pins
                + " pins")
        .containsPattern("kind +synchronized block, lines \\d+-\\d+")
        .containsPattern("artifact +dev\\.vtscope:vtscope-workloads:")
        .containsPattern("waited in +dev\\.vtscope\\.workloads\\.SharedLockPinning\\.sleep\\(")
        .containsPattern(
            "change at +dev\\.vtscope\\.workloads\\.SharedLockPinning\\.withMonitor\\(SharedLockPinning\\.java:\\d+\\)")
        .contains(
            "finding    [high] dev.vtscope.workloads.SharedLockPinning.withMonitor pins carriers")
        .contains(
            "fix        Hold a java.util.concurrent.locks.ReentrantLock instead of the monitor")
        .contains("fix        Upgrade to JDK 24 or later (JEP 491");
    assertKeptRecording(message);
  }

  @Test
  void foreignUpcallFailsNamingTheCallAndTheFix() throws Exception {
    assumeTrue(Scenarios.JDK >= 22, "the foreign-function API is final from JDK 22");

    Map<String, TestExecutionResult> results = Kit.run(ForeignCall.class, recordings);

    assertThat(results.get("javaSort").getStatus()).isEqualTo(Status.SUCCESSFUL);
    String message = Kit.failure(results.get("upcall"));
    assertThat(message)
        .startsWith("vtscope: Virtual threads pinned their carriers while the test ran on JDK ")
        .containsPattern("Over budget: pinned events <= 0 \\(\\d+ pinned events\\)\\.")
        .contains("1. dev.vtscope.workloads.ForeignCallPinning.sortNatively holds the carrier: ")
        .containsPattern("kind +foreign function call, line \\d+")
        .containsPattern("artifact +dev\\.vtscope:vtscope-workloads:")
        .containsPattern("waited in +dev\\.vtscope\\.workloads\\.ForeignCallPinning\\.block\\(")
        .containsPattern(
            "change at +dev\\.vtscope\\.workloads\\.ForeignCallPinning\\.sortNatively\\(ForeignCallPinning\\.java:\\d+\\)")
        .contains(
            "note       blocked in an upcall to dev.vtscope.workloads.ForeignCallPinning.compare")
        .containsPattern(
            "finding +\\[\\w+\\] dev\\.vtscope\\.workloads\\.ForeignCallPinning\\.sortNatively pins carriers:"
                + " the virtual thread blocks under a foreign-function call")
        .contains("fix        Move the blocking out of the upcall or downcall")
        .contains("fix        A JDK upgrade does not help");
    assertKeptRecording(message);
  }

  /** The message names the kept recording, which exists; passed tests leave none. */
  private void assertKeptRecording(String message) throws Exception {
    String kept = message.replaceAll("(?s).*Recording kept: (\\S+\\.jfr) .*", "$1");
    assertThat(Path.of(kept)).exists().hasParent(recordings);
    try (var files = Files.list(recordings)) {
      assertThat(files.toList()).containsExactly(Path.of(kept));
    }
  }
}
