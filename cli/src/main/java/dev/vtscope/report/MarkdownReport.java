package dev.vtscope.report;

import dev.vtscope.advice.Advice;
import dev.vtscope.advice.CarrierPool;
import dev.vtscope.advice.Evidence;
import dev.vtscope.advice.Finding;
import dev.vtscope.advice.RecordingVerdict;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.InputFacts;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.RecordingSet;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.scan.ScanAgreement;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The analysis as GitHub-flavoured Markdown, for a pull-request comment or a CI job summary: the
 * findings with their fixes, the carrier-pool line and the top sites, within GitHub's comment size
 * (findings and sites that do not fit are counted, not cut in the middle).
 */
public final class MarkdownReport implements ReportRenderer {

  private static final Wording WORDING = Wording.markdown();

  /** GitHub rejects comments longer than 65,536 characters; reports stay well under it. */
  static final int MAX_CHARS = 60_000;

  /** Sites listed in the table. */
  private static final int TOP_SITES = 10;

  @Override
  public void render(Report report, PrintWriter out) {
    // instanceof rather than a switch on the sealed type: a pattern switch makes a class at
    // start-up (SwitchBootstraps) that no class-data archive keeps.
    if (report instanceof Report.Analyzed r) {
      analysis(r.analysis(), r.advice(), r.scan(), out);
    } else if (report instanceof Report.Checked r) {
      CheckReport.markdown(r.result(), r.recordings(), r.dumps() ? "dump" : "recording", out);
    } else if (report instanceof Report.Compared r) {
      DiffReport.markdown(r.result(), out);
    } else if (report instanceof Report.DumpsAnalyzed r) {
      DumpReport.markdown(r.analysis(), r.advice(), out);
    } else if (report instanceof Report.Scanned r) {
      ScanReport.markdown(r.result(), r.recorded(), out);
    } else {
      throw new IllegalArgumentException("not a report: " + report);
    }
  }

  private void analysis(Analysis a, Advice advice, ScanAgreement scan, PrintWriter out) {
    StringBuilder md = new StringBuilder();
    md.append("## vtscope: virtual-thread report\n\n");
    if (a.inputs().size() > RecordingVerdict.SHOWN) {
      md.append(Escaping.markdownText(WORDING.format(RecordingSet.header(a.inputs()))))
          .append("\n");
    }
    for (InputFacts input :
        a.inputs().size() > RecordingVerdict.SHOWN ? List.<InputFacts>of() : a.inputs()) {
      md.append("- ").append(Escaping.markdownCode(input.name()));
      List<String> facts = new ArrayList<>();
      if (input.jvm() != null && input.jvm().javaVersion() != null) {
        facts.add("JDK " + input.jvm().javaVersion());
      }
      if (input.durationNanos() > 0) {
        facts.add(HumanDurations.format(input.durationNanos()) + " recorded");
      }
      if (input.problem() != null) {
        facts.add("read in part");
      }
      md.append(facts.isEmpty() ? "" : " (" + String.join(", ", facts) + ")").append('\n');
    }
    md.append('\n');
    summary(a, md);
    md.append(recordings(a, advice));
    List<String> names = a.inputs().stream().map(InputFacts::name).toList();
    List<String> blocks = new ArrayList<>();
    for (Finding f : advice.findings()) {
      blocks.add(finding(f, names));
    }
    String pool = carrierPool(a, advice.carrierPool());
    String sites = sites(a, scan);
    int budget = MAX_CHARS - md.length() - pool.length() - sites.length() - 200;
    int shown = 0;
    for (String block : blocks) {
      if (block.length() > budget) {
        break;
      }
      md.append(block);
      budget -= block.length();
      shown++;
    }
    if (shown < blocks.size()) {
      md.append("_… ")
          .append(blocks.size() - shown)
          .append(" more findings: `vtscope analyze` lists them all._\n\n");
    }
    md.append(pool).append(sites);
    out.print(md);
    out.flush();
  }

  private static void summary(Analysis a, StringBuilder md) {
    md.append("| | |\n|---|---|\n");
    row(
        md,
        "pinned",
        a.pinned().events() == 0
            ? "none recorded"
            : a.pinned().events()
                + " events, "
                + HumanDurations.format(a.pinned().totalNanos())
                + ", peak "
                + a.pinned().concurrency().peak()
                + " pinned at once"
                + (a.carriers().peak() != a.pinned().concurrency().peak()
                    ? " (" + a.carriers().peak() + " pinned or entering a monitor)"
                    : ""));
    if (a.monitorEnter() != null) {
      row(
          md,
          "monitor enter / wait",
          a.monitorEnter().events()
              + " / "
              + a.monitorWait().events()
              + " events of virtual threads (carriers held)");
    }
    if (a.carrierWork().longRuns() > 0) {
      row(
          md,
          "long runs on a carrier",
          a.carrierWork().longRuns()
              + ", "
              + HumanDurations.format(a.carrierWork().longRunTotalNanos())
              + " at least");
    }
    if (a.carrierWork().fileIo().count() > 0) {
      row(
          md,
          "file I/O of virtual threads",
          a.carrierWork().fileIo().count()
              + " calls, "
              + HumanDurations.format(a.carrierWork().fileIo().totalNanos()));
    }
    row(
        md,
        "submit failed",
        a.submitFailed().events() == 0 ? "none" : a.submitFailed().events() + " tasks rejected");
    if (a.carriersAtEnd() != null) {
      row(md, "at the end", TextReport.atTheEnd(a.carriersAtEnd()));
    }
    md.append('\n');
  }

