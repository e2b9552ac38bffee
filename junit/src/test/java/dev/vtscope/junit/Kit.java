package dev.vtscope.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
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

  private static String method(Event e) {
    return e.getTestDescriptor()
        .getSource()
        .filter(MethodSource.class::isInstance)
        .map(s -> ((MethodSource) s).getMethodName())
        .orElse(e.getTestDescriptor().getDisplayName());
  }
}
