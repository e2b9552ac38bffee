package dev.vtscope.gate;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Finding;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import java.util.ArrayList;
import java.util.List;

/** Applies a {@link CheckPolicy} to an analysis and its advice. */
public final class Checker {

  private Checker() {}

  public static CheckResult check(Analysis a, Advice advice, CheckPolicy policy) {
    List<CheckItem> items = new ArrayList<>();
    List<String> allowed = new ArrayList<>();
    long total = 0;
    long events = 0;
    List<Site> counted = new ArrayList<>();
    for (Site site : a.pinned().sites()) {
      Culprit c = site.attribution() == null ? null : site.attribution().culprit();
      String entry = c == null ? null : policy.allow().match(c.className(), c.method());
      if (entry != null) {
        allowed.add(
            "site "
                + c.qualifiedMethod()
                + ": "
                + HumanDurations.format(site.durations().totalNanos())
                + " in "
                + site.durations().count()
                + " events (allowed by "
                + entry
                + ")");
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
              "pinned total <= " + HumanDurations.format(max),
              total <= max,
              "pinned total " + HumanDurations.format(total),
              null));
    }
    if (policy.maxPinnedEvents() != null) {
      long max = policy.maxPinnedEvents();
      items.add(
          new CheckItem(
              "budget", "pinned events <= " + max, events <= max, events + " pinned events", null));
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
                  "site total <= " + HumanDurations.format(max) + ": " + name(site, c),
                  false,
                  HumanDurations.format(site.durations().totalNanos())
                      + " in "
                      + site.durations().count()
                      + " events",
                  null));
        }
      }
      if (!any) {
        items.add(
            new CheckItem(
                "site",
                "site total <= " + HumanDurations.format(max),
                true,
                counted.isEmpty()
                    ? "no pinned site"
                    : "largest site "
                        + HumanDurations.format(
                            counted.stream()
                                .mapToLong(s -> s.durations().totalNanos())
                                .max()
                                .orElse(0)),
                null));
      }
    }
    if (policy.failOn() != null) {
      boolean any = false;
      for (Finding f : advice.findings()) {
        if (f.severity().compareTo(policy.failOn()) < 0) {
          continue;
        }
        String entry = allowedBy(f, policy.allow());
        if (entry != null) {
          allowed.add(
              "finding "
                  + f.id()
                  + " ["
                  + f.severity().label()
                  + "]: "
                  + f.title()
                  + " (allowed by "
                  + entry
                  + ")");
          continue;
        }
        any = true;
        items.add(
            new CheckItem(
                "finding",
                f.id() + ": " + f.title(),
                false,
                f.severity().label() + " finding (fails at " + policy.failOn().label() + ")",
                f.explanation() + "\n" + String.join("\n", f.actions())));
      }
      if (!any) {
        items.add(
            new CheckItem(
                "finding",
                "no finding at or above " + policy.failOn().label(),
                true,
                advice.findings().size() + " findings, none at or above " + policy.failOn().label(),
                null));
      }
    }
    return new CheckResult(items, allowed);
  }

  /** A finding is allowed when every class it blames is; findings that blame none never are. */
  private static String allowedBy(Finding f, AllowList allow) {
    if (f.classes().isEmpty()) {
      return null;
    }
    String first = null;
    for (String className : f.classes()) {
      String entry = allow.match(className, null);
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
