package dev.vtscope.report;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.CarrierPool;
import dev.vtscope.advice.Finding;
import dev.vtscope.advice.RecordingVerdict;
import dev.vtscope.advice.Severity;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarrierWork;
import dev.vtscope.analysis.CarriersAtEnd;
import dev.vtscope.analysis.Concurrency;
import dev.vtscope.analysis.DurationSummary;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.InputFacts;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.MonitorSummary;
import dev.vtscope.analysis.Note;
import dev.vtscope.analysis.RecordingFigures;
import dev.vtscope.analysis.RecordingSet;
import dev.vtscope.analysis.RecordingSettings;
import dev.vtscope.analysis.SchedulerSetting;
import dev.vtscope.analysis.Site;
import dev.vtscope.analysis.SubmitFailureGroup;
import dev.vtscope.attribution.Artifact;
import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.MonitorFrame;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.scan.ScanAgreement;
import dev.vtscope.scan.ScanFinding;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The report a person reads in a terminal. */
public final class TextReport implements ReportRenderer {

  private static final Wording WORDING = Wording.terminal();

  private static final int FRAMES_AFTER_APPLICATION_FRAME = 2;
  private static final int MAX_FRAMES = 14;

  /** Most scan findings listed under the recording's sites; JSON lists them all. */
  private static final int NOT_HIT_SHOWN = 10;

  private final TextStyle style;

  public TextReport(TextStyle style) {
    this.style = style;
  }

  @Override
  public void render(Report report, PrintWriter out) {
    // instanceof rather than a switch on the sealed type: a pattern switch makes a class at
    // start-up (SwitchBootstraps) that no class-data archive keeps.
    if (report instanceof Report.Analyzed r) {
      analysis(r.analysis(), r.advice(), r.scan(), out);
    } else if (report instanceof Report.Checked r) {
      CheckReport.text(r.result(), r.recordings(), r.dumps() ? "dump" : "recording", out);
    } else if (report instanceof Report.Compared r) {
      DiffReport.text(r.result(), out);
    } else if (report instanceof Report.DumpsAnalyzed r) {
      dumps(r, out);
    } else if (report instanceof Report.Scanned r) {
      ScanReport.text(r.result(), r.recorded(), out);
    } else {
      throw new IllegalArgumentException("not a report: " + report);
    }
  }

  private void analysis(Analysis a, Advice advice, ScanAgreement scan, PrintWriter out) {
    List<String> lines = new ArrayList<>();
    recording(a, lines);
    summary(a, lines);
    findings(a, advice, lines);
    recordings(a, advice, lines);
    carrierPool(a, advice.carrierPool(), lines);
    pinnedSites(a, scan, lines);
    monitorSites("Monitor enter from virtual threads", a.monitorEnter(), a, scan, lines);
    monitorSites("Monitor wait from virtual threads", a.monitorWait(), a, scan, lines);
    if (scan != null) {
      notHit(scan, lines);
    }
    carrierWork(a, lines);
    submitFailures(a, lines);
    notes(a, advice, lines);
    for (String line : lines) {
      for (String fitted : fit(line)) {
        out.println(fitted);
      }
    }
    out.flush();
  }

  private void dumps(Report.DumpsAnalyzed r, PrintWriter out) {
    List<String> lines = new ArrayList<>(DumpReport.textHead(r.analysis(), style));
    findings(r.analysis().names(), r.advice(), lines);
    lines.addAll(DumpReport.textBody(r.analysis(), style));
    for (String line : lines) {
      for (String fitted : fit(line)) {
        out.println(fitted);
      }
    }
    out.flush();
  }

