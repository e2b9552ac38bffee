package dev.vtscope.report;

import dev.vtscope.advice.Finding;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.LiveSnapshot;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Culprit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The text of {@code vtscope watch}: a screen redrawn every interval on a terminal, or one line per
 * interval (and one per new finding) for a pipe or a file. It only formats a {@link LiveSnapshot}
 * and the findings of its analysis.
 */
public final class WatchView {

  private static final Wording WORDING = Wording.terminal();

  private final int width;
  private final int top;

  /**
   * @param width the columns a line may take (0: any)
   * @param top how many sites the screen shows
   */
  public WatchView(int width, int top) {
    this.width = width;
    this.top = top;
  }

  /**
   * The lines for a pipe: one for the interval, then one per finding not seen before, and one per
   * finding whose severity changed.
   *
   * @param findings the current findings, most severe first
   * @param newIds the ids of findings that appeared in the last interval
   * @param was of the findings whose severity changed in the last interval, the one before, by id
   * @param elapsedNanos how long watching has gone on
   */
  public List<String> lines(
      LiveSnapshot s,
      List<Finding> findings,
      Set<String> newIds,
      Map<String, Severity> was,
      long elapsedNanos) {
    List<String> lines = new ArrayList<>();
    String at = String.format(Locale.ROOT, "%6ds", elapsedNanos / 1_000_000_000L);
    StringBuilder line = new StringBuilder(at);
    line.append("  pinned ")
        .append(s.pinnedInInterval())
        .append(" (")
        .append(HumanDurations.format(s.pinnedNanosInInterval()))
        .append("), in all ")
        .append(s.analysis().pinned().durations().count())
        .append(" (")
        .append(HumanDurations.format(s.analysis().pinned().durations().totalNanos()))
        .append(")  held ")
        .append(ofParallelism(s.carriersHeldInInterval(), s))
        .append("  rejected ")
        .append(s.submitFailuresInInterval())
        .append(" (")
        .append(s.analysis().submitFailed().events())
        .append(')');
    if (s.pinnedNow() != null) {
      line.append("  pinned now ").append(ofParallelism(s.carriersPinnedNow(), s));
      if (!s.pinnedNow().isEmpty()) {
        line.append(" [").append(pinnedNowByHolder(s)).append(']');
      }
    }
    String dumpAge = dumpAge(s);
    if (dumpAge != null) {
      line.append(" (").append(dumpAge).append(')');
    }
    if (s.scheduler() != null) {
      line.append("  mounted ")
          .append(s.scheduler().mounted())
          .append('/')
          .append(s.scheduler().parallelism())
          .append(" queued ")
          .append(s.scheduler().queued());
    }
    s.sites().stream()
        .filter(a -> a.eventsInInterval() > 0)
        .findFirst()
        .ifPresent(
            a ->
                line.append("  top ")
                    .append(holder(a.site()))
                    .append(' ')
                    .append(a.eventsInInterval())
                    .append(" / ")
                    .append(HumanDurations.format(a.nanosInInterval())));
    lines.add(line.toString());
    for (Finding f : findings) {
      if (newIds.contains(f.id())) {
        lines.add(at + "  new finding [" + f.severity().label() + "] " + WORDING.title(f));
      } else if (was.containsKey(f.id())) {
        lines.add(
            at
                + "  finding now ["
                + f.severity().label()
                + "], was ["
                + was.get(f.id()).label()
                + "] "
                + WORDING.title(f));
      }
    }
    return lines;
  }

