package dev.vtscope.junit;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Advisor;
import dev.vtscope.advice.Finding;
import dev.vtscope.advice.Knowledge;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.AnalysisOptions;
import dev.vtscope.analysis.Analyzer;
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.RecordingProblemException;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.gate.AllowList;
import dev.vtscope.gate.CheckItem;
import dev.vtscope.gate.CheckPolicy;
import dev.vtscope.gate.CheckResult;
import dev.vtscope.gate.Checker;
import dev.vtscope.recording.ReaderKind;
import dev.vtscope.recording.RecordingInput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A test's recording held to its budget: analysed, advised and checked as {@code vtscope analyze}
 * and {@code vtscope check} do.
 *
 * @param analysis the recording's analysis, sites grouped by culprit
 * @param advice the findings, most severe first
 * @param budget what the test may pin
 * @param checks each limit checked, failures included
 * @param counted the pinned sites the budget counts, most pinned time first
 * @param allowed the pinned sites the budget's allow-list leaves out
 * @param warmUp the pinned sites left out as warm-up, once per JVM
 */
record PinningVerdict(
    Analysis analysis,
    Advice advice,
    PinningBudget budget,
    List<CheckItem> checks,
    List<Site> counted,
    List<Site> allowed,
    List<Site> warmUp) {

  PinningVerdict {
    checks = List.copyOf(checks);
    counted = List.copyOf(counted);
    allowed = List.copyOf(allowed);
    warmUp = List.copyOf(warmUp);
  }

  /** Whether every limit held. */
  boolean passed() {
    return checks.stream().allMatch(CheckItem::passed);
  }

  /** The limits that did not hold. */
  List<CheckItem> failures() {
    return checks.stream().filter(c -> !c.passed()).toList();
  }

  /** The findings that blame {@code site}'s holder or the frame that called into it, ranked. */
  List<Finding> findingsFor(Site site) {
    Culprit c = culprit(site);
    if (c == null) {
      return List.of();
    }
    Set<String> blamed = new HashSet<>();
    blamed.add(c.className());
    if (site.attribution().calledFrom() != null) {
      blamed.add(site.attribution().calledFrom().className());
    }
    return advice.findings().stream()
        .filter(f -> f.classes().stream().anyMatch(blamed::contains))
        .toList();
  }

  /**
   * Reads, analyses and checks {@code recording}.
   *
   * @param classPath folders and jars to find the test's classes in, before the recording's own
   *     {@code java.class.path}
   * @throws IllegalStateException when the recording cannot be read
   */
  static PinningVerdict of(Path recording, PinningBudget budget, List<Path> classPath) {
    Analysis analysis;
    try {
      analysis =
          new Analyzer(
                  ReaderKind.VTSCOPE.create(),
                  new AnalysisOptions(
                      GroupBy.CULPRIT,
                      classPath,
                      List.of(),
                      List::of,
                      Knowledge.standard().jdk().releases()))
              .analyze(
                  List.of(new RecordingInput(recording.toString(), List.of(recording), false)));
    } catch (RecordingProblemException e) {
      throw new IllegalStateException(
          "vtscope cannot read the test's recording: " + e.getMessage(), e);
    }
    Advice advice = Advisor.standard().advise(analysis);
    return check(analysis, advice, budget);
  }

  static PinningVerdict check(Analysis analysis, Advice advice, PinningBudget budget) {
    List<Site> warmUp = new ArrayList<>();
    Set<String> otherHolders = new HashSet<>();
    for (Site site : analysis.pinned().sites()) {
      Culprit c = culprit(site);
      if (c != null && c.isWarmUp(site.stack().frames())) {
        warmUp.add(site);
      } else if (c != null) {
        otherHolders.add(c.qualifiedMethod());
      }
    }
    // Warm-up is left out through the allow-list, so that Checker counts what is left: by method,
    // unless the same method also holds carriers for another reason.
    List<String> entries = new ArrayList<>(budget.allow().entries());
    for (Site site : List.copyOf(warmUp)) {
      String method = culprit(site).qualifiedMethod();
      if (otherHolders.contains(method)) {
        warmUp.remove(site);
      } else if (!entries.contains(method)) {
        entries.add(method);
      }
    }
    AllowList allow = new AllowList(entries);

    List<Site> counted = new ArrayList<>();
    List<Site> allowed = new ArrayList<>();
    for (Site site : analysis.pinned().sites()) {
      Culprit c = culprit(site);
      if (warmUp.contains(site)) {
        continue;
      }
      if (c != null && budget.allow().match(c.className(), c.method()) != null) {
        allowed.add(site);
      } else {
        counted.add(site);
      }
    }

    CheckResult result =
        Checker.check(
            analysis,
            advice,
            new CheckPolicy(budget.maxTotalNanos(), budget.eventLimit(), null, null, allow));
    List<CheckItem> checks = new ArrayList<>(result.items());
    if (budget.maxPinNanos() != null) {
      long longest = counted.stream().mapToLong(s -> s.durations().maxNanos()).max().orElse(0);
      checks.add(
          new CheckItem(
              "budget",
              Message.of("check.longest-pin", "max", Message.nanos(budget.maxPinNanos())),
              longest <= budget.maxPinNanos(),
              counted.isEmpty()
                  ? Message.of("check.longest-pin.none")
                  : Message.of("check.longest-pin.result", "longest", Message.nanos(longest)),
              null));
    }
    return new PinningVerdict(analysis, advice, budget, checks, counted, allowed, warmUp);
  }

  static Culprit culprit(Site site) {
    return site.attribution() == null ? null : site.attribution().culprit();
  }
}