  private void recording(Analysis a, List<String> lines) {
    lines.add(style.bold("vtscope: virtual-thread pinning report"));
    if (a.inputs().size() > RecordingVerdict.SHOWN) {
      lines.add("  recordings  " + WORDING.format(RecordingSet.header(a.inputs())));
    }
    for (InputFacts input :
        a.inputs().size() > RecordingVerdict.SHOWN ? List.<InputFacts>of() : a.inputs()) {
      StringBuilder line =
          new StringBuilder("  recording   ").append(Escaping.terminal(input.name()));
      List<String> facts = new ArrayList<>();
      if (input.jvm() != null && input.jvm().javaVersion() != null) {
        facts.add("JDK " + Escaping.terminal(input.jvm().javaVersion()));
      }
      if (input.cpus() > 0) {
        facts.add(input.cpus() + (input.cpus() == 1 ? " CPU" : " CPUs"));
      }
      if (input.durationNanos() > 0) {
        facts.add(HumanDurations.format(input.durationNanos()) + " recorded");
      }
      facts.add(input.chunks() + (input.chunks() == 1 ? " chunk" : " chunks"));
      if (input.files() > 1) {
        facts.add(input.files() + " files");
      }
      if (input.problem() != null) {
        facts.add(style.yellow("read in part"));
      }
      line.append("  (").append(String.join(", ", facts)).append(')');
      lines.add(line.toString());
    }
    if (a.inputs().size() > 1 && a.inputs().size() <= RecordingVerdict.SHOWN) {
      long folders =
          a.inputs().stream()
              .map(i -> java.nio.file.Path.of(i.name()).toAbsolutePath().getParent())
              .distinct()
              .count();
      lines.add(
          "  merged      "
              + a.inputs().size()
              + " recordings"
              + (folders > 1 ? " from " + folders + " folders" : "")
              + " into one report; carriers at once are counted within each");
    }
    if (a.feature() > 0 && a.feature() < 19) {
      lines.add("  scheduler   none: JDK " + a.feature() + " has no virtual threads");
      lines.add("");
      return;
    }
    lines.add(
        "  scheduler   "
            + setting("parallelism", a.scheduler().parallelism(), "CPUs")
            + ", "
            + setting("maxPoolSize", a.scheduler().maxPoolSize(), null)
            + ", "
            + setting("minRunnable", a.scheduler().minRunnable(), null)
            + (a.scheduler().carriersStarted() > 0
                ? ", " + a.scheduler().carriersStarted() + " carriers started"
                : ""));
    lines.add("  settings    " + settings(a.settings()));
    lines.add("");
  }

  private static String setting(String name, SchedulerSetting s, String defaultMeaning) {
    String value = s.value() < 0 ? "unknown" : Integer.toString(s.value());
    String source =
        switch (s.source()) {
          case SET -> "set";
          case DEFAULT -> defaultMeaning == null ? "default" : "default: " + defaultMeaning;
          case ASSUMED_DEFAULT -> "default assumed";
        };
    return name + " " + value + " (" + source + ")";
  }

  private static String settings(RecordingSettings s) {
    StringBuilder text = new StringBuilder("jdk.VirtualThreadPinned ");
    if (s.pinnedEnabled() == null) {
      text.append("enabled?");
    } else {
      text.append(s.pinnedEnabled() ? "on" : "off");
    }
    if (s.pinnedThresholdNanos() != null) {
      text.append(", threshold ").append(HumanDurations.format(s.pinnedThresholdNanos()));
    }
    if (s.stackDepth() != null) {
      text.append(", stack depth ").append(s.stackDepth());
    }
    return text.toString();
  }