  /**
   * The screen for a terminal.
   *
   * @param title who is watched: pid, JDK, main class
   * @param findings the current findings, most severe first
   * @param newIds the ids of findings that appeared in the last interval
   * @param was of the findings whose severity changed in the last interval, the one before, by id
   */
  public List<String> screen(
      String title,
      LiveSnapshot s,
      List<Finding> findings,
      Set<String> newIds,
      Map<String, Severity> was,
      long elapsedNanos,
      long intervalNanos) {
    List<String> out = new ArrayList<>();
    String last = "last " + HumanDurations.format(intervalNanos);
    out.add(
        fit(
            "vtscope watch  ·  q quits  ·  "
                + HumanDurations.format(elapsedNanos - elapsedNanos % 1_000_000_000L)
                + ", every "
                + HumanDurations.format(intervalNanos)
                + "  ·  "
                + Escaping.terminal(title)));
    out.add("");
    out.add(
        fit(
            String.format(
                Locale.ROOT,
                "carriers  %s held at once in the %s; peak %d since watching began",
                s.parallelism() > 0
                    ? s.carriersHeldInInterval() + " of " + s.parallelism()
                    : s.carriersHeldInInterval() + " (parallelism unknown)",
                last,
                s.analysis().carriers() == null ? 0 : s.analysis().carriers().peak())));
    out.add(
        fit(
            String.format(
                Locale.ROOT,
                "pinned    %d events, %s in the %s; %d, %s in all",
                s.pinnedInInterval(),
                HumanDurations.format(s.pinnedNanosInInterval()),
                last,
                s.analysis().pinned().durations().count(),
                HumanDurations.format(s.analysis().pinned().durations().totalNanos()))));
    out.add(
        fit(
            String.format(
                Locale.ROOT,
                "rejected  %d tasks in the %s; %d in all",
                s.submitFailuresInInterval(),
                last,
                s.analysis().submitFailed().events())));
    if (s.scheduler() != null) {
      out.add(
          fit(
              String.format(
                  Locale.ROOT,
                  "scheduler %d of %d carriers run virtual threads now, %d virtual threads queued"
                      + " for one, %d carriers in the pool",
                  s.scheduler().mounted(),
                  s.scheduler().parallelism(),
                  s.scheduler().queued(),
                  s.scheduler().poolSize())));
    }
    String dumpAge = dumpAge(s);
    if (dumpAge != null) {
      out.add(fit("dump      " + dumpAge));
    }
    if (s.pinnedNow() != null) {
      out.add(
          fit(
              String.format(
                  Locale.ROOT,
                  "pinned now %s carriers held by virtual threads blocked while pinned (from a"
                      + " thread dump: a pin writes its event when it ends)",
                  s.parallelism() > 0
                      ? s.carriersPinnedNow() + " of " + s.parallelism()
                      : s.carriersPinnedNow() + " (parallelism unknown)")));
      int listed = 0;
      for (PinnedNow p : s.pinnedNow()) {
        if (listed++ == top) {
          out.add("          … " + (s.pinnedNow().size() - top) + " more");
          break;
        }
        out.add(
            fit(
                String.format(
                    Locale.ROOT,
                    "          %-24s held by %-44s %-20s%s",
                    cut(threadName(p), 24),
                    cut(holder(p.attribution()), 44),
                    cut(kindName(p.attribution()), 20),
                    p.carrier() >= 0 ? " carrier #" + p.carrier() : "")));
      }
    }
    out.add("");
    out.add(
        fit(
            String.format(
                Locale.ROOT, " #  %-44s %-20s %18s %18s", "held by", "kind", last, "in all")));
    int shown = 0;
    for (LiveSnapshot.SiteActivity a : s.sites()) {
      if (shown == top) {
        break;
      }
      shown++;
      out.add(
          fit(
              String.format(
                  Locale.ROOT,
                  "%2d  %-44s %-20s %18s %18s",
                  shown,
                  cut(holder(a.site()), 44),
                  cut(kind(a), 20),
                  a.eventsInInterval() + "  " + HumanDurations.format(a.nanosInInterval()),
                  a.site().durations().count()
                      + "  "
                      + HumanDurations.format(a.site().durations().totalNanos()))));
    }
    if (shown == 0) {
      out.add("    no carrier held by a pin or a monitor enter yet");
    }
    out.add("");
    out.add("findings (* new, ~ of another severity in the " + last + ")");
    for (Finding f : findings) {
      out.add(
          fit(
              (newIds.contains(f.id()) ? " * " : was.containsKey(f.id()) ? " ~ " : "   ")
                  + String.format(Locale.ROOT, "%-9s", "[" + f.severity().label() + "]")
                  + (was.containsKey(f.id()) && !newIds.contains(f.id())
                      ? "(was " + was.get(f.id()).label() + ") "
                      : "")
                  + WORDING.title(f)));
    }
    return out;
  }

  /** {@code count/parallelism}, or the count and that the parallelism is unknown. */
  private static String ofParallelism(int count, LiveSnapshot s) {
    int parallelism = s.parallelism();
    return parallelism > 0 ? count + "/" + parallelism : count + " (parallelism unknown)";
  }

  /**
   * Pinned-now threads by holder, most first: {@code Holder.method: #34 reader-0, #35 reader-1;
   * Other.method: #40}, at most three threads named per holder.
   */
  private static String pinnedNowByHolder(LiveSnapshot s) {
    List<String> groups = new ArrayList<>();
    for (LiveSnapshot.PinnedNowGroup g : s.pinnedNowByHolder()) {
      List<String> names = g.threads().stream().map(WatchView::threadName).toList();
      String shown = String.join(", ", names.subList(0, Math.min(3, names.size())));
      groups.add(
          holder(g.attribution())
              + ": "
              + shown
              + (names.size() > 3 ? " and " + (names.size() - 3) + " more" : ""));
    }
    return String.join("; ", groups);
  }

  /**
   * What the line or screen says of a thread dump older than the interval, or of the first one
   * still running; null when the dump shown is the interval's own.
   */
  private static String dumpAge(LiveSnapshot s) {
    LiveSnapshot.DumpAge dump = s.dump();
    if (dump == null || !dump.late(s.intervalNanos())) {
      return null;
    }
    Duration took = Duration.ofNanos(dump.tookNanos());
    return dump.ageNanos() < 0
        ? WORDING.format(Message.of("watch.dump-running", "took", took))
        : WORDING.format(
            Message.of("watch.dump-old", "age", Duration.ofNanos(dump.ageNanos()), "took", took));
  }

  private static String threadName(PinnedNow p) {
    return "#"
        + p.tid()
        + (p.name() == null || p.name().isEmpty() ? "" : " " + Escaping.terminal(p.name()));
  }

  /** The culprit: its class's simple name and method. */
  private static String holder(Site site) {
    return site.attribution() == null ? Escaping.terminal(site.key()) : holder(site.attribution());
  }

  private static String holder(Attribution attribution) {
    if (attribution == null) {
      return "?";
    }
    Culprit c = attribution.culprit();
    String type = c.className();
    int dot = type.lastIndexOf('.');
    return Escaping.terminal((dot < 0 ? type : type.substring(dot + 1)) + "." + c.method());
  }

  private static String kind(LiveSnapshot.SiteActivity a) {
    if (a.site().attribution() == null) {
      return a.monitorEnter() ? "monitor enter" : "pinned";
    }
    String kind = kindName(a.site().attribution());
    return a.monitorEnter() ? "enter: " + kind : kind;
  }

  private static String kindName(Attribution attribution) {
    return attribution == null
        ? ""
        : attribution.culprit().kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }

  private String fit(String line) {
    return width > 0 ? cut(line, width) : line;
  }

  private static String cut(String text, int columns) {
    return text.length() <= columns ? text : text.substring(0, Math.max(0, columns - 1)) + "…";
  }
}
