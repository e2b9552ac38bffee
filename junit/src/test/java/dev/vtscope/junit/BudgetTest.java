package dev.vtscope.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * Budgets, allow-lists, thresholds and where a budget comes from, each against a scenario that pins
 * on the JDK running the tests (monitor pinning on JDK 21–23, a foreign-function upcall on 24+).
 */
class BudgetTest {

  @TempDir Path recordings;

  static class Limits {
    @Test
    @NoPinning(maxEvents = 1000)
    void withinEvents() throws Exception {
      Scenarios.pinsOnThisJdk();
    }

    @Test
    @NoPinning(maxTotal = "1ms")
    void overTotal() throws Exception {
      Scenarios.pinsOnThisJdk();
    }

    @Test
    @NoPinning(maxPin = "1ms")
    void overLongestPin() throws Exception {
      Scenarios.pinsOnThisJdk();
    }

    @Test
    @NoPinning(maxTotal = "1m", maxPin = "30s")
    void withinTimes() throws Exception {
      Scenarios.pinsOnThisJdk();
    }

    @Test
    @NoPinning(allow = "dev.vtscope.workloads")
    void allowedPackage() throws Exception {
      Scenarios.pinsOnThisJdk();
    }

    @Test
    @NoPinning(threshold = "1s")
    void pinsBelowTheThresholdAreNotRecorded() throws Exception {
      Scenarios.pinsOnThisJdk();
    }
  }

  @Test
  void eachLimitIsCheckedAndNamedWhenExceeded() {
    Map<String, TestExecutionResult> results = Kit.run(Limits.class, recordings);

    assertThat(results.get("withinEvents").getStatus()).isEqualTo(Status.SUCCESSFUL);
    assertThat(results.get("withinTimes").getStatus()).isEqualTo(Status.SUCCESSFUL);
    assertThat(results.get("allowedPackage").getStatus()).isEqualTo(Status.SUCCESSFUL);
    assertThat(results.get("pinsBelowTheThresholdAreNotRecorded").getStatus())
        .isEqualTo(Status.SUCCESSFUL);
    assertThat(Kit.failure(results.get("overTotal")))
        .containsPattern("Over budget: pinned total <= 1 ms \\(pinned total [\\d.]+ ms\\)\\.")
        .doesNotContain("Over budget: pinned events")
        .contains("1. " + Scenarios.holderClassOnThisJdk());
    assertThat(Kit.failure(results.get("overLongestPin")))
        .containsPattern("Over budget: longest pin <= 1 ms \\(longest pin [\\d.]+ ms\\)\\.")
        .doesNotContain("Over budget: pinned events")
        .contains("1. " + Scenarios.holderClassOnThisJdk());
  }

  /** A class's budget applies to its methods; a method's replaces it. */
  @NoPinning(maxEvents = 1000)
  static class ClassBudget {
    @Test
    void classBudgetApplies() throws Exception {
      Scenarios.pinsOnThisJdk();
    }

    @Test
    @NoPinning
    void methodBudgetReplacesIt() throws Exception {
      Scenarios.pinsOnThisJdk();
    }
  }

  @Test
  void aMethodsBudgetReplacesItsClasss() {
    Map<String, TestExecutionResult> results = Kit.run(ClassBudget.class, recordings);

    assertThat(results.get("classBudgetApplies").getStatus()).isEqualTo(Status.SUCCESSFUL);
    assertThat(Kit.failure(results.get("methodBudgetReplacesIt")))
        .containsPattern("Over budget: pinned events <= 0 \\(\\d+ pinned events\\)\\.");
  }

  /** A class's budget reaches its nested classes. */
  @NoPinning(maxEvents = 1000)
  static class Enclosing {
    @Nested
    class WithinTheClassBudget {
      @Test
      void pins() throws Exception {
        Scenarios.pinsOnThisJdk();
      }
    }

    @Nested
    @NoPinning
    class WithItsOwn {
      @Test
      void pinsToo() throws Exception {
        Scenarios.pinsOnThisJdk();
      }
    }
  }

  @Test
  void nestedClassesTakeTheEnclosingBudgetUnlessTheyHaveTheirOwn() {
    Map<String, TestExecutionResult> results = Kit.run(Enclosing.class, recordings);

    assertThat(results.get("pins").getStatus()).isEqualTo(Status.SUCCESSFUL);
    assertThat(Kit.failure(results.get("pinsToo")))
        .containsPattern("Over budget: pinned events <= 0 \\(\\d+ pinned events\\)\\.");
  }