  private void summary(Analysis a, List<String> lines) {
    lines.add(style.bold("Summary"));
    DurationSummary d = a.pinned().durations();
    if (d.count() == 0) {
      lines.add("  pinned         none recorded");
    } else {
      lines.add(
          "  pinned         "
              + count(d.count(), "event")
              + ", "
              + HumanDurations.format(d.totalNanos())
              + " in total, "
              + count(a.pinned().virtualThreads(), "virtual thread")
              + ", "
              + count(a.pinned().sites().size(), "site"));
      lines.add("                 " + percentiles(d));
      Concurrency c = a.pinned().concurrency();
      // of several recordings, the figures of the one that held most: named, never mixed
      String in =
          a.several()
              ? " in " + Escaping.terminal(RecordingSet.worstRecording(a.inputs()).name())
              : "";
      StringBuilder carriers =
          new StringBuilder("  carriers       peak ")
              .append(c.peak())
              .append(" pinned at once")
              .append(in);
      if (c.parallelism() > 0) {
        carriers.append(" (parallelism ").append(c.parallelism()).append(')');
        if (c.saturatedNanos() > 0) {
          carriers
              .append(", ")
              .append(
                  style.yellow(
                      "all "
                          + c.parallelism()
                          + " pinned for "
                          + HumanDurations.format(c.saturatedNanos())));
        }
      }
      lines.add(carriers.toString());
    }
    Concurrency held = a.carriers();
    if (a.monitorsHoldCarriers() && held != null && a.monitorEnter().events() > 0) {
      StringBuilder line =
          new StringBuilder("  carriers held  peak ")
              .append(held.peak())
              .append(" pinned or entering a monitor at once")
              .append(
                  a.several()
                      ? " in " + Escaping.terminal(RecordingSet.worstRecording(a.inputs()).name())
                      : "");
      if (held.parallelism() > 0 && held.saturatedNanos() > 0) {
        line.append(", ")
            .append(
                style.yellow(
                    "all "
                        + held.parallelism()
                        + " held for "
                        + HumanDurations.format(held.saturatedNanos())));
      }
      lines.add(line.toString());
    }
    if (a.monitorEnter() != null) {
      lines.add("  monitor enter  " + monitorLine(a.monitorEnter()));
      lines.add("  monitor wait   " + monitorLine(a.monitorWait()));
    }
    lines.add(
        "  submit failed  "
            + (a.submitFailed().events() == 0
                ? "none"
                : style.yellow(count(a.submitFailed().events(), "rejected task"))));
    CarriersAtEnd end = a.carriersAtEnd();
    if (end != null) {
      String state = atTheEnd(end);
      if (a.inputs().size() > 1 && end.input() < a.inputs().size()) {
        state += " (" + Escaping.terminal(a.inputs().get(end.input()).name()) + ")";
      }
      lines.add("  at the end     " + (end.held() > 0 ? style.yellow(state) : state));
    }
    lines.add("");
  }

  /** What the last thread dump shows the carriers doing, in a few words. */
  static String atTheEnd(CarriersAtEnd end) {
    if (end.carrying() == 0) {
      return "no carrier carrying a virtual thread (the last thread dump)";
    }
    List<String> parts = new ArrayList<>();
    if (end.stacksPrinted()) {
      parts.add((end.held() == 0 ? "none" : String.valueOf(end.held())) + " blocked");
    } else {
      if (end.unchanged() > 0) {
        parts.add(end.unchanged() + " held since the dump before");
      }
      if (end.running() > 0) {
        parts.add(end.running() + " running");
      }
      if (end.undetermined() > 0) {
        parts.add(end.undetermined() + " unknown (the dump shows no frames)");
      }
    }
    return end.carrying()
        + " of "
        + count(end.carriers(), "carrier")
        + " carrying a virtual thread: "
        + String.join(", ", parts);
  }

  private static String monitorLine(MonitorSummary m) {
    if (m.events() == 0) {
      return "none";
    }
    return count(m.events(), "event")
        + ", "
        + HumanDurations.format(m.durations().totalNanos())
        + " in total, "
        + count(m.virtualThreads(), "virtual thread")
        + " (each held its carrier; not counted as pinned)";
  }

  private static String percentiles(DurationSummary d) {
    return "min "
        + HumanDurations.format(d.minNanos())
        + ", p50 "
        + HumanDurations.format(d.p50Nanos())
        + ", p90 "
        + HumanDurations.format(d.p90Nanos())
        + ", p99 "
        + HumanDurations.format(d.p99Nanos())
        + ", max "
        + HumanDurations.format(d.maxNanos());
  }

  private void pinnedSites(Analysis a, ScanAgreement scan, List<String> lines) {
    List<Site> sites = a.pinned().sites();
    if (sites.isEmpty()) {
      return;
    }
    lines.add(style.bold(sectionTitle("Pinned sites", a, sites.size())));
    siteList(sites, lines, true, "     held by    ", scan);
  }

  private void monitorSites(
      String title, MonitorSummary m, Analysis a, ScanAgreement scan, List<String> lines) {
    if (m == null || m.sites().isEmpty()) {
      return;
    }
    lines.add(style.bold(sectionTitle(title, a, m.sites().size())));
    siteList(m.sites(), lines, false, "     blocked at ", scan);
  }

