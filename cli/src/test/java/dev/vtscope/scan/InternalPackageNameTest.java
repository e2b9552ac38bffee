package dev.vtscope.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Which class names are in a package a library keeps to itself, to the scan. */
class InternalPackageNameTest {

  @Test
  void internalShadedAndShadowPackagesAnywhereInTheName() {
    assertThat(ThreadRoots.inInternalPackage("io.netty.util.internal.PlatformDependent")).isTrue();
    assertThat(ThreadRoots.inInternalPackage("internal.Foo")).isTrue();
    assertThat(ThreadRoots.inInternalPackage("org.acme.shaded.com.google.Foo")).isTrue();
    assertThat(ThreadRoots.inInternalPackage("org.acme.shadow.Foo")).isTrue();
    assertThat(ThreadRoots.inInternalPackage("org.acme.notinternal.Foo")).isFalse();
    assertThat(ThreadRoots.inInternalPackage("org.acme.shadowed.Foo")).isFalse();
    assertThat(ThreadRoots.inInternalPackage("org.acme.Internal.Foo")).isFalse();
    assertThat(ThreadRoots.inInternalPackage("org.acme.internal")).isFalse();
    assertThat(ThreadRoots.inInternalPackage("")).isFalse();
  }

  /** The oracle: the regular expression the rule was first written with. */
  @Property(tries = 20_000)
  void sameAsTheRegularExpression(@ForAll("names") String name) {
    boolean expected = Pattern.compile("(^|\\.)(internal|shaded|shadow)\\.").matcher(name).find();
    assertThat(ThreadRoots.inInternalPackage(name)).as(name).isEqualTo(expected);
  }

  /** Names of the pieces the rule looks at, so that they meet often. */
  @Provide
  Arbitrary<String> names() {
    return Arbitraries.of(
            "internal", "shaded", "shadow", "ed", "x", "Foo", ".", "$", "in", "ternal.")
        .list()
        .ofMaxSize(8)
        .map(parts -> String.join("", parts));
  }
}
