package dev.vtscope.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vtscope.advice.Advice;
import dev.vtscope.advice.Evidence;
import dev.vtscope.advice.Finding;
import dev.vtscope.advice.RecordingVerdict;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarrierTimeline;
import dev.vtscope.analysis.DumpAnalysis;
import dev.vtscope.analysis.HumanDurations;
import dev.vtscope.analysis.InputFacts;
import dev.vtscope.analysis.Site;
import dev.vtscope.analysis.StackTree;
import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.recording.Frame;
import dev.vtscope.scan.ScanAgreement;
import dev.vtscope.waits.DumpWaits;
import dev.vtscope.waits.WaitGroup;
import dev.vtscope.waits.WaitSeries;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * One self-contained HTML file: the findings, a timeline of carriers held, a flame graph of pinned
 * stacks and the sites, drawn in the browser from the analysis embedded as JSON; for thread dumps,
 * the findings and what the threads wait for, in groups whose example stack opens on a click. The
 * page is the resource {@code report.html}; this class only writes the data into it. Nothing is
 * fetched when the page is opened, and every text of the recording reaches the page as data, set as
 * text.
 */
public final class HtmlReport implements ReportRenderer {

  private static final Wording WORDING = Wording.standard();

  /** The place in the template the data goes. */
  private static final String DATA = "/*VTSCOPE_DATA*/";

  /** Sites per section embedded: the aggregate is bounded whatever the recording's size. */
  static final int MAX_SITES = 200;

  /** Frames per site's stack embedded. */
  static final int MAX_FRAMES = 128;

  @Override
  public void render(Report report, PrintWriter out) {
    ObjectNode data =
        switch (report) {
          case Report.Analyzed r -> data(r.analysis(), r.advice(), r.scan());
          case Report.DumpsAnalyzed r -> dumpData(r.analysis(), r.advice());
          default ->
              throw new IllegalArgumentException(
                  "an HTML report shows an analysis, not a check or a diff");
        };
    String page = template();
    int at = page.indexOf(DATA);
    out.print(page.substring(0, at));
    out.print(JsonText.forScript(data));
    out.print(page.substring(at + DATA.length()));
    out.flush();
  }

