package dev.vtscope.advice;

import static dev.vtscope.testing.AnalysisBuilder.site;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.testing.AnalysisBuilder;
import dev.vtscope.testing.Words;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each rule on an analysis made by hand: the figures a finding rests on are chosen, so the
 * severity, the fix offered and the words can be checked exactly.
 */
class RulesOnHandBuiltAnalysesTest {

  private static final Advisor ADVISOR = Advisor.standard();

  private static Finding only(Analysis a, String id) {
    List<Finding> found =
        ADVISOR.advise(a).findings().stream().filter(f -> f.id().equals(id)).toList();
    assertThat(found).as("findings " + id).hasSize(1);
    return found.get(0);
  }

  private static AnalysisBuilder.SiteBuilder cache() {
    return site("com.example.Cache", "load")
        .synchronizedBlock(10, 14)
        .waitedAt("com.example.Db", "query")
        .calledFrom("com.example.Handler", "handle");
  }

  @Test
  void anApplicationMonitorOnJdk21GetsALockAndTheJdkUpgradeWithItsShare() {
    Analysis a =
        AnalysisBuilder.jdk(21)
            .recorded(Duration.ofSeconds(10))
            .pinned(cache().pins(50, Duration.ofMillis(20)))
            .pinned(
                site("com.example.Audit", "write")
                    .waitedAt("com.example.Disk", "sync")
                    .pins(10, Duration.ofMillis(25)))
            .build();

    Finding f = ADVISOR.advise(a).findings().get(0);
    assertThat(f.id()).isEqualTo("monitor-pinning");
    // 1 s of a capacity of 2 carriers x 10 s: 5%, between the medium (1%) and high (10%) shares
    assertThat(f.severity()).isEqualTo(Severity.MEDIUM);
    assertThat(f.carrierNanos()).isEqualTo(Duration.ofSeconds(1).toNanos());
    assertThat(Words.title(f))
        .isEqualTo(
            "com.example.Cache.load pins carriers: it holds a monitor while the virtual thread"
                + " blocks (synchronized block, lines 10-14)");
    assertThat(Words.explanation(f))
        .isEqualTo(
            "On JDK 21 a virtual thread that blocks while holding a monitor cannot unmount, so its"
                + " carrier stays blocked for the whole wait. Here 50 pins lasted 1 s in total"
                + " (80% of all pinned time), the longest 20 ms.");
    assertThat(Words.actions(f))
        .containsExactly(
            "Hold a java.util.concurrent.locks.ReentrantLock instead of the monitor in"
                + " com.example.Cache.load (lines 10-14), or move the blocking call in"
                + " com.example.Db.query(Db.java:42) out of the critical section.",
            "Upgrade to JDK 24 or later (JEP 491: blocking in synchronized unmounts; "
                + Knowledge.standard().jdk().monitorsStopPinningSource()
                + "): removes this site's 80% and every monitor pin, 100% of the recorded pinned"
                + " time.");
    assertThat(f.title().args()).containsEntry("culprit", "com.example.Cache.load");
    assertThat(f.explanation().args()).containsEntry("events", 50L);
  }

  /**
   * Pins close above the threshold suggest shorter ones were left out; pins below it mean the
   * threshold shown is not the one every recording had (a report of several shows the first's).
   */
  @Test
  void theThresholdFindingOnlyWhenTheShortestPinsAreAtOrAboveIt() {
    Analysis near =
        AnalysisBuilder.jdk(21)
            .pinnedThreshold(Duration.ofMillis(20))
            .pinned(cache().pins(5, Duration.ofMillis(22)))
            .build();
    assertThat(ADVISOR.advise(near).findings())
        .filteredOn(f -> f.id().equals("recording-threshold"))
        .singleElement()
        .satisfies(f -> assertThat(Words.explanation(f)).contains("22 ms").contains("20 ms"));
    Analysis below =
        AnalysisBuilder.jdk(21)
            .pinnedThreshold(Duration.ofMillis(20))
            .pinned(cache().pins(5, Duration.ofMillis(5)))
            .build();
    assertThat(ADVISOR.advise(below).findings())
        .extracting(Finding::id)
        .doesNotContain("recording-threshold");
  }

  @Test
  void theSameMonitorOnJdk25IsNoFindingAndTheRecordingIsHealthy() {
    Analysis a =
        AnalysisBuilder.jdk(25)
            .recorded(Duration.ofSeconds(10))
            .pinned(cache().kind(CulpritKind.NATIVE_METHOD).pins(1, Duration.ofMillis(1)))
            .build();
    List<Finding> findings = ADVISOR.advise(a).findings();
    assertThat(findings).extracting(Finding::id).doesNotContain("monitor-pinning");
    assertThat(findings.get(0).id()).isEqualTo("healthy");
    assertThat(Words.title(findings.get(0)))
        .startsWith("Healthy: no pinning that matters (1 pin, 1 ms in total, under 0.1% of")
        .endsWith(" in 10 s recorded on JDK 25");
  }

  @ParameterizedTest
  @CsvSource({
    // pinned time of 2 carriers x 10 s: the thresholds are 0.1%, 1% and 10% of that capacity
    "1, 10, INFO",
    "10, 10, LOW",
    "50, 10, MEDIUM",
    "100, 30, HIGH",
  })
  void severityFollowsTheShareOfCarrierCapacity(int events, int millis, Severity expected) {
    Analysis a =
        AnalysisBuilder.jdk(21)
            .recorded(Duration.ofSeconds(10))
            .pinned(cache().pins(events, Duration.ofMillis(millis)))
            .build();
    assertThat(only(a, "monitor-pinning").severity()).isEqualTo(expected);
  }