  private static void row(StringBuilder md, String label, String value) {
    md.append("| ").append(label).append(" | ").append(Escaping.markdownText(value)).append(" |\n");
  }

  /** Of several recordings, a table of them, the worst first. */
  private static String recordings(Analysis a, Advice advice) {
    if (a.inputs().size() < 2) {
      return "";
    }
    StringBuilder md = new StringBuilder();
    md.append(
        "| recording | JDK | recorded | parallelism | pinned | all carriers held | worst finding |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    List<RecordingVerdict> rows = RecordingVerdict.of(a, advice);
    for (RecordingVerdict row : rows.subList(0, Math.min(RecordingVerdict.SHOWN, rows.size()))) {
      InputFacts input = row.input();
      md.append("| ")
          .append(Escaping.markdownCodeCell(input.name()))
          .append(" | ")
          .append(
              input.jvm() == null || input.jvm().javaVersion() == null
                  ? "?"
                  : Escaping.markdownText(input.jvm().javaVersion()))
          .append(" | ")
          .append(HumanDurations.format(input.durationNanos()))
          .append(" | ")
          .append(
              input.figures() == null || input.figures().scheduler().parallelism().value() < 0
                  ? "?"
                  : Integer.toString(input.figures().scheduler().parallelism().value()))
          .append(" | ")
          .append(HumanDurations.format(row.pinnedNanos()))
          .append(" | ")
          .append(
              input.figures() == null
                  ? "?"
                  : HumanDurations.format(
                          input.figures().held() == null
                              ? 0
                              : input.figures().held().saturatedNanos())
                      + " ("
                      + Message.Share.percent(row.saturatedShare())
                      + ")")
          .append(" | ")
          .append(
              row.healthy()
                  ? "healthy"
                  : row.severity().label() + ": " + Escaping.markdownText(row.worst().id()))
          .append(" |\n");
    }
    if (rows.size() > RecordingVerdict.SHOWN) {
      md.append("\n_")
          .append(
              Escaping.markdownText(
                  WORDING.format(
                      Message.of("recordings.more", "more", rows.size() - RecordingVerdict.SHOWN))))
          .append("_\n");
    }
    return md.append('\n').toString();
  }

  /** One finding as a section; {@code names} are the report's inputs, which a finding names. */
  static String finding(Finding f, List<String> names) {
    StringBuilder md = new StringBuilder();
    md.append("### ")
        .append(f.severity().label().toUpperCase(Locale.ROOT))
        .append(": ")
        .append(Escaping.markdownText(WORDING.title(f)))
        .append("\n\n");
    if (f.spread() != null) {
      md.append("_")
          .append(Escaping.markdownText(WORDING.format(f.spread().said(names))))
          .append("_\n\n");
    }
    md.append(Escaping.markdownText(WORDING.explanation(f))).append("\n\n");
    for (String action : WORDING.actions(f)) {
      md.append("- ").append(Escaping.markdownText(action)).append('\n');
    }
    List<String> evidence = new ArrayList<>();
    for (Evidence e : f.evidence()) {
      evidence.add(e.label() + ": " + e.text());
    }
    if (!evidence.isEmpty()) {
      md.append("\n<sub>")
          .append(Escaping.markdownText(String.join(" · ", evidence)))
          .append("</sub>\n");
    }
    md.append('\n');
    return md.toString();
  }

  private static String carrierPool(Analysis a, CarrierPool pool) {
    if (pool == null) {
      return "";
    }
    return (pool.recording() < 0
            ? "**Carrier pool:** "
            : "**Carrier pool** (for "
                + Escaping.markdownCode(a.inputs().get(pool.recording()).name())
                + "): ")
        + (pool.javaOptions() == null
            ? "keep it (parallelism "
                + pool.current().parallelism()
                + ", maxPoolSize "
                + pool.current().maxPoolSize()
                + ")"
            : Escaping.markdownCode(pool.javaOptions()))
        + (pool.reasoning().isEmpty()
            ? ""
            : " — " + Escaping.markdownText(WORDING.format(pool.reasoning().get(0))))
        + "\n\n";
  }

  /**
   * @param scan with {@code --scan}, which sites the scan predicted; else null
   */
  private static String sites(Analysis a, ScanAgreement scan) {
    List<Site> sites = a.sitesByTime();
    if (sites.isEmpty()) {
      return "";
    }
    StringBuilder md = new StringBuilder("<details><summary>Top sites</summary>\n\n");
    md.append("| time | events | holds the carrier | kind | called from |\n");
    md.append("|---:|---:|---|---|---|\n");
    for (Site s : sites.subList(0, Math.min(TOP_SITES, sites.size()))) {
      Attribution attribution = s.attribution();
      Culprit c = attribution == null ? null : attribution.culprit();
      md.append("| ")
          .append(HumanDurations.format(s.durations().totalNanos()))
          .append(" | ")
          .append(s.durations().count())
          .append(" | ")
          .append(c == null ? "" : Escaping.markdownCodeCell(c.qualifiedMethod()))
          .append(" | ")
          .append(c == null ? "" : c.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '))
          .append(scan != null && scan.prediction(s) != null ? ", predicted by scan" : "")
          .append(" | ")
          .append(
              attribution == null || attribution.calledFrom() == null
                  ? ""
                  : Escaping.markdownCodeCell(attribution.calledFrom().display()))
          .append(" |\n");
    }
    if (sites.size() > TOP_SITES) {
      md.append("\n_").append(sites.size() - TOP_SITES).append(" more sites._\n");
    }
    md.append("\n</details>\n");
    return md.toString();
  }
}