  /** The extension registered in code, allowing the method that holds the carrier. */
  static class AllowedHolderInCode {
    @RegisterExtension
    static NoPinningExtension noPinning =
        NoPinningExtension.noPinning().allow(Scenarios.holderMethodOnThisJdk());

    @Test
    void pins() throws Exception {
      Scenarios.pinsOnThisJdk();
    }
  }

  /** The same, allowing another method of the holder's class: its pins still count. */
  static class OtherMethodAllowedInCode {
    @RegisterExtension
    static NoPinningExtension noPinning =
        NoPinningExtension.noPinning()
            .allow(Scenarios.holderClassOnThisJdk() + ".run")
            .maxTotal(Duration.ofMillis(1));

    @Test
    void pins() throws Exception {
      Scenarios.pinsOnThisJdk();
    }
  }

  @Test
  void registeredInCodeTheAllowListMatchesMethods() {
    assertThat(Kit.run(AllowedHolderInCode.class, recordings).get("pins").getStatus())
        .isEqualTo(Status.SUCCESSFUL);
    assertThat(Kit.failure(Kit.run(OtherMethodAllowedInCode.class, recordings).get("pins")))
        .contains("Over budget: pinned total <= 1 ms")
        .contains("1. " + Scenarios.holderMethodOnThisJdk() + " holds the carrier");
  }

  /** A strict budget in code; a nested class and a method say otherwise with @NoPinning. */
  static class InCodeWithAnnotationsInside {
    @RegisterExtension static NoPinningExtension noPinning = NoPinningExtension.noPinning();

    @Test
    void strict() throws Exception {
      Scenarios.pinsOnThisJdk();
    }

    @Test
    @NoPinning(maxEvents = 1000)
    void annotatedMethod() throws Exception {
      Scenarios.pinsOnThisJdk();
    }

    @Nested
    @NoPinning(allow = "dev.vtscope.workloads")
    class AnnotatedNested {
      @Test
      void allowed() throws Exception {
        Scenarios.pinsOnThisJdk();
      }
    }
  }

  @Test
  void anAnnotationNearerTheTestWinsOverABudgetInCode() {
    Map<String, TestExecutionResult> results =
        Kit.run(InCodeWithAnnotationsInside.class, recordings);

    assertThat(Kit.failure(results.get("strict")))
        .containsPattern("Over budget: pinned events <= 0 \\(\\d+ pinned events\\)\\.");
    assertThat(results.get("annotatedMethod").getStatus()).isEqualTo(Status.SUCCESSFUL);
    assertThat(results.get("allowed").getStatus()).isEqualTo(Status.SUCCESSFUL);
  }

  /** Mistyped budgets: the test body must not run. */
  static class BadConfiguration {
    static final AtomicInteger BODIES_RUN = new AtomicInteger();

    @Test
    @NoPinning(maxTotal = "soon")
    void durationWithoutUnit() {
      BODIES_RUN.incrementAndGet();
    }

    @Test
    @NoPinning(maxEvents = -2)
    void negativeCount() {
      BODIES_RUN.incrementAndGet();
    }
  }

  @Test
  void badConfigurationFailsTheTestSayingWhatTheAttributeTakes() {
    Map<String, TestExecutionResult> results = Kit.run(BadConfiguration.class, recordings);

    assertThat(Kit.failure(results.get("durationWithoutUnit")))
        .isEqualTo(
            "@NoPinning(maxTotal = \"soon\") on "
                + BadConfiguration.class.getName()
                + ".durationWithoutUnit(): takes a duration like 500us, 20ms or 1.5s");
    assertThat(Kit.failure(results.get("negativeCount")))
        .isEqualTo(
            "@NoPinning(maxEvents = -2) on "
                + BadConfiguration.class.getName()
                + ".negativeCount(): takes 0 or more (-1: no limit on the count)");
    assertThat(BadConfiguration.BODIES_RUN).hasValue(0);
    assertThat(recordings).isEmptyDirectory();
  }

  @Test
  void badBudgetsInCodeAreRefusedWhenTheExtensionIsBuilt() {
    assertThatThrownBy(() -> NoPinningExtension.noPinning().maxEvents(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxEvents takes 0 or more, not -1");
    assertThatThrownBy(() -> NoPinningExtension.noPinning().maxPin(Duration.ofMillis(-5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxPin takes a duration of 0 or more, not PT-0.005S");
  }
}