  private static String template() {
    try (InputStream in = HtmlReport.class.getResourceAsStream("report.html")) {
      if (in == null) {
        throw new IllegalStateException("report.html is missing from vtscope's jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ObjectNode data(Analysis a, Advice advice) {
    return data(a, advice, null);
  }

  /**
   * @param scan with {@code --scan}, which sites the scan predicted; else null
   */
  static ObjectNode data(Analysis a, Advice advice, ScanAgreement scan) {
    ObjectNode root = JsonText.object();
    ArrayNode inputs = root.putArray("inputs");
    for (InputFacts input : a.inputs()) {
      inputs.add(
          input.name()
              + (input.jvm() != null && input.jvm().javaVersion() != null
                  ? " (JDK " + input.jvm().javaVersion() + ", "
                  : " (")
              + HumanDurations.format(input.durationNanos())
              + " recorded)");
    }
    findings(root, advice, a.inputs().stream().map(InputFacts::name).toList());
    if (advice.carrierPool() != null) {
      ObjectNode pool = root.putObject("carrierPool");
      pool.put("javaOptions", advice.carrierPool().javaOptions());
      pool.put(
          "keep",
          "keep: parallelism "
              + advice.carrierPool().recommended().parallelism()
              + ", maxPoolSize "
              + advice.carrierPool().recommended().maxPoolSize());
      pool.put(
          "recording",
          advice.carrierPool().recording() < 0
              ? null
              : a.inputs().get(advice.carrierPool().recording()).name());
      ArrayNode reasoning = pool.putArray("reasoning");
      advice.carrierPool().reasoning().forEach(r -> reasoning.add(WORDING.format(r)));
    } else {
      root.putNull("carrierPool");
    }
    // of several recordings, a row each, the worst first
    ArrayNode recordings = root.putArray("recordings");
    List<RecordingVerdict> verdicts =
        a.several() ? RecordingVerdict.of(a, advice) : List.<RecordingVerdict>of();
    for (RecordingVerdict row : verdicts.subList(0, Math.min(MAX_ROWS, verdicts.size()))) {
      InputFacts input = row.input();
      ObjectNode item = recordings.addObject();
      item.put("name", input.name());
      item.put(
          "jdk",
          input.jvm() == null || input.jvm().javaVersion() == null
              ? "?"
              : input.jvm().javaVersion());
      item.put("recorded", HumanDurations.format(input.durationNanos()));
      int parallelism =
          input.figures() == null ? -1 : input.figures().scheduler().parallelism().value();
      item.put("parallelism", parallelism < 0 ? "?" : Integer.toString(parallelism));
      item.put("pinned", HumanDurations.format(row.pinnedNanos()));
      item.put(
          "held",
          HumanDurations.format(row.saturatedNanos())
              + " ("
              + dev.vtscope.analysis.Message.Share.percent(row.saturatedShare())
              + ")");
      item.put(
          "verdict", row.healthy() ? "healthy" : row.severity().label() + ": " + row.worst().id());
    }
    root.put("recordingsLeft", Math.max(0, verdicts.size() - MAX_ROWS));
    // one timeline per recording (the worst first), never one of several JVMs' carriers
    ArrayNode timelines = root.putArray("timelines");
    if (a.parts().isEmpty()) {
      timelines.addObject().put("name", "").set("timeline", timeline(a.timeline()));
    } else {
      List<RecordingVerdict> rows = RecordingVerdict.of(a, advice);
      for (RecordingVerdict row : rows.subList(0, Math.min(MAX_TIMELINES, rows.size()))) {
        ObjectNode item = timelines.addObject();
        item.put(
            "name",
            "[" + (row.healthy() ? "healthy" : row.severity().label()) + "] " + row.input().name());
        item.set("timeline", timeline(a.parts().get(row.index()).timeline()));
      }
      root.put("timelinesLeft", Math.max(0, rows.size() - MAX_TIMELINES));
    }
    root.set("timeline", timelines.get(0).get("timeline"));
    root.set("tree", tree(a.pinnedTree().root()));
    // carriers held with no pin to draw: monitor waits, CPU runs, file I/O
    root.put(
        "heldWithoutPins",
        (a.monitorWait() != null && a.monitorWait().events() > 0)
            || a.carrierWork().longRuns() > 0
            || a.carrierWork().fileIo().count() > 0);
    ArrayNode sites = root.putArray("sites");
    int[] id = {0};
    a.siteSections().forEach((section, list) -> sites(sites, section, list, id, scan));
    return root;
  }

  /** The findings, most severe first, worded as the other renderers word them. */
  private static void findings(ObjectNode root, Advice advice, List<String> names) {
    ArrayNode findings = root.putArray("findings");
    for (Finding f : advice.findings()) {
      ObjectNode node = findings.addObject();
      node.put("severity", f.severity().label());
      node.put("title", WORDING.title(f));
      node.put("explanation", WORDING.explanation(f));
      ArrayNode actions = node.putArray("actions");
      WORDING.actions(f).forEach(actions::add);
      ArrayNode evidence = node.putArray("evidence");
      for (Evidence e : f.evidence()) {
        evidence.add(e.label() + ": " + e.text());
      }
      node.put("spread", f.spread() == null ? null : WORDING.format(f.spread().said(names)));
    }
  }

  /** Wait groups embedded: the aggregate is bounded however many threads wait differently. */
  static final int MAX_GROUPS = 500;

  /**
   * The page of a dump analysis: the dumps, the findings, the wait groups (or a series' trends) and
   * the notes. Names from the dumps keep their length but have hidden characters written visibly: a
   * thread may be named with a terminal's escape sequence, which a page would hide.
   */
  static ObjectNode dumpData(DumpAnalysis a, Advice advice) {
    UnaryOperator<String> name = Escaping::visible;
    ObjectNode root = JsonText.object();
    root.put("kind", "dumps");
    root.put(
        "title",
        "vtscope: what the threads wait for"
            + (a.isSeries() ? ", over " + a.series().dumps().size() + " dumps" : ""));
    ArrayNode inputs = root.putArray("inputs");
    for (int i = 0; i < a.names().size(); i++) {
      inputs.add(
          name.apply(a.names().get(i))
              + " ("
              + DumpReport.facts(a.series().dumps().get(i).dump(), name)
              + ")");
    }
    DumpWaits last = a.last();
    root.put(
        "threads",
        DumpReport.number(last.threads())
            + " threads"
            + (a.isSeries() ? " in the last dump" : "")
            + ": "
            + DumpReport.kinds(last)
            + "; "
            + DumpReport.carriersHeld(last));
    findings(root, advice, a.names());
    ArrayNode groups = root.putArray("groups");
    if (a.isSeries()) {
      WaitSeries s = a.series();
      String span =
          s.span() == null
              ? "between the dumps"
              : "for at least " + HumanDurations.format(s.span().toNanos());
      for (WaitSeries.Trend t : s.groups().subList(0, Math.min(MAX_GROUPS, s.groups().size()))) {
        ObjectNode node = group(groups, a.latestGroup(t.key()), name);
        ArrayNode counts = node.putArray("counts");
        t.threads().forEach(counts::add);
        node.put("persistent", t.persistent());
        int now = t.threads().get(t.threads().size() - 1);
        node.put(
            "status",
            t.stuck()
                ? "stuck " + span + ": the same threads in every dump"
                : now > 0
                    ? "moving: " + DumpReport.number(t.arrived()) + " new since the dump before"
                    : "gone by the last dump");
      }
      root.put("groupsLeft", Math.max(0, s.groups().size() - MAX_GROUPS));
    } else {
      for (WaitGroup g : last.groups().subList(0, Math.min(MAX_GROUPS, last.groups().size()))) {
        group(groups, g, name);
      }
      root.put("groupsLeft", Math.max(0, last.groups().size() - MAX_GROUPS));
    }
    root.put("series", a.isSeries());
    ArrayNode notes = root.putArray("notes");
    a.notes().forEach(n -> notes.add(name.apply(n)));
    return root;
  }

  private static ObjectNode group(ArrayNode groups, WaitGroup g, UnaryOperator<String> name) {
    ObjectNode node = groups.addObject();
    node.put("kind", g.key().kind().id());
    node.put("threads", g.threads());
    node.put("carriersHeld", g.carriersHeld());
    node.put("what", DumpReport.describe(g, false, name));
    ArrayNode sampled = node.putArray("sampled");
    for (WaitGroup.SampledThread t : g.sampled()) {
      sampled.add("#" + t.tid() + " \"" + name.apply(t.name()) + "\"");
    }
    node.put("more", g.threads() - g.sampled().size());
    List<Frame> frames = g.example() == null ? List.of() : g.example().frames();
    ArrayNode stack = node.putArray("stack");
    for (Frame f : frames.subList(0, Math.min(MAX_FRAMES, frames.size()))) {
      stack.add(name.apply(f.display()));
    }
    node.put("entry", g.entry() == null ? -1 : frames.indexOf(g.entry()));
    node.put("site", g.site() == null ? -1 : frames.indexOf(g.site()));
    return node;
  }

  /** Recordings of several listed in the page's table, the worst first. */
  static final int MAX_ROWS = 200;

  /** Recordings of several whose timelines are embedded, the worst first. */
  static final int MAX_TIMELINES = 20;

  private static ObjectNode timeline(CarrierTimeline t) {
    ObjectNode timeline = JsonText.object();
    timeline.put("start", t.startNanos());
    timeline.put("bucketNanos", t.bucketNanos());
    ArrayNode pinned = timeline.putArray("pinned");
    for (int v : t.pinned()) {
      pinned.add(v);
    }
    ArrayNode held = timeline.putArray("held");
    for (int v : t.held()) {
      held.add(v);
    }
    timeline.put("parallelism", t.parallelism());
    ArrayNode marks = timeline.putArray("submitFailures");
    t.submitFailures().forEach(marks::add);
    return timeline;
  }

  /**
   * The tree, flat and depth first, each node in short keys: frame, total, events, kind, holder and
   * its depth, from which the page puts the tree back together. Flat, a stack however deep nests no
   * deeper in the JSON, and the walk is a loop.
   */
  private static ArrayNode tree(StackTree.Node root) {
    ArrayNode flat = JsonText.array();
    Deque<StackTree.Node> nodes = new ArrayDeque<>();
    Deque<Integer> depths = new ArrayDeque<>();
    nodes.push(root);
    depths.push(0);
    while (!nodes.isEmpty()) {
      StackTree.Node node = nodes.pop();
      int depth = depths.pop();
      ObjectNode n = flat.addObject();
      n.put("f", node.frame());
      n.put("t", node.totalNanos());
      n.put("e", node.events());
      n.put("k", node.culprit() == null ? null : node.culprit().name());
      n.put("h", node.holder());
      n.put("d", depth);
      for (int i = node.children().size() - 1; i >= 0; i--) {
        nodes.push(node.children().get(i));
        depths.push(depth + 1);
      }
    }
    return flat;
  }

  private static void sites(
      ArrayNode out, String section, List<Site> sites, int[] id, ScanAgreement scan) {
    for (Site s : sites.subList(0, Math.min(MAX_SITES, sites.size()))) {
      ObjectNode node = out.addObject();
      Attribution attribution = s.attribution();
      Culprit c = attribution == null ? null : attribution.culprit();
      node.put("id", id[0]++);
      node.put("section", section);
      node.put("holder", c == null ? s.key() : c.qualifiedMethod());
      node.put("kind", c == null ? "" : c.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '));
      node.put("owner", c == null ? "" : c.owner().name().toLowerCase(Locale.ROOT));
      node.put("artifact", c == null || c.artifact() == null ? null : c.artifact().display());
      node.put("detail", c == null ? null : c.detail());
      dev.vtscope.scan.ScanFinding predicted = scan == null ? null : scan.prediction(s);
      if (predicted != null) {
        node.put(
            "predicted",
            "predicted by scan ("
                + predicted.severity().label()
                + ", risk "
                + predicted.score()
                + ")");
      }
      node.put("total", s.durations().totalNanos());
      node.put("events", s.durations().count());
      node.put("threads", s.virtualThreads());
      node.put("p50", s.durations().p50Nanos());
      node.put("p99", s.durations().p99Nanos());
      node.put("max", s.durations().maxNanos());
      node.put("firstSeen", s.firstSeenNanos());
      node.put("lastSeen", s.lastSeenNanos());
      node.put(
          "waitedAt",
          attribution == null
              ? (s.topApplicationFrame() == null ? null : s.topApplicationFrame().display())
              : attribution.waitedAt() == null ? null : attribution.waitedAt().display());
      node.put(
          "calledFrom",
          attribution == null || attribution.calledFrom() == null
              ? null
              : attribution.calledFrom().display());
      List<Frame> frames = s.stack().frames();
      ArrayNode stack = node.putArray("stack");
      for (Frame f : frames.subList(0, Math.min(MAX_FRAMES, frames.size()))) {
        stack.add(f.display());
      }
      int holder = c == null ? -1 : c.frameIndex();
      node.put("holderIndex", holder);
      node.put(
          "holderFrame",
          holder >= 0 && holder < frames.size() ? frames.get(holder).qualifiedMethod() : null);
    }
  }
}
