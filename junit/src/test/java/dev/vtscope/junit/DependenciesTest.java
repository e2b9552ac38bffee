package dev.vtscope.junit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The extension's tests run without the command line's own libraries, which its pom leaves out of
 * what a user's build pulls in: every test here passing shows the extension never needs them.
 */
class DependenciesTest {

  @ParameterizedTest
  @ValueSource(strings = {"picocli.CommandLine", "org.jline.terminal.Terminal"})
  void commandLineLibrariesAreNotOnTheClassPath(String className) {
    assertThatThrownBy(() -> Class.forName(className)).isInstanceOf(ClassNotFoundException.class);
  }
}
