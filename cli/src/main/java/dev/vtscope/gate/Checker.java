package dev.vtscope.gate;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Finding;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.DumpAnalysis;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.Note;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import java.util.ArrayList;
import java.util.List;

/** Applies a {@link CheckPolicy} to an analysis and its advice. */
public final class Checker {

  private Checker() {}

  public static CheckResult check(Analysis a, Advice advice, CheckPolicy policy) {
    List<CheckItem> items = new ArrayList<>();
    // each recording by its own settings: one without pinned events adds nothing to the budgets
    // below, which would pass on what was not measured
    List<String> withoutPinning = a.recordingsWithoutPinning();
    if (!withoutPinning.isEmpty()) {
      items.add(
          new CheckItem(
              "recording",
              Message.of(a.several() ? "check.pinned-recorded.each" : "check.pinned-recorded"),
              false,
              a.several()
                  ? Message.of("check.pinned-recorded.off.in", "recordings", withoutPinning)
                  : Message.of("check.pinned-recorded.off"),
              null));
    }
    List<Message> allowed = new ArrayList<>();
    long total = 0;
    long events = 0;
    List<Site> counted = new ArrayList<>();
    for (Site site : a.pinned().sites()) {
      Culprit c = site.attribution() == null ? null : site.attribution().culprit();
      String entry = c == null ? null : policy.allow().match(c.className(), c.method());
      if (entry != null) {
        allowed.add(
            Message.of(
                "check.allowed.site",
                "site",
                c.qualifiedMethod(),
                "total",
                Message.nanos(site.durations().totalNanos()),
                "events",
                site.durations().count(),
                "entry",
                entry));
        continue;
      }
      counted.add(site);
      total += site.durations().totalNanos();
      events += site.durations().count();
    }
    if (policy.maxPinnedTotalNanos() != null) {
      long max = policy.maxPinnedTotalNanos();
      items.add(
          new CheckItem(
              "budget",
              Message.of("check.pinned-total", "max", Message.nanos(max)),
              total <= max,
              Message.of("check.pinned-total.result", "total", Message.nanos(total)),
              null));
    }
    if (policy.maxPinnedEvents() != null) {
      long max = policy.maxPinnedEvents();
      items.add(
          new CheckItem(
              "budget",
              Message.of("check.pinned-events", "max", max),
              events <= max,
              Message.of("check.pinned-events.result", "events", events),
              null));
    }
    if (policy.maxSiteTotalNanos() != null) {
      long max = policy.maxSiteTotalNanos();
      boolean any = false;
      for (Site site : counted) {
        if (site.durations().totalNanos() > max) {
          any = true;
          Culprit c = site.attribution() == null ? null : site.attribution().culprit();
          items.add(
              new CheckItem(
                  "site",
                  Message.of(
                      "check.site-total.site", "max", Message.nanos(max), "site", name(site, c)),
                  false,
                  Message.of(
                      "check.site-total.result",
                      "total",
                      Message.nanos(site.durations().totalNanos()),
                      "events",
                      site.durations().count()),
                  null));
        }
      }
      if (!any) {
        items.add(
            new CheckItem(
                "site",
                Message.of("check.site-total", "max", Message.nanos(max)),
                true,
                counted.isEmpty()
                    ? Message.of("check.site-total.none")
                    : Message.of(
                        "check.site-total.largest",
                        "largest",
                        Message.nanos(
                            counted.stream()
                                .mapToLong(s -> s.durations().totalNanos())
                                .max()
                                .orElse(0))),
                null));
      }
    }
    findings(advice, policy, items, allowed);
    List<Message> warnings =
        a.notes().stream()
            .filter(n -> n.severity() == Note.Severity.WARNING)
            .map(Note::message)
            .toList();
    return new CheckResult(items, allowed, warnings);
  }

  /**
   * Thread dumps checked: their findings against {@link CheckPolicy#failOn()} and the allow-list,
   * as a recording's are. A dump has no pinned time or events, so it has no budget to keep; {@code
   * vtscope check} refuses budgets for dumps. Whatever rules {@code DumpAdvisor} has, a finding
   * fails the check by its severity alone.
   */
  public static CheckResult checkDumps(DumpAnalysis a, Advice advice, CheckPolicy policy) {
    List<CheckItem> items = new ArrayList<>();
    List<Message> allowed = new ArrayList<>();
    findings(advice, policy, items, allowed);
    List<Message> warnings = new ArrayList<>();
    for (int i = 0; i < a.names().size(); i++) {
      if (!a.series().dumps().get(i).dump().complete()) {
        // a dump cut short may have lost the threads a finding rests on
        warnings.add(Message.of("check.dump-read-in-part", "dump", a.names().get(i)));
      }
    }
    return new CheckResult(items, allowed, warnings);
  }

  /** A failed item per finding at or above the policy's severity, or one passed item for none. */
  private static void findings(
      Advice advice, CheckPolicy policy, List<CheckItem> items, List<Message> allowed) {
    if (policy.failOn() != null) {
      boolean any = false;
      int allowedFindings = 0;
      for (Finding f : advice.findings()) {
        if (f.severity().compareTo(policy.failOn()) < 0 || f.healthy()) {
          continue; // "healthy" is the verdict of no problem: --fail-on info must not fail on it
        }
        String entry = allowedBy(f, policy.allow());
        if (entry != null) {
          allowedFindings++;
          allowed.add(
              Message.of(
                  "check.allowed.finding",
                  "id",
                  f.id(),
                  "severity",
                  f.severity().label(),
                  "title",
                  f.title(),
                  "entry",
                  entry));
          continue;
        }
        any = true;
        items.add(
            new CheckItem(
                "finding",
                Message.of("check.finding", "id", f.id(), "title", f.title()),
                false,
                Message.of(
                    "check.finding.result",
                    "severity",
                    f.severity().label(),
                    "failOn",
                    policy.failOn().label()),
                f));
      }
      if (!any) {
        items.add(
            new CheckItem(
                "finding",
                Message.of("check.no-finding", "failOn", policy.failOn().label()),
                true,
                allowedFindings == 0
                    ? Message.of(
                        "check.no-finding.result",
                        "findings",
                        advice.findings().size(),
                        "failOn",
                        policy.failOn().label())
                    : Message.of(
                        "check.no-finding.result.allowed",
                        "findings",
                        advice.findings().size(),
                        "failOn",
                        policy.failOn().label(),
                        "allowed",
                        allowedFindings),
                null));
      }
    }
  }

  /**
   * A finding is allowed when every method it blames is (by the method, its class or its package),
   * or, for one that blames whole classes, every class; findings that blame none never are.
   */
  private static String allowedBy(Finding f, AllowList allow) {
    List<String> blamed = f.methods().isEmpty() ? f.classes() : f.methods();
    if (blamed.isEmpty()) {
      return null;
    }
    String first = null;
    for (String name : blamed) {
      String entry;
      if (f.methods().isEmpty()) {
        entry = allow.match(name, null);
      } else {
        int dot = name.lastIndexOf('.');
        entry = allow.match(name.substring(0, dot), name.substring(dot + 1));
      }
      if (entry == null) {
        return null;
      }
      first = first == null ? entry : first;
    }
    return first;
  }

  private static String name(Site site, Culprit c) {
    if (c != null) {
      return c.qualifiedMethod();
    }
    return site.topApplicationFrame() != null
        ? site.topApplicationFrame().qualifiedMethod()
        : site.key();
  }
}
