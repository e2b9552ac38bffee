package dev.vtscope.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.TestRecordings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JDK discovery exists once: the launcher's shell functions and {@link JdkLocator} read the same
 * list of folders (tools/jdk-folders) and find the same ones, in the same order.
 */
class JdkFoldersTest {

  @TempDir Path home;

  private static Path fakeJdk(Path home, String version) throws Exception {
    Files.createDirectories(home.resolve("bin"));
    Path java = home.resolve("bin/java");
    Files.writeString(java, "#!/bin/sh\nexit 0\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + "\"\n");
    return home;
  }

  private List<String> shellFolders(Map<String, String> env) throws Exception {
    Path root = TestRecordings.repoRoot();
    ProcessBuilder pb =
        new ProcessBuilder(
            "bash", "-c", ". \"$1\"/tools/find-jdk.sh && vt_jdk_folders", "_", root.toString());
    pb.environment().remove("VTSCOPE_JDK_DIRS");
    pb.environment().putAll(env);
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out.lines().toList();
  }

  @Test
  void theLauncherAndTheJarLookInTheSameFoldersInTheSameOrder() throws Exception {
    Path sdkman = fakeJdk(home.resolve(".sdkman/candidates/java/21.0.1-tem"), "21.0.1");
    Path intellij = fakeJdk(home.resolve(".jdks/openjdk-22"), "22");
    Map<String, String> env = new HashMap<>(Map.of("HOME", home.toString()));
    Path root = TestRecordings.repoRoot();

    List<String> java = new JdkLocator(env, root).folders().stream().map(Path::toString).toList();
    assertThat(java).isEqualTo(shellFolders(env));
    assertThat(java).contains(sdkman.toString(), intellij.toString());
    assertThat(java.indexOf(sdkman.toString())).isLessThan(java.indexOf(intellij.toString()));
    assertThat(new JdkLocator(env, root).all()).extracting(Jdk::home).contains(sdkman, intellij);

    // VTSCOPE_JDK_DIRS replaces the list, in both
    env.put("VTSCOPE_JDK_DIRS", home.resolve(".jdks").toString());
    List<String> only = new JdkLocator(env, root).folders().stream().map(Path::toString).toList();
    assertThat(only).containsExactly(intellij.toString());
    assertThat(shellFolders(env)).isEqualTo(only);

    // a JDK named itself, next to a folder of JDKs and an empty entry
    env.put("VTSCOPE_JDK_DIRS", sdkman + "::" + home.resolve(".jdks"));
    List<String> both = new JdkLocator(env, root).folders().stream().map(Path::toString).toList();
    assertThat(both).containsExactly(sdkman.toString(), intellij.toString());
    assertThat(shellFolders(env)).isEqualTo(both);
  }
}