  /** The scan's high and medium findings the recording did not hit: risks its load left alone. */
  private void notHit(ScanAgreement scan, List<String> lines) {
    List<ScanFinding> notHit = scan.notHit();
    if (notHit.isEmpty()) {
      return;
    }
    int shown = Math.min(notHit.size(), NOT_HIT_SHOWN);
    lines.add(
        style.bold(
            "Scan findings the recording did not hit (high and medium"
                + (shown < notHit.size() ? "; top " + shown + " of " + notHit.size() : "")
                + ")"));
    for (ScanFinding f : notHit.subList(0, shown)) {
      lines.add(
          String.format(Locale.ROOT, "  %-6s ", f.severity().label().toUpperCase(Locale.ROOT))
              + Escaping.terminal(f.qualifiedMethod())
              + ScanReport.parameters(f.descriptor())
              + (f.lines() == null ? "" : " " + f.lines())
              + " in "
              + Escaping.terminal(f.artifact()));
    }
    if (shown < notHit.size()) {
      lines.add(
          style.dim(
              "  … "
                  + (notHit.size() - shown)
                  + " more; --format json lists all, vtscope scan"
                  + " shows their chains"));
    }
    lines.add("");
  }

  /** Carrier time without pinning: long CPU runs, file I/O, compensated starts. */
  private void carrierWork(Analysis a, List<String> lines) {
    CarrierWork w = a.carrierWork();
    if (!w.runSites().isEmpty()) {
      lines.add(
          style.bold(
              sectionTitle(
                  "Virtual threads running on a carrier for "
                      + HumanDurations.format(CarrierWork.longRunNanos())
                      + "+ (sampled)",
                  a,
                  w.runSites().size())));
      siteList(w.runSites(), lines, "     held by    ");
    }
    if (!w.fileIoSites().isEmpty()) {
      lines.add(style.bold(sectionTitle("File I/O of virtual threads", a, w.fileIoSites().size())));
      siteList(w.fileIoSites(), lines, "     held by    ");
    }
    if (!w.compensationSites().isEmpty()) {
      lines.add(
          style.bold(
              sectionTitle(
                  "Carriers started to compensate for blocking (" + w.compensatedStarts() + ")",
                  a,
                  w.compensationSites().size())));
      siteList(w.compensationSites(), lines, "     blocked at ");
    }
  }

  private String sectionTitle(String title, Analysis a, int count) {
    int shown = Math.min(count, style.topSites());
    return title
        + " (by "
        + a.groupBy().label()
        + (shown < count ? "; top " + shown + " of " + count : "")
        + ")";
  }

  private void siteList(List<Site> sites, List<String> lines, String culpritLabel) {
    siteList(sites, lines, false, culpritLabel, null);
  }

