package dev.vtscope.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

/**
 * Fails the test when its virtual threads pin their carriers beyond a budget, naming the code that
 * holds the carrier and the fix, as {@code vtscope analyze} would. JFR records the JVM while each
 * test method runs (not its {@code @BeforeEach} and {@code @AfterEach} methods).
 *
 * <p>On a class it applies to every test method; on a method it replaces the class's. With no
 * budget, any pinned event fails the test. Warm-up that happens once per JVM (the JVM loading a
 * class through the JDK's loaders, the JDK initialising one of its own classes) is never counted,
 * as {@code vtscope diff} never counts it.
 *
 * <p>A recording sees the whole JVM, so annotated tests run alone when JUnit runs tests in
 * parallel.
 */
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(NoPinningExtension.class)
@ResourceLock(value = Resources.GLOBAL, mode = ResourceAccessMode.READ_WRITE)
public @interface NoPinning {

  /** The most pinned events allowed; -1 (the default) checks no count. */
  long maxEvents() default -1;

  /** The most pinned time allowed in total, e.g. {@code 50ms}; empty checks no total. */
  String maxTotal() default "";

  /** The longest single pin allowed, e.g. {@code 5ms}; empty checks no single pin. */
  String maxPin() default "";

  /**
   * Pins to tolerate, as {@code vtscope check --allow} takes them: a package ({@code org.h2}), a
   * class, or {@code Class.method}. Their pins are not counted.
   */
  String[] allow() default {};

  /** Pins shorter than this are not recorded, e.g. {@code 1ms}; every pin by default. */
  String threshold() default "0ms";

  /** What a test does when this JVM cannot record with JFR. */
  JfrUnavailable jfrUnavailable() default JfrUnavailable.FAIL;

  /** What a test does when this JVM cannot record with JFR. */
  enum JfrUnavailable {
    /** Fails, saying why JFR is unavailable: a test that checks nothing must not pass. */
    FAIL,
    /** Is skipped (aborted), saying why. */
    SKIP
  }
}