  @Test
  void aKnownLibraryOlderThanItsFixIsToldToUpgradeToTheFixedRelease() {
    Analysis a =
        AnalysisBuilder.jdk(21)
            .recorded(Duration.ofSeconds(10))
            .pinned(
                site("org.h2.engine.SessionRemote", "prepareCommand")
                    .library("com.h2database:h2", "2.1.214")
                    .waitedAt("org.h2.value.Transfer", "readInt")
                    .calledFrom("com.example.Repository", "find")
                    .pins(40, Duration.ofMillis(20)))
            .build();
    Finding f = only(a, "monitor-pinning");
    assertThat(Words.actions(f).get(0))
        .startsWith("Upgrade com.h2database:h2 from 2.1.214 to 2.2.222 or later: ")
        .contains(" Removes this site's 100% of the recorded pinned time. Until then: ");
    // the library's code is its maintainers': no advice to edit it
    assertThat(Words.actions(f)).noneMatch(action -> action.startsWith("Hold a"));
  }

  @Test
  void aLibraryWithoutAKnownFixGetsWhatAUserCanDoWithoutChangingIt() {
    Analysis a =
        AnalysisBuilder.jdk(21)
            .recorded(Duration.ofSeconds(10))
            .pinned(
                site("org.hsqldb.Session", "execute")
                    .library("org.hsqldb:hsqldb", "2.7.4")
                    .waitedAt("org.hsqldb.lib.CountUpDownLatch", "await")
                    .calledFrom("com.example.Repository", "update")
                    .pins(40, Duration.ofMillis(20)))
            .build();
    List<String> actions = Words.actions(only(a, "monitor-pinning"));
    assertThat(actions.get(0)).startsWith("Upgrade to JDK 24 or later");
    assertThat(actions)
        .anyMatch(action -> action.startsWith("vtscope knows of no release of org.hsqldb:hsqldb"))
        .anyMatch(
            action ->
                action.startsWith(
                    "Until then, make the calls into org.hsqldb:hsqldb from a small pool of"
                        + " platform threads"));
  }

  @Test
  void everyCarrierHeldIsStarvationNamingTheLargestHolder() {
    Analysis a =
        AnalysisBuilder.jdk(21)
            .recorded(Duration.ofSeconds(10))
            .pinned(cache().pins(200, Duration.ofMillis(20)))
            .carriersHeld(2, Duration.ofSeconds(2))
            .build();
    Finding f = only(a, "carrier-starvation");
    assertThat(f.severity()).isEqualTo(Severity.HIGH);
    assertThat(Words.title(f))
        .isEqualTo(
            "Every carrier was held for 2 s (20% of the recording): no other virtual thread"
                + " could run");
    assertThat(Words.actions(f).get(0))
        .isEqualTo(
            "Fix what holds the carriers, largest first: com.example.Cache.load; each has a finding"
                + " of its own in this report.");
  }

  @Test
  void objectWaitThatMadeTheSchedulerGrowIsCompensation() {
    Analysis a =
        AnalysisBuilder.jdk(21)
            .recorded(Duration.ofSeconds(10))
            .carriersStarted(12, 256)
            .monitorWait(
                site("com.example.Pool", "borrow")
                    .kind(CulpritKind.MONITOR_WAIT)
                    .pins(30, Duration.ofMillis(100)))
            .build();
    Finding f = only(a, "carrier-compensation");
    assertThat(Words.title(f))
        .isEqualTo(
            "Object.wait() in com.example.Pool.borrow made the scheduler start 12 carriers for a"
                + " parallelism of 2");
    assertThat(Words.explanation(f))
        .endsWith(
            "Here 30 waits lasted 3 s in total, and not one pinned event was recorded: this"
                + " stall is invisible to jdk.VirtualThreadPinned.");
    assertThat(Words.actions(f).get(0)).startsWith("Replace wait()/notify() in com.example.Pool");
  }

  @Test
  void aContendedLibraryMonitorWithoutAKnownFixGetsASemaphoreInTheCaller() {
    Analysis a =
        AnalysisBuilder.jdk(21)
            .recorded(Duration.ofSeconds(10))
            .monitorEnter(
                site("org.example.lib.Registry", "lookup")
                    .library("org.example:lib", "1.0")
                    .calledFrom("com.example.Handler", "handle")
                    .monitorClass("org.example.lib.Registry")
                    .pins(20, Duration.ofMillis(50)))
            .build();
    Finding f = only(a, "monitor-contention");
    assertThat(Words.explanation(f))
        .contains(
            "Here 20 monitor enters on org.example.lib.Registry held carriers for 1 s in total, the longest 50 ms.");
    assertThat(Words.actions(f).get(0))
        .isEqualTo(
            "The monitor is org.example:lib:1.0's (org.example.lib.Registry.lookup): in"
                + " com.example.Handler.handle(Handler.java:7), call it from fewer virtual threads"
                + " at once (a java.util.concurrent.Semaphore around the call: waiting for a permit"
                + " unmounts), or look for a release of it that replaced synchronized with"
                + " java.util.concurrent locks.");
  }
}
