package dev.vtscope.thirdparty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.testing.Reports;
import dev.vtscope.testing.TestRecordings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JNI method that calls back into Java pins on every JDK: the culprit is the native method, not
 * the Java callback where the thread waited. The native library is compiled here with the C
 * compiler and the JNI headers of the JDK that runs the build.
 */
class NativeMethodTest {

  @TempDir Path dir;

  private Path buildLibrary() throws Exception {
    Path source = TestRecordings.repoRoot().resolve("cli/src/test/c/native_callback.c");
    Path include = findJniHeaders();
    Path library = dir.resolve("libnativecallback.so");
    Process cc =
        new ProcessBuilder(
                "cc",
                "-shared",
                "-fPIC",
                "-o",
                library.toString(),
                "-I" + include,
                "-I" + include.resolve("linux"),
                source.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(cc.getInputStream().readAllBytes());
    assertThat(cc.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(cc.exitValue()).as("cc: " + output).isZero();
    return library;
  }

  /** jni.h of the running JDK, or of the build JDK when the running one is a runtime without it. */
  private static Path findJniHeaders() {
    for (String home :
        List.of(System.getProperty("java.home"), System.getProperty("vtscope.buildJavaHome", ""))) {
      if (!home.isBlank() && Files.isRegularFile(Path.of(home, "include", "jni.h"))) {
        return Path.of(home, "include");
      }
    }
    throw new AssertionError("no jni.h in the running or the build JDK");
  }

  @Test
  void aJniMethodThatCallsBackIsTheCulpritOnEveryJdk() throws Exception {
    Path library = buildLibrary();
    Path recording =
        TestRecordings.recordTestProgram(
            TestRecordings.currentJava(),
            "0ms",
            NativeCallback.class.getName(),
            library.toString(),
            "3");
    Analysis a = Reports.analyze("jni.jfr", recording, GroupBy.CULPRIT);
    Site site = a.pinned().sites().get(0);
    Culprit culprit = site.attribution().culprit();

    assertThat(culprit.kind()).isEqualTo(CulpritKind.NATIVE_METHOD);
    assertThat(culprit.qualifiedMethod())
        .isEqualTo("dev.vtscope.thirdparty.NativeCallback.callBack");
    assertThat(site.topApplicationFrame().method()).isEqualTo("waitForReply");
    assertThat(culprit.detail()).contains("pins the carrier on every JDK");
    // The application's own frames are the application's, though its task is a hidden lambda.
    assertThat(site.attribution().owners().get(culprit.frameIndex()))
        .isEqualTo(dev.vtscope.attribution.Owner.APPLICATION);
    if (a.feature() >= 24) {
      assertThat(site.reason()).isEqualTo("Native or VM frame on stack");
    }
  }
}