  /**
   * @param scan with {@code --scan}, which sites the scan predicted; else null
   */
  private void siteList(
      List<Site> sites,
      List<String> lines,
      boolean pinned,
      String culpritLabel,
      ScanAgreement scan) {
    int shown = Math.min(sites.size(), style.topSites());
    for (int i = 0; i < shown; i++) {
      Site site = sites.get(i);
      DurationSummary d = site.durations();
      boolean starts = isKind(site, CulpritKind.COMPENSATED_BLOCKING);
      boolean runs = isKind(site, CulpritKind.CPU_BOUND) || isKind(site, CulpritKind.SPIN_WAIT);
      lines.add(
          starts
              // thread starts have no duration: how many, and when
              ? " #" + (i + 1) + "  " + count(d.count(), "carrier") + " started"
              : " #"
                  + (i + 1)
                  + "  "
                  + HumanDurations.format(d.totalNanos())
                  + " in "
                  + count(d.count(), runs ? "run" : "event")
                  + ", "
                  + count(site.virtualThreads(), "thread")
                  + "; p50 "
                  + HumanDurations.format(d.p50Nanos())
                  + ", p99 "
                  + HumanDurations.format(d.p99Nanos())
                  + ", max "
                  + HumanDurations.format(d.maxNanos()));
      Attribution attribution = site.attribution();
      if (attribution != null) {
        lines.add(culpritLabel + culprit(attribution.culprit()));
      }
      ScanFinding predicted = scan == null ? null : scan.prediction(site);
      if (predicted != null) {
        lines.add(
            "     predicted by scan ("
                + predicted.severity().label()
                + ", risk "
                + predicted.score()
                + ")");
      }
      if (pinned && site.reason() != null) {
        lines.add("     reason     " + Escaping.terminal(site.reason()));
      }
      if (pinned && site.blockingOperation() != null) {
        lines.add("     operation  " + Escaping.terminal(site.blockingOperation()));
      }
      if (!pinned && site.monitorClass() != null) {
        lines.add("     monitor    " + Escaping.terminal(site.monitorClass()));
      }
      lines.add(
          (runs ? "     running in " : starts ? "     blocked in " : "     waited in  ")
              + (site.topApplicationFrame() == null
                  ? "JDK code only (no application frame on the stack)"
                  : Escaping.terminal(site.topApplicationFrame().display())));
      if (attribution != null
          && attribution.calledFrom() != null
          && !attribution.calledFrom().equals(site.topApplicationFrame())) {
        lines.add("     called from " + Escaping.terminal(attribution.calledFrom().display()));
      }
      if (attribution != null && attribution.culprit().detail() != null) {
        // for carrier work the detail is the JDK method the culprit called
        boolean call =
            starts || isKind(site, CulpritKind.FILE_IO) || isKind(site, CulpritKind.SPIN_WAIT);
        lines.add(
            style.dim(
                (call ? "     calls      " : "     note       ")
                    + Escaping.terminal(attribution.culprit().detail())));
      }
      if (attribution != null && attribution.blockedIn() != null) {
        lines.add(
            "     blocked    "
                + WORDING.format(
                    dev.vtscope.analysis.CarrierWork.blockedIn(attribution.blockedIn())));
      }
      stack(site.stack(), site.topApplicationFrame(), attribution, lines);
      lines.add("");
    }
    if (shown < sites.size()) {
      lines.add(
          style.dim(
              "  … "
                  + (sites.size() - shown)
                  + " more; --top "
                  + sites.size()
                  + " shows all, --format json lists every site"));
      lines.add("");
    }
  }

  private static boolean isKind(Site site, CulpritKind kind) {
    return site.attribution() != null && site.attribution().culprit().kind() == kind;
  }

  private void stack(
      RecordedStack stack, Frame applicationFrame, Attribution attribution, List<String> lines) {
    List<Frame> frames = stack.frames();
    int applicationIndex = applicationFrame == null ? -1 : frames.indexOf(applicationFrame);
    int culpritIndex = attribution == null ? -1 : attribution.culprit().frameIndex();
    int last = Math.max(applicationIndex, culpritIndex);
    for (MonitorFrame m :
        attribution == null ? List.<MonitorFrame>of() : attribution.otherMonitorFrames()) {
      last = Math.max(last, m.frameIndex());
    }
    int limit =
        last < 0
            ? Math.min(frames.size(), MAX_FRAMES)
            : Math.min(frames.size(), Math.max(last + 1 + FRAMES_AFTER_APPLICATION_FRAME, 4));
    limit = Math.min(limit, Math.max(MAX_FRAMES, last + 1));
    if (style.stackDepth() != TextStyle.SHORT_STACKS) {
      // as deep as asked, never hiding a frame the site names
      limit = (int) Math.min(frames.size(), Math.max((long) style.stackDepth(), last + 1L));
    }
    for (int i = 0; i < limit; i++) {
      Frame f = frames.get(i);
      boolean marked = i == applicationIndex || i == culpritIndex;
      StringBuilder line = new StringBuilder(marked ? "   > at " : "     at ");
      line.append(Escaping.terminal(f.display()));
      if (i == culpritIndex && attribution.culprit().kind() == CulpritKind.UNKNOWN) {
        line.append("  <- nearest frame to the cause, which is unknown");
      } else if (i == culpritIndex) {
        line.append("  <- holds the carrier (")
            .append(WORDING.kind(attribution.culprit().kind()))
            .append(')');
      } else if (attribution != null && isOtherMonitor(attribution, i)) {
        line.append("  <- also holds a monitor");
      } else if (f.isSynchronizedMethod()) {
        line.append("  [synchronized method]");
      } else if (f.isNativeMethod()) {
        line.append("  [native]");
      }
      lines.add(marked ? style.bold(line.toString()) : line.toString());
    }
    int hidden = frames.size() - limit;
    if (hidden > 0 || stack.truncated()) {
      lines.add(
          style.dim(
              "     … "
                  + (hidden > 0
                      ? hidden
                          + " more frame"
                          + (hidden == 1 ? "" : "s")
                          + " (--stack-depth all shows them)"
                      : "")
                  + (stack.truncated()
                      ? (hidden > 0 ? "; " : "") + "stack truncated by JFR"
                      : "")));
    }
  }

