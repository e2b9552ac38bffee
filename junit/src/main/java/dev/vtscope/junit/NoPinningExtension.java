package dev.vtscope.junit;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Records each test method with JFR and fails it when its virtual threads pinned carriers beyond
 * the budget. {@link NoPinning} registers it and states the budget; to register it in code:
 *
 * <pre>{@code
 * @RegisterExtension
 * static NoPinningExtension noPinning =
 *     NoPinningExtension.noPinning().maxTotal(Duration.ofMillis(50)).allow("org.h2");
 * }</pre>
 *
 * <p>Recordings of failed tests are kept, for {@code vtscope analyze}, in the folder the JUnit
 * configuration parameter (or system property) {@value #RECORDINGS_PARAMETER} names, by default
 * {@code vtscope-junit} in the temporary folder; those of passed tests are deleted.
 */
public final class NoPinningExtension
    implements BeforeTestExecutionCallback, AfterTestExecutionCallback {

  /** The configuration parameter naming the folder where failed tests' recordings are kept. */
  public static final String RECORDINGS_PARAMETER = "vtscope.junit.recordings";

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(NoPinningExtension.class);

  /** The budget given in code, or null to read it from {@link NoPinning}. */
  private final PinningBudget budget;

  /** The extension as {@link NoPinning} registers it: the budget comes from the annotation. */
  public NoPinningExtension() {
    this(null);
  }

  private NoPinningExtension(PinningBudget budget) {
    this.budget = budget;
  }

  /** No pinned event allowed, every pin recorded; the methods below change that. */
  public static NoPinningExtension noPinning() {
    return new NoPinningExtension(PinningBudget.NONE);
  }

  /** At most {@code events} pinned events. */
  public NoPinningExtension maxEvents(long events) {
    return new NoPinningExtension(inCode().withMaxEvents(events));
  }

  /** At most {@code total} pinned time in all. */
  public NoPinningExtension maxTotal(Duration total) {
    return new NoPinningExtension(inCode().withMaxTotal(total));
  }

  /** No single pin longer than {@code pin}. */
  public NoPinningExtension maxPin(Duration pin) {
    return new NoPinningExtension(inCode().withMaxPin(pin));
  }

  /**
   * Pins not to count, as {@code vtscope check --allow} takes them: packages, classes, or {@code
   * Class.method}.
   */
  public NoPinningExtension allow(String... entries) {
    return new NoPinningExtension(inCode().withAllowed(List.of(entries)));
  }

  /** Records only pins of {@code threshold} or longer (every pin by default). */
  public NoPinningExtension threshold(Duration threshold) {
    return new NoPinningExtension(inCode().withThreshold(threshold));
  }

  /** Skips (aborts) tests, saying why, when this JVM cannot record; by default they fail. */
  public NoPinningExtension skipWhenJfrUnavailable() {
    return new NoPinningExtension(inCode().withJfrUnavailable(NoPinning.JfrUnavailable.SKIP));
  }

  private PinningBudget inCode() {
    return budget == null ? PinningBudget.NONE : budget;
  }

  @Override
  public void beforeTestExecution(ExtensionContext context) throws IOException {
    Optional<PinningBudget> annotated = fromAnnotations(context);
    if (budget != null && annotated.isPresent()) {
      // @NoPinning on the test, its class or an enclosing class registers an extension of its
      // own, which checks this test with the annotation's budget: the nearer word wins
      return;
    }
    PinningBudget b = budget != null ? budget : annotated.orElse(PinningBudget.NONE);
    Optional<String> unavailable = jfrUnavailable();
    if (unavailable.isPresent()) {
      String message =
          "vtscope: cannot check this test for pinning: "
              + unavailable.get()
              + ". Run the tests on a JDK with JFR (its jdk.jfr module, without -XX:-FlightRecorder)"
              + (b.jfrUnavailable() == NoPinning.JfrUnavailable.SKIP
                  ? "."
                  : ", or let such JVMs skip these tests: @NoPinning(jfrUnavailable = SKIP), or"
                      + " skipWhenJfrUnavailable() in code.");
      throw b.jfrUnavailable() == NoPinning.JfrUnavailable.SKIP
          ? new TestAbortedException(message)
          : new IllegalStateException(message);
    }
    Path folder = recordingsFolder(context);
    Files.createDirectories(folder);
    Path file = Files.createTempFile(folder, fileName(context), ".jfr");
    InProcessRecording recording =
        InProcessRecording.start(file, Duration.ofNanos(b.thresholdNanos()));
    context.getStore(NAMESPACE).put(Running.class, new Running(recording, file, b));
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    Running running = context.getStore(NAMESPACE).remove(Running.class, Running.class);
    if (running == null) {
      return;
    }
    Path file;
    try {
      file = running.recording().stop();
    } finally {
      running.recording().close();
    }
    PinningVerdict verdict = PinningVerdict.of(file, running.budget(), classPath(context));
    if (verdict.passed()) {
      InProcessRecording.delete(file);
      return;
    }
    throw new AssertionFailedError("vtscope: " + PinningFailureMessage.of(verdict, file));
  }

  /** The method's {@link NoPinning}, else its class's or an enclosing class's, if any. */
  private static Optional<PinningBudget> fromAnnotations(ExtensionContext context) {
    Optional<NoPinning> onMethod =
        context.getTestMethod().flatMap(m -> AnnotationSupport.findAnnotation(m, NoPinning.class));
    if (onMethod.isPresent()) {
      return Optional.of(PinningBudget.of(onMethod.get(), name(context.getRequiredTestMethod())));
    }
    for (Class<?> c = context.getRequiredTestClass(); c != null; c = c.getEnclosingClass()) {
      Optional<NoPinning> onClass = AnnotationSupport.findAnnotation(c, NoPinning.class);
      if (onClass.isPresent()) {
        return Optional.of(PinningBudget.of(onClass.get(), c.getName()));
      }
    }
    return Optional.empty();
  }

  private static String name(Method method) {
    return method.getDeclaringClass().getName() + "." + method.getName() + "()";
  }

  /** Why this JVM cannot record, or empty when it can. */
  static Optional<String> jfrUnavailable() {
    // Checked before any class of jdk.jfr is touched: without the module they do not load.
    if (ModuleLayer.boot().findModule("jdk.jfr").isEmpty()) {
      return Optional.of("this JVM has no jdk.jfr module (a runtime image made without it)");
    }
    return InProcessRecording.turnedOff();
  }

  private static Path recordingsFolder(ExtensionContext context) {
    return context
        .getConfigurationParameter(RECORDINGS_PARAMETER)
        .filter(p -> !p.isBlank())
        .map(Path::of)
        .orElseGet(() -> Path.of(System.getProperty("java.io.tmpdir"), "vtscope-junit"));
  }

  /** {@code TestClass.method-}, safe as a file name. */
  private static String fileName(ExtensionContext context) {
    String name =
        context.getRequiredTestClass().getSimpleName()
            + context.getTestMethod().map(m -> "." + m.getName()).orElse("")
            + "-";
    return name.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  /** Where the test's classes were loaded from: searched for their bytes before the JVM's path. */
  private static List<Path> classPath(ExtensionContext context) {
    CodeSource source = context.getRequiredTestClass().getProtectionDomain().getCodeSource();
    if (source == null || source.getLocation() == null) {
      return List.of();
    }
    try {
      Path path = Path.of(source.getLocation().toURI());
      return Files.exists(path) ? List.of(path) : List.of();
    } catch (URISyntaxException | IllegalArgumentException e) {
      return List.of();
    }
  }

  /** A test's recording while it runs; closed by JUnit if the test never reaches its end. */
  private record Running(InProcessRecording recording, Path file, PinningBudget budget)
      implements AutoCloseable {

    @Override
    public void close() {
      recording.close();
      InProcessRecording.delete(file);
    }
  }
}
