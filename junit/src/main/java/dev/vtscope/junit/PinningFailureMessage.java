package dev.vtscope.junit;

import dev.vtscope.advice.Finding;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.Owner;
import dev.vtscope.gate.CheckItem;
import dev.vtscope.recording.Frame;
import dev.vtscope.report.Escaping;
import dev.vtscope.report.Wording;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * The words of a failed {@code @NoPinning} test: what went over budget, then for each pinned site
 * the code that holds the carrier, its kind and artifact, where to change the code, and the fix
 * vtscope's findings give. All of the extension's wording about a verdict is here.
 */
final class PinningFailureMessage {

  /**
   * Findings and checks are worded as every vtscope report words them, with names from the
   * recording escaped as a terminal shows them: a test report is read in a console or an IDE.
   */
  private static final Wording WORDING = Wording.terminal();

  /** Sites shown in full; a message is read in a test report, not scrolled. */
  static final int SITES_SHOWN = 5;

  private PinningFailureMessage() {}

  /**
   * The message of a test whose verdict failed.
   *
   * @param kept where the recording was kept, or null when it was not
   */
  static String of(PinningVerdict verdict, Path kept) {
    Analysis a = verdict.analysis();
    StringJoiner text = new StringJoiner("\n");
    long events = verdict.counted().stream().mapToLong(s -> s.durations().count()).sum();
    long total = verdict.counted().stream().mapToLong(s -> s.durations().totalNanos()).sum();
    text.add(
        "Virtual threads pinned their carriers while the test ran"
            + (a.feature() > 0 ? " on JDK " + a.feature() : "")
            + ": "
            + plural(events, "pinned event")
            + ", "
            + HumanDurations.format(total)
            + " in total.");
    for (CheckItem failed : verdict.failures()) {
      text.add(
          "Over budget: "
              + WORDING.format(failed.name())
              + " ("
              + WORDING.format(failed.result())
              + ").");
    }
    List<Site> sites = verdict.counted();
    for (int i = 0; i < Math.min(SITES_SHOWN, sites.size()); i++) {
      text.add("");
      site(i + 1, sites.get(i), verdict.findingsFor(sites.get(i)), text);
    }
    if (sites.size() > SITES_SHOWN) {
      text.add("");
      text.add(
          "… and " + plural(sites.size() - SITES_SHOWN, "more site") + " (see the recording).");
    }
    text.add("");
    notCounted(verdict, text);
    long truncated = a.pinned().truncatedStacks();
    if (truncated > 0) {
      // The depth in force shows on a cut stack: the recording's settings state only the
      // command line's, not one raised at run time.
      int depth =
          a.pinned().sites().stream()
              .filter(s -> s.stack().truncated())
              .mapToInt(s -> s.stack().frames().size())
              .max()
              .orElse(0);
      text.add(
          plural(truncated, "pinned stack")
              + (truncated == 1 ? " was" : " were")
              + " cut at JFR's stack depth"
              + (depth == 0 ? "" : " of " + depth + " frames")
              + ", which may hide the holder: start the test JVM with"
              + " -XX:FlightRecorderOptions:stackdepth="
              + InProcessRecording.STACK_DEPTH
              + ".");
    }
    if (kept != null) {
      text.add("Recording kept: " + kept + " (vtscope analyze shows the whole report).");
    }
    return text.toString();
  }

  private static void site(int number, Site site, List<Finding> findings, StringJoiner text) {
    Culprit c = PinningVerdict.culprit(site);
    text.add(
        number
            + ". "
            + (c == null ? "an unattributed stack" : Escaping.terminal(c.qualifiedMethod()))
            + " holds the carrier: "
            + plural(site.durations().count(), "pin")
            + ", "
            + HumanDurations.format(site.durations().totalNanos())
            + " in total, the longest "
            + HumanDurations.format(site.durations().maxNanos()));
    if (c != null) {
      text.add("   kind       " + kind(c));
      text.add(
          "   artifact   "
              + (c.artifact() != null
                  ? Escaping.terminal(c.artifact().display())
                  : "none known (" + c.owner().name().toLowerCase(Locale.ROOT) + " code)"));
    }
    if (site.attribution() != null && site.attribution().waitedAt() != null) {
      text.add("   waited in  " + Escaping.terminal(site.attribution().waitedAt().display()));
    }
    Frame change = actionable(site);
    text.add(
        "   change at  "
            + (change == null
                ? "no application frame on the stack (JDK and library code only)"
                : Escaping.terminal(change.display())));
    if (c != null && c.detail() != null) {
      text.add("   note       " + Escaping.terminal(c.detail()));
    }
    if (findings.isEmpty()) {
      text.add("   fix        see the whole report of the recording");
      return;
    }
    Finding first = findings.get(0);
    text.add("   finding    [" + first.severity().label() + "] " + WORDING.title(first));
    for (String action : WORDING.actions(first)) {
      text.add("   fix        " + action);
    }
    for (Finding other : findings.subList(1, findings.size())) {
      text.add("   also       [" + other.severity().label() + "] " + WORDING.title(other));
    }
  }

  /**
   * The frame to change: the holder itself when it is the application's, else the application frame
   * that called into the library or the JDK.
   */
  static Frame actionable(Site site) {
    Attribution attribution = site.attribution();
    if (attribution == null) {
      return site.topApplicationFrame();
    }
    Culprit c = attribution.culprit();
    List<Frame> frames = site.stack().frames();
    if (c.owner() == Owner.APPLICATION && c.frameIndex() >= 0 && c.frameIndex() < frames.size()) {
      return frames.get(c.frameIndex());
    }
    return attribution.calledFrom() != null ? attribution.calledFrom() : site.topApplicationFrame();
  }

  private static void notCounted(PinningVerdict verdict, StringJoiner text) {
    if (!verdict.allowed().isEmpty()) {
      text.add(
          "Not counted: "
              + plural(verdict.allowed().size(), "site")
              + " the allow-list names ("
              + String.join(", ", verdict.budget().allow().entries())
              + ").");
    }
    if (!verdict.warmUp().isEmpty()) {
      text.add(
          "Not counted: "
              + plural(verdict.warmUp().size(), "warm-up site")
              + ", once per JVM (the JVM loading classes, the JDK initialising its own).");
    }
  }

  private static String kind(Culprit c) {
    String kind = WORDING.kind(c.kind());
    if (c.lineRange() != null) {
      return kind + ", " + c.lineRange();
    }
    return c.line() >= 0 && c.kind() != CulpritKind.SYNCHRONIZED_METHOD
        ? kind + ", line " + c.line()
        : kind;
  }

  private static String plural(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