  private static boolean isOtherMonitor(Attribution attribution, int index) {
    return attribution.otherMonitorFrames().stream().anyMatch(m -> m.frameIndex() == index);
  }

  /** The held-by line: the culprit, its kind and lines, whose code it is and its artifact. */
  static String culprit(Culprit c) {
    StringBuilder text = new StringBuilder(Escaping.terminal(c.qualifiedMethod()));
    text.append("  ").append(WORDING.kind(c.kind()));
    if (c.lineRange() != null) {
      text.append(", ").append(c.lineRange());
    } else if (c.line() >= 0 && c.kind() != CulpritKind.SYNCHRONIZED_METHOD) {
      text.append(", line ").append(c.line());
    }
    text.append(" (").append(c.owner().name().toLowerCase(java.util.Locale.ROOT));
    if (c.artifact() != null) {
      text.append(", ").append(Escaping.terminal(c.artifact().display()));
      // a name without Maven metadata behind it says where it came from, so it is never taken
      // for coordinates
      if (c.artifact().source() == Artifact.Source.MANIFEST) {
        text.append(
            c.artifact().header() == null
                ? " (jar manifest)"
                : " (jar manifest's " + Escaping.terminal(c.artifact().header()) + ")");
      } else if (c.artifact().source() == Artifact.Source.FILE_NAME) {
        text.append(" (jar file name)");
      }
    }
    return text.append(')').toString();
  }

  private void submitFailures(Analysis a, List<String> lines) {
    List<SubmitFailureGroup> groups = a.submitFailed().groups();
    if (groups.isEmpty()) {
      return;
    }
    lines.add(style.bold("Submit failures (the scheduler rejected a task)"));
    int shown = Math.min(groups.size(), style.topSites());
    for (int i = 0; i < shown; i++) {
      SubmitFailureGroup g = groups.get(i);
      lines.add(
          " #"
              + (i + 1)
              + "  "
              + count(g.events(), "event")
              + ", "
              + count(g.virtualThreads(), "virtual thread")
              + ": "
              + (g.message() == null ? "(no message)" : Escaping.terminal(g.message())));
      stack(g.stack(), g.stack().topApplicationFrame(), null, lines);
      lines.add("");
    }
  }

  private void findings(Analysis a, Advice advice, List<String> lines) {
    findings(a.inputs().stream().map(InputFacts::name).toList(), advice, lines);
  }

  /** The findings; {@code names} are the report's inputs, which a finding of several names. */
  private void findings(List<String> names, Advice advice, List<String> lines) {
    if (advice.findings().isEmpty()) {
      return;
    }
    lines.add(style.bold("Findings (most severe first, then most carrier time at stake)"));
    int width = columns(7);
    int number = 0;
    for (Finding f : advice.findings()) {
      number++;
      String severity = "[" + f.severity().label() + "]";
      String head = String.format("%2d. %-8s ", number, severity);
      List<String> title = wrap(WORDING.title(f), columns(head.length() + 1));
      String first = head + title.get(0);
      lines.add(f.severity().compareTo(Severity.MEDIUM) >= 0 ? style.bold(first) : first);
      title.subList(1, title.size()).forEach(t -> lines.add(" ".repeat(head.length()) + t));
      if (f.spread() != null) {
        for (String line : wrap(WORDING.format(f.spread().said(names)), width)) {
          lines.add("       " + style.dim(line));
        }
      }
      // Brief pins of no consequence (info with carrier time): the title and the first action;
      // the JSON document has the rest.
      boolean brief = f.severity() == Severity.INFO && f.carrierNanos() > 0;
      if (!brief) {
        for (String line : wrap(WORDING.explanation(f), width)) {
          lines.add("       " + line);
        }
      }
      for (String action :
          brief
              ? WORDING.actions(f).subList(0, Math.min(1, f.actions().size()))
              : WORDING.actions(f)) {
        List<String> wrapped = wrap(action, width - 2);
        lines.add("     - " + wrapped.get(0));
        wrapped.subList(1, wrapped.size()).forEach(t -> lines.add("       " + t));
      }
      lines.add("");
    }
  }

