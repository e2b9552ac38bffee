package dev.vtscope.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/** Runs test classes with JUnit Jupiter, as a build would, and reports how each method ended. */
final class Kit {

  private Kit() {}

  /**
   * Runs every test of {@code testClass}, keeping failed tests' recordings in {@code recordings}.
   *
   * @return each test method's result by method name, in the order they finished
   */
  static Map<String, TestExecutionResult> run(Class<?> testClass, Path recordings) {
    Map<String, TestExecutionResult> results = new LinkedHashMap<>();
    EngineTestKit.engine("junit-jupiter")
        .configurationParameter(NoPinningExtension.RECORDINGS_PARAMETER, recordings.toString())
        .selectors(DiscoverySelectors.selectClass(testClass))
        .execute()
        .testEvents()
        .stream()
        .filter(e -> e.getType() == EventType.FINISHED)
        .forEach(e -> results.put(method(e), e.getRequiredPayload(TestExecutionResult.class)));
    assertThat(results).as("tests run in " + testClass.getSimpleName()).isNotEmpty();
    return results;
  }

  /** The failure message of {@code result}, which must have failed. */
  static String failure(TestExecutionResult result) {
    assertThat(result.getStatus())
        .as("the test's status")
        .isEqualTo(TestExecutionResult.Status.FAILED);
    return result.getThrowable().orElseThrow().getMessage();
  }

  /**
   * Runs {@code testClass}'s tests in a child JVM with {@code jvmOptions}, keeping recordings in
   * {@code dir}.
   *
   * @return a line per test: its method name, status and failure message (its new lines written as
   *     a backslash and an n)
   */
  static List<String> runInChildJvm(Path dir, Class<?> testClass, String... jvmOptions)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(jvmOptions));
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            Kit.class.getName(),
            dir.toString(),
            testClass.getName()));
    Path out = Files.createTempFile(dir, "child-", ".out");
    Path err = Files.createTempFile(dir, "child-", ".err");
    Process child =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("the child JVM ends").isTrue();
    assertThat(child.exitValue()).as("exit code; stderr: " + Files.readString(err)).isZero();
    return Files.readAllLines(out);
  }

  /** In a child JVM: runs the test class {@code args[1]}, recordings in {@code args[0]}. */
  public static void main(String[] args) throws Exception {
    run(Class.forName(args[1]), Path.of(args[0]))
        .forEach(
            (name, result) ->
                System.out.println(
                    name
                        + " "
                        + result.getStatus()
                        + " "
                        + result
                            .getThrowable()
                            .map(Throwable::getMessage)
                            .orElse("")
                            .replace("\n", "\\n")));
  }

  private static String method(Event e) {
    return e.getTestDescriptor()
        .getSource()
        .filter(MethodSource.class::isInstance)
        .map(s -> ((MethodSource) s).getMethodName())
        .orElse(e.getTestDescriptor().getDisplayName());
  }
}
