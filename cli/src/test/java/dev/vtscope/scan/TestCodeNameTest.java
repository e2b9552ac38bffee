package dev.vtscope.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Which class names are test code, to the scan. */
class TestCodeNameTest {

  @Test
  void testPackagesAndTestClassesAndWhatIsNestedInThem() {
    assertThat(ThreadRoots.isTest("com.mchange.v2.c3p0.test.ConnectionDispersionTest")).isTrue();
    assertThat(ThreadRoots.isTest("org.acme.FooTest$Inner")).isTrue();
    assertThat(ThreadRoots.isTest("org.acme.FooTests")).isTrue();
    assertThat(ThreadRoots.isTest("org.acme.testing.Fixture")).isTrue();
    assertThat(ThreadRoots.isTest("Test")).isTrue();
    assertThat(ThreadRoots.isTest("com.sun.jna.platform.unix.X11$XTest")).isFalse();
    assertThat(ThreadRoots.isTest("org.acme.Contest.Tester")).isFalse();
    assertThat(ThreadRoots.isTest("org.acme.latest.Cache")).isFalse();
    assertThat(ThreadRoots.isTest("")).isFalse();
  }

  /** The oracle: the regular expressions the rule was first written with. */
  @Property(tries = 20_000)
  void sameAsTheRegularExpressions(@ForAll("names") String name) {
    boolean expected =
        Pattern.compile("(^|\\.)(test|tests|testing)\\.").matcher(name).find()
            || Pattern.compile("(^|\\.)[^.$]*Tests?(\\$.*)?$").matcher(name).find();
    assertThat(ThreadRoots.isTest(name)).as(name).isEqualTo(expected);
  }

  /** Names of the pieces the rule looks at, so that they meet often. */
  @Provide
  Arbitrary<String> names() {
    return Arbitraries.of(
            "test", "tests", "testing", "Test", "Tests", "a", "Foo", ".", "$", "s", "t")
        .list()
        .ofMaxSize(8)
        .map(parts -> String.join("", parts));
  }
}