  /** Of a report of several recordings, one row each, the worst first. */
  private void recordings(Analysis a, Advice advice, List<String> lines) {
    if (a.inputs().size() < 2) {
      return;
    }
    List<RecordingVerdict> rows = RecordingVerdict.of(a, advice);
    lines.add(style.bold("Recordings (worst first)"));
    for (RecordingVerdict row : rows.subList(0, Math.min(RecordingVerdict.SHOWN, rows.size()))) {
      String severity = "[" + (row.healthy() ? "healthy" : row.severity().label()) + "]";
      String head = String.format("  %-9s ", severity);
      List<String> wrapped =
          wrap(
              Escaping.terminal(row.input().name()) + "  " + rowFacts(row), columns(head.length()));
      lines.add(head + wrapped.get(0));
      wrapped.subList(1, wrapped.size()).forEach(t -> lines.add(" ".repeat(head.length()) + t));
    }
    if (rows.size() > RecordingVerdict.SHOWN) {
      lines.add(
          "  "
              + WORDING.format(
                  Message.of("recordings.more", "more", rows.size() - RecordingVerdict.SHOWN)));
    }
    lines.add("");
  }

  /** A recording's own figures, as its row says them. */
  private static String rowFacts(RecordingVerdict row) {
    InputFacts input = row.input();
    RecordingFigures f = input.figures();
    List<String> facts = new ArrayList<>();
    if (input.jvm() != null && input.jvm().javaVersion() != null) {
      facts.add("JDK " + Escaping.terminal(input.jvm().javaVersion()));
    }
    facts.add(HumanDurations.format(input.durationNanos()) + " recorded");
    if (f != null) {
      int parallelism = f.scheduler().parallelism().value();
      if (parallelism > 0) {
        facts.add("parallelism " + parallelism);
      }
      facts.add("pinned " + HumanDurations.format(f.pinnedNanos()));
      if (f.held() != null && f.held().peak() == 0) {
        facts.add("no carrier held");
      } else if (f.held() != null && f.held().saturatedNanos() > 0) {
        facts.add(
            "all carriers held "
                + HumanDurations.format(f.held().saturatedNanos())
                + " ("
                + Message.Share.percent(row.saturatedShare())
                + ")");
      } else if (f.held() != null) {
        facts.add("at most " + f.held().peak() + " carriers held at once");
      }
    }
    return "(" + String.join(", ", facts) + ")" + (row.healthy() ? "" : "  " + row.worst().id());
  }

  private void carrierPool(Analysis a, CarrierPool pool, List<String> lines) {
    if (pool == null) {
      return;
    }
    lines.add(
        style.bold(
            pool.recording() < 0
                ? "Carrier pool"
                : "Carrier pool (for "
                    + Escaping.terminal(a.inputs().get(pool.recording()).name())
                    + ")"));
    lines.add(
        "  in effect    parallelism "
            + pool.current().parallelism()
            + ", maxPoolSize "
            + pool.current().maxPoolSize());
    lines.add(
        "  recommended  "
            + (pool.change()
                ? style.yellow(pool.javaOptions())
                : "keep: parallelism "
                    + pool.recommended().parallelism()
                    + ", maxPoolSize "
                    + pool.recommended().maxPoolSize()));
    String label = "  why          ";
    for (String reason : pool.reasoning().stream().map(WORDING::format).toList()) {
      List<String> wrapped = wrap(reason, columns(label.length()));
      lines.add(label + wrapped.get(0));
      String indent = " ".repeat(label.length());
      wrapped.subList(1, wrapped.size()).forEach(t -> lines.add(indent + t));
      label = indent;
    }
    lines.add("");
  }

  private void notes(Analysis a, Advice advice, List<String> lines) {
    java.util.Set<String> said = new java.util.HashSet<>();
    advice.findings().forEach(f -> said.addAll(f.notes()));
    List<Note> notes = a.notes().stream().filter(n -> !said.contains(n.id())).toList();
    if (notes.isEmpty()) {
      return;
    }
    lines.add(style.bold("Notes"));
    for (Note note : notes) {
      String prefix = note.severity() == Note.Severity.WARNING ? style.yellow("  ! ") : "  - ";
      List<String> wrapped = wrap(WORDING.message(note), columns(4));
      lines.add(prefix + wrapped.get(0));
      wrapped.subList(1, wrapped.size()).forEach(rest -> lines.add("    " + rest));
    }
  }

  /**
   * The columns left for text after {@code indent}; no limit when the width is 0. Never fewer than
   * 20, where a narrow width leaves a deep indent almost nothing.
   */
  private int columns(int indent) {
    return style.width() <= 0 ? Integer.MAX_VALUE : Math.max(20, style.width() - indent);
  }

  /**
   * Breaks {@code text} between words into lines of at most {@code width} visible columns (colour
   * codes take none; a colour that spans a break goes on into the next line, as terminals keep it).
   */
  private static List<String> wrap(String text, int width) {
    List<String> result = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    int visible = 0;
    for (String word : text.split(" ")) {
      int length = visibleLength(word);
      if (line.length() > 0 && visible + 1 + length > width) {
        result.add(line.toString());
        line.setLength(0);
        visible = 0;
      }
      if (line.length() > 0) {
        line.append(' ');
        visible++;
      }
      line.append(word);
      visible += length;
    }
    result.add(line.toString());
    return result;
  }

  private static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  /**
   * Fits a line to the width: on a terminal stack frames are cut (the frame's class and method come
   * first), elsewhere they are kept whole; any other line wraps, so no finding is lost. Colour
   * codes take no columns.
   */
  private List<String> fit(String line) {
    if (style.width() <= 0 || visibleLength(line) <= style.width()) {
      return List.of(line);
    }
    String plain = line.replaceAll("\u001b\\[[0-9;]*m", "");
    if (plain.startsWith("     at ") || plain.startsWith("   > at ")) {
      // a marked frame is bold as a whole: cut, it is bold again as a whole
      boolean bold = !plain.equals(line);
      String cut = plain.substring(0, Math.max(0, style.width() - 1)) + "…";
      return List.of(style.cutFrames() ? (bold ? style.bold(cut) : cut) : line);
    }
    int indent = 0;
    while (indent < line.length() && line.charAt(indent) == ' ') {
      indent++;
    }
    int value = valueColumn(line, indent);
    // the first line keeps the label, or the indent of a line without one
    int head = value > 0 ? value : indent;
    int goesOn = value > 0 ? value : continuationColumn(line, indent);
    String continuation = " ".repeat(goesOn);
    List<String> wrapped = new ArrayList<>();
    for (String part : wrap(line.substring(head), columns(Math.max(head, goesOn)))) {
      // a break at a run of spaces leaves no space at the end of a line
      wrapped.add(
          ((wrapped.isEmpty() ? line.substring(0, head) : continuation) + part).stripTrailing());
    }
    return wrapped;
  }

  /**
   * Where the value of a labelled line starts (a word or two, such as the header's "recording" or a
   * finding's number and severity, then two spaces or more), or -1 for a line without a label. Only
   * a label in the first half of the width counts, and one without colour.
   */
  private int valueColumn(String line, int indent) {
    int gap = line.indexOf("  ", indent);
    if (gap > indent && gap < style.width() / 2 && line.lastIndexOf('\u001b', gap) < 0) {
      int value = gap;
      while (value < line.length() && line.charAt(value) == ' ') {
        value++;
      }
      if (value < line.length() && value <= style.width() / 2) {
        return value;
      }
    }
    return -1;
  }

  /**
   * Where a line without a label goes on: after a list item's dash; at its indent when that is deep
   * already (the second line of a value); else eleven columns in, where a site's details ("blocked
   * at") have theirs.
   */
  private int continuationColumn(String line, int indent) {
    if (line.startsWith("- ", indent) || line.startsWith("! ", indent)) {
      return indent + 2;
    }
    return indent >= 11 ? indent : Math.min(indent + 11, style.width() / 2);
  }

  private static int visibleLength(String line) {
    return line.replaceAll("\u001b\\[[0-9;]*m", "").length();
  }
}
