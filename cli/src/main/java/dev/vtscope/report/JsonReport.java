package dev.vtscope.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vtscope.advice.Advice;
import dev.vtscope.advice.CarrierPool;
import dev.vtscope.advice.Evidence;
import dev.vtscope.advice.Finding;
import dev.vtscope.advice.Severity;
import dev.vtscope.advice.Spread;
import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarrierWork;
import dev.vtscope.analysis.CarriersAtEnd;
import dev.vtscope.analysis.Concurrency;
import dev.vtscope.analysis.Distribution;
import dev.vtscope.analysis.DurationSummary;
import dev.vtscope.analysis.InputFacts;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.MonitorSummary;
import dev.vtscope.analysis.Note;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.analysis.RecordingFigures;
import dev.vtscope.analysis.RecordingSet;
import dev.vtscope.analysis.RecordingSettings;
import dev.vtscope.analysis.SchedulerSetting;
import dev.vtscope.analysis.SchedulerSettings;
import dev.vtscope.analysis.Site;
import dev.vtscope.analysis.SubmitFailureGroup;
import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.LineRange;
import dev.vtscope.attribution.MonitorFrame;
import dev.vtscope.attribution.Owner;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.JvmFacts;
import dev.vtscope.recording.RecordedStack;
import dev.vtscope.scan.ScanAgreement;
import dev.vtscope.scan.ScanFinding;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON document described in {@code docs/json.md} and {@code docs/vtscope-report.schema.json}.
 * Durations are integer nanoseconds; instants are ISO-8601 in UTC.
 */
public final class JsonReport implements ReportRenderer {

  private static final Wording WORDING = Wording.standard();

  /** Bumped when a field is removed or changes meaning; adding fields keeps the version. */
  public static final int SCHEMA_VERSION = 2;

  private final String toolVersion;

  public JsonReport(String toolVersion) {
    this.toolVersion = toolVersion;
  }

  @Override
  public void render(Report report, PrintWriter out) {
    // instanceof rather than a switch on the sealed type: a pattern switch makes a class at
    // start-up (SwitchBootstraps) that no class-data archive keeps.
    if (report instanceof Report.Analyzed r) {
      ObjectNode document = document(r.analysis(), r.advice());
      if (r.scan() != null) {
        scan(document, r.analysis(), r.scan());
      }
      out.println(JsonText.pretty(document));
      out.flush();
    } else if (report instanceof Report.Checked r) {
      CheckReport.json(r.result(), r.recordings(), toolVersion, out);
    } else if (report instanceof Report.Compared r) {
      DiffReport.json(r.result(), toolVersion, out);
    } else if (report instanceof Report.DumpsAnalyzed r) {
      DumpReport.json(r.analysis(), r.advice(), toolVersion, out);
    } else if (report instanceof Report.Scanned r) {
      ScanReport.json(r.result(), r.recorded(), toolVersion, out);
    } else {
      throw new IllegalArgumentException("not a report: " + report);
    }
  }

  /**
   * With {@code --scan}: on each pinned and monitor site, the finding that predicted it or null;
   * and the scan's high and medium findings this analysis did not hit, all of them.
   */
  private static void scan(ObjectNode root, Analysis a, ScanAgreement agreement) {
    predicted(root.path("pinned").path("sites"), a.pinned().sites(), agreement);
    if (a.monitorEnter() != null) {
      predicted(root.path("monitorEnter").path("sites"), a.monitorEnter().sites(), agreement);
      predicted(root.path("monitorWait").path("sites"), a.monitorWait().sites(), agreement);
    }
    ObjectNode scan = root.putObject("scan");
    scan.put("classes", agreement.scan().classes());
    scan.put("depth", agreement.scan().depth());
    scan.put("findings", agreement.scan().findings().size());
    scan.put("findingsHit", agreement.hits().size());
    ArrayNode notHit = scan.putArray("notHit");
    agreement.notHit().forEach(f -> notHit.add(ScanReport.finding(f)));
  }

  private static void predicted(
      com.fasterxml.jackson.databind.JsonNode nodes, List<Site> sites, ScanAgreement agreement) {
    for (int i = 0; i < sites.size() && i < nodes.size(); i++) {
      ScanFinding f = agreement.prediction(sites.get(i));
      ObjectNode node = (ObjectNode) nodes.get(i);
      if (f == null) {
        node.putNull("predictedByScan");
      } else {
        node.putObject("predictedByScan")
            .put("severity", f.severity().label())
            .put("score", f.score())
            .put("kind", f.kind().name())
            .set("chain", ScanReport.chain(f));
      }
    }
  }

  /** The document as a tree, for renderers and tests that need it. */
  public ObjectNode document(Analysis a, Advice advice) {
    ObjectNode root = JsonText.object();
    root.put("schemaVersion", SCHEMA_VERSION);
    root.putObject("tool").put("name", "vtscope").put("version", toolVersion);
    ArrayNode inputs = root.putArray("inputs");
    List<Advice.Worst> worst = advice.worstByRecording(a.inputs().size());
    for (int index = 0; index < a.inputs().size(); index++) {
      InputFacts input = a.inputs().get(index);
      ObjectNode node = inputs.addObject();
      node.put("path", input.name());
      node.put("files", input.files());
      node.put("chunks", input.chunks());
      putInstant(node, "start", input.startNanos());
      node.put("durationNanos", input.durationNanos());
      node.put(
          "jdkFeature",
          input.jvm() == null ? null : input.jvm().feature() == 0 ? null : input.jvm().feature());
      node.put("jdkVersion", input.jvm() == null ? null : input.jvm().javaVersion());
      node.put("complete", input.problem() == null);
      node.put("problem", input.problem());
      recording(node, input, worst.get(index));
    }
    root.set("jvm", jvm(a));
    root.set("scheduler", scheduler(a));
    root.set("recordingSettings", settings(a.settings()));
    root.put("groupBy", a.groupBy().label());
    root.set("pinned", pinned(a));
    ObjectNode carriersHeld = held(a.carriers());
    if (carriersHeld != null) {
      // the scheduler these figures were held against, of the recording they come from
      carriersHeld.put("parallelism", a.carriers().parallelism());
      carriersHeld.put("input", a.inputs().indexOf(RecordingSet.worstRecording(a.inputs())));
    }
    root.set("carriersHeld", carriersHeld);
    root.set("monitorEnter", monitors(a.monitorEnter()));
    root.set("monitorWait", monitors(a.monitorWait()));
    root.set("carrierWork", carrierWork(a.carrierWork()));
    ObjectNode submit = root.putObject("submitFailed");
    submit.put("events", a.submitFailed().events());
    ArrayNode groups = submit.putArray("groups");
    for (SubmitFailureGroup g : a.submitFailed().groups()) {
      ObjectNode node = groups.addObject();
      node.put("message", g.message());
      node.put("example", g.example());
      node.put("events", g.events());
      node.put("virtualThreads", g.virtualThreads());
      putInstant(node, "firstSeen", g.firstSeenNanos());
      putInstant(node, "lastSeen", g.lastSeenNanos());
      node.put("stackTruncated", g.stack().truncated());
      node.set("stack", stack(g.stack(), null));
    }
    root.set("carriersAtEnd", carriersAtEnd(a.carriersAtEnd()));
    ArrayNode findings = root.putArray("findings");
    List<String> names = a.inputs().stream().map(InputFacts::name).toList();
    advice.findings().forEach(f -> findings.add(finding(f, names)));
    root.set("carrierPool", carrierPool(advice.carrierPool()));
    ArrayNode notes = root.putArray("notes");
    for (Note note : a.notes()) {
      ObjectNode item =
          notes
              .addObject()
              .put("id", note.id())
              .put("severity", note.severity().name().toLowerCase(Locale.ROOT))
              .put("message", WORDING.message(note));
      item.set("figures", JsonText.tree(Wording.figures(note.message())));
      if (note.message().key().equals(RecordingSet.IN_RECORDINGS)) {
        // said of some recordings only: which, and the note itself, to be said again by a merge
        Message inner = (Message) note.message().args().get("note");
        ObjectNode of = item.putObject("of");
        of.put("recordings", ((Number) note.message().args().get("count")).intValue());
        ArrayNode named = of.putArray("names");
        ((List<?>) note.message().args().get("names")).forEach(n -> named.add(n.toString()));
        of.put("message", WORDING.format(inner));
        of.set("figures", JsonText.tree(Wording.figures(inner)));
      }
    }
    return root;
  }

  /**
   * What belongs to the recording {@code input} alone, and what {@code merge} needs to add reports
   * up without counting a recording twice: its identity, its JVM's scheduler and cores, its JFR
   * settings, its pinned time, the carriers it held at once, and its worst finding.
   */
  private static void recording(ObjectNode node, InputFacts input, Advice.Worst worst) {
    RecordingFigures f = input.figures();
    if (f == null) {
      return;
    }
    node.put("identity", f.identity());
    node.put("pid", input.jvm() == null || input.jvm().pid() < 0 ? null : input.jvm().pid());
    putInstant(node, "jvmStart", input.jvm() == null ? 0 : input.jvm().jvmStartNanos());
    node.put("cpus", input.cpus() == 0 ? null : input.cpus());
    node.set("scheduler", scheduler(f.scheduler()));
    node.set("recordingSettings", settings(f.settings()));
    node.put("pinnedEvents", f.pinnedEvents());
    node.put("pinnedNanos", f.pinnedNanos());
    ObjectNode held = held(f.held());
    if (held != null) {
      held.put("parallelism", f.held().parallelism());
    }
    node.set("carriersHeld", held);
    // nothing above info: the recording is healthy, as its own report says
    boolean healthy = worst == null || worst.severity() == Severity.INFO;
    node.put("worstFinding", healthy ? "healthy" : worst.finding().id());
    node.put("worstSeverity", healthy ? Severity.INFO.label() : worst.severity().label());
  }

  private static ObjectNode jvm(Analysis a) {
    ObjectNode node = JsonText.object();
    JvmFacts jvm = a.jvm();
    node.put("name", jvm == null ? null : jvm.jvmName());
    node.put("version", jvm == null ? null : jvm.javaVersion());
    node.put("feature", jvm == null || jvm.feature() == 0 ? null : jvm.feature());
    node.put("vmVersion", jvm == null ? null : jvm.jvmVersion());
    node.put("cpus", a.cpus() == 0 ? null : a.cpus());
    return node;
  }

  private static ObjectNode scheduler(Analysis a) {
    return scheduler(a.scheduler());
  }

  private static ObjectNode scheduler(SchedulerSettings s) {
    ObjectNode node = JsonText.object();
    putSetting(node, "parallelism", s.parallelism());
    putSetting(node, "maxPoolSize", s.maxPoolSize());
    putSetting(node, "minRunnable", s.minRunnable());
    node.put("carriersStarted", s.carriersStarted() < 0 ? null : s.carriersStarted());
    return node;
  }

  private static void putSetting(ObjectNode parent, String name, SchedulerSetting setting) {
    ObjectNode node = parent.putObject(name);
    node.put("value", setting.value() < 0 ? null : setting.value());
    node.put("set", setting.source() == SchedulerSetting.Source.SET);
    node.put("source", setting.source().label());
    node.put("property", setting.property());
  }

  private static ObjectNode settings(RecordingSettings s) {
    ObjectNode node = JsonText.object();
    node.put("pinnedEnabled", s.pinnedEnabled());
    node.put("pinnedThresholdNanos", s.pinnedThresholdNanos());
    node.put("submitFailedEnabled", s.submitFailedEnabled());
    node.put("monitorEnterEnabled", s.monitorEnterEnabled());
    node.put("monitorEnterThresholdNanos", s.monitorEnterThresholdNanos());
    node.put("monitorWaitEnabled", s.monitorWaitEnabled());
    node.put("monitorWaitThresholdNanos", s.monitorWaitThresholdNanos());
    node.put("stackDepth", s.stackDepth());
    return node;
  }

  private static ObjectNode pinned(Analysis a) {
    ObjectNode node = JsonText.object();
    node.put("events", a.pinned().events());
    node.put("totalNanos", a.pinned().totalNanos());
    putDurations(node, a.pinned().durations());
    node.put("virtualThreads", a.pinned().virtualThreads());
    node.put("truncatedStacks", a.pinned().truncatedStacks());
    Concurrency c = a.pinned().concurrency();
    node.put("peakConcurrentCarriers", c.peak());
    node.put("saturatedNanos", c.saturatedNanos());
    ArrayNode levels = node.putArray("nanosByConcurrentCarriers");
    for (int level = 1; level < c.nanosAtLevel().size(); level++) {
      levels.addObject().put("carriers", level).put("nanos", c.nanosAtLevel().get(level));
    }
    node.set("sites", sites(a.pinned().sites()));
    return node;
  }

  /** What the carriers held when the recording ended, from its last thread dump; null without. */
  private static ObjectNode carriersAtEnd(CarriersAtEnd end) {
    if (end == null) {
      return null;
    }
    ObjectNode node = JsonText.object();
    node.put("input", end.input());
    putInstant(node, "threadDumpAt", end.atNanos());
    node.put("carriers", end.carriers());
    node.put("carrying", end.carrying());
    node.put("stacksPrinted", end.stacksPrinted());
    node.put("heldBlocked", end.held());
    ArrayNode pinned = node.putArray("pinned");
    for (PinnedNow p : end.pinned()) {
      ObjectNode item = pinned.addObject();
      item.put("virtualThread", p.tid());
      item.put("carrier", p.carrier() < 0 ? null : p.carrier());
      Attribution attribution = p.attribution();
      item.set("culprit", attribution == null ? null : culprit(attribution.culprit()));
      item.set("waitedAt", frame(attribution == null ? null : attribution.waitedAt()));
    }
    node.put("unchanged", end.unchanged());
    node.put("running", end.running());
    putInstant(node, "previousThreadDumpAt", end.beforeNanos());
    node.put("undetermined", end.undetermined());
    return node;
  }

  private static ObjectNode held(Concurrency c) {
    if (c == null) {
      return null;
    }
    ObjectNode node = JsonText.object();
    node.put("peakConcurrentCarriers", c.peak());
    node.put("saturatedNanos", c.saturatedNanos());
    ArrayNode levels = node.putArray("nanosByConcurrentCarriers");
    for (int level = 1; level < c.nanosAtLevel().size(); level++) {
      levels.addObject().put("carriers", level).put("nanos", c.nanosAtLevel().get(level));
    }
    return node;
  }

  /**
   * One finding, as {@code findings[]} and {@code vtscope check} write it; {@code names} are the
   * report's recordings, which a finding of several names.
   */
  public static ObjectNode finding(Finding f, List<String> names) {
    ObjectNode node = JsonText.object();
    node.put("id", f.id());
    node.put("severity", f.severity().label());
    node.put("title", WORDING.title(f));
    node.put("explanation", WORDING.explanation(f));
    java.util.Map<String, Object> figures = new java.util.LinkedHashMap<>();
    Wording.figures(f.explanation()).forEach(figures::putIfAbsent);
    Wording.figures(f.title()).forEach(figures::putIfAbsent);
    node.set("figures", JsonText.tree(figures));
    ArrayNode actions = node.putArray("action");
    WORDING.actions(f).forEach(actions::add);
    ArrayNode evidence = node.putArray("evidence");
    for (Evidence e : f.evidence()) {
      ObjectNode item = evidence.addObject().put("label", e.label()).put("text", e.text());
      item.put("value", e.value());
      item.put("unit", e.unit());
    }
    node.put("carrierNanos", f.carrierNanos());
    node.put("jdks", f.jdks());
    node.put("documentation", f.documentation());
    ArrayNode classes = node.putArray("classes");
    f.classes().forEach(classes::add);
    ArrayNode methods = node.putArray("methods");
    f.methods().forEach(methods::add);
    ArrayNode notes = node.putArray("notes");
    f.notes().forEach(notes::add);
    Spread spread = f.spread();
    if (spread == null) {
      node.putNull("recordings");
      node.putNull("figuresFrom");
    } else {
      ArrayNode recordings = node.putArray("recordings");
      for (int k = 0; k < spread.recordings().size(); k++) {
        recordings
            .addObject()
            .put("input", spread.recordings().get(k))
            .put("path", names.get(spread.recordings().get(k)))
            .put("severity", spread.severities().get(k).label());
      }
      node.put("figuresFrom", spread.worst());
    }
    return node;
  }

  private static ObjectNode carrierPool(CarrierPool pool) {
    if (pool == null) {
      return null;
    }
    ObjectNode node = JsonText.object();
    node.putObject("current")
        .put("parallelism", pool.current().parallelism())
        .put("maxPoolSize", pool.current().maxPoolSize());
    node.putObject("recommended")
        .put("parallelism", pool.recommended().parallelism())
        .put("maxPoolSize", pool.recommended().maxPoolSize());
    node.put("change", pool.change());
    node.put("javaOptions", pool.javaOptions());
    node.put("peakHeldCarriers", pool.peak());
    node.put("p99HeldCarriers", pool.p99());
    node.put("saturatedNanos", pool.saturatedNanos());
    ArrayNode reasoning = node.putArray("reasoning");
    pool.reasoning().forEach(r -> reasoning.add(WORDING.format(r)));
    node.put("input", pool.recording() < 0 ? null : pool.recording());
    return node;
  }

  private static ObjectNode monitors(MonitorSummary m) {
    if (m == null) {
      return null;
    }
    ObjectNode node = JsonText.object();
    node.put("events", m.events());
    node.put("totalNanos", m.durations().totalNanos());
    node.put("virtualThreads", m.virtualThreads());
    node.set("sites", sites(m.sites()));
    return node;
  }

  private static ObjectNode carrierWork(CarrierWork w) {
    ObjectNode node = JsonText.object();
    ObjectNode cpu = node.putObject("cpu");
    cpu.put("samplesEnabled", w.samplesEnabled());
    cpu.put("samplePeriod", w.samplePeriod());
    cpu.put("samples", w.samples());
    cpu.put("nativeSamples", w.nativeSamples());
    cpu.put("sampledVirtualThreads", w.sampledThreads());
    cpu.put("maxGapNanos", CarrierWork.maxGapNanos());
    cpu.put("runs", w.runs());
    cpu.put("longRunMinNanos", CarrierWork.longRunNanos());
    cpu.put("longRuns", w.longRuns());
    cpu.put("longRunTotalNanos", w.longRunTotalNanos());
    cpu.put("longestRunNanos", w.longestRunNanos());
    cpu.set("sites", sites(w.runSites()));
    ObjectNode file = node.putObject("fileIo");
    file.put("enabled", w.fileIoEnabled());
    file.put("thresholdNanos", w.fileIoThreshold());
    file.put("events", w.fileIo().count());
    file.put("totalNanos", w.fileIo().totalNanos());
    file.put("virtualThreads", w.fileIoThreads());
    file.set("sites", sites(w.fileIoSites()));
    ObjectNode compensation = node.putObject("compensation");
    compensation.put("startStacks", w.startStacks());
    compensation.put("carriersStarted", w.startStacks() ? w.compensatedStarts() : null);
    compensation.set("sites", sites(w.compensationSites()));
    return node;
  }

  private static ArrayNode sites(List<Site> sites) {
    ArrayNode array = JsonText.array();
    for (Site site : sites) {
      ObjectNode node = array.addObject();
      node.put("key", site.key());
      node.put("events", site.durations().count());
      node.put("totalNanos", site.durations().totalNanos());
      putDurations(node, site.durations());
      node.put("virtualThreads", site.virtualThreads());
      putInstant(node, "firstSeen", site.firstSeenNanos());
      putInstant(node, "lastSeen", site.lastSeenNanos());
      node.set("topFrame", frame(site.stack().topFrame()));
      node.set("topApplicationFrame", frame(site.topApplicationFrame()));
      node.put("reason", site.reason());
      node.put("blockingOperation", site.blockingOperation());
      node.set("reasons", counts(site.reasons()));
      node.put("monitorClass", site.monitorClass());
      node.set("blockingOperations", counts(site.blockingOperations()));
      node.set("monitorClasses", counts(site.monitorClasses()));
      node.put("truncatedStacks", site.truncatedStacks());
      Attribution attribution = site.attribution();
      node.set("culprit", attribution == null ? null : culprit(attribution.culprit()));
      ArrayNode others = node.putArray("otherMonitorFrames");
      if (attribution != null) {
        for (MonitorFrame m : attribution.otherMonitorFrames()) {
          Frame f = site.stack().frames().get(m.frameIndex());
          ObjectNode o = others.addObject();
          o.put("class", f.className());
          o.put("method", f.method());
          o.put("line", f.line() < 0 ? null : f.line());
          o.put("kind", m.kind().name());
          o.set("lineRange", lineRange(m.lineRange()));
        }
      }
      node.set(
          "waitedAt",
          frame(attribution == null ? site.topApplicationFrame() : attribution.waitedAt()));
      node.set("calledFrom", frame(attribution == null ? null : attribution.calledFrom()));
      node.put(
          "calledFromArtifact",
          attribution == null || attribution.calledFromArtifact() == null
              ? null
              : attribution.calledFromArtifact().display());
      if (attribution != null && attribution.blockedIn() != null) {
        dev.vtscope.attribution.BlockingCall b = attribution.blockedIn();
        node.putObject("blockedIn")
            .put("method", b.method())
            .put("kind", b.kind() == null ? null : b.kind().name())
            .put("during", b.during())
            .put("byRecorder", b.byRecorder());
      }
      node.put("stackTruncated", site.stack().truncated());
      node.set("stack", stack(site.stack(), attribution == null ? null : attribution.owners()));
      node.set("distribution", distribution(site.durations().distribution()));
      if (!site.nanosByInput().isEmpty()) {
        ObjectNode byInput = node.putObject("nanosByInput");
        new java.util.TreeMap<>(site.nanosByInput())
            .forEach((input, nanos) -> byInput.put(String.valueOf(input), nanos));
      }
    }
    return array;
  }

  /**
   * The durations behind a site's figures, for {@code vtscope merge}: as they are while few, else
   * the percentiles' histogram (HdrHistogram's compressed encoding, base 64).
   */
  private static ObjectNode distribution(Distribution d) {
    if (d == null) {
      return null;
    }
    ObjectNode node = JsonText.object();
    long[] values = d.values();
    if (values != null) {
      ArrayNode array = node.putArray("values");
      for (long v : values) {
        array.add(v);
      }
    } else {
      node.put("histogram", d.encodedHistogram());
    }
    return node;
  }

  private static ObjectNode counts(Map<String, Long> counts) {
    ObjectNode node = JsonText.object();
    counts.forEach(node::put);
    return node;
  }

  private static void putDurations(ObjectNode node, DurationSummary d) {
    node.put("minNanos", d.minNanos());
    node.put("meanNanos", d.meanNanos());
    node.put("p50Nanos", d.p50Nanos());
    node.put("p90Nanos", d.p90Nanos());
    node.put("p99Nanos", d.p99Nanos());
    node.put("maxNanos", d.maxNanos());
  }

  static ObjectNode frame(Frame frame) {
    if (frame == null) {
      return null;
    }
    ObjectNode node = JsonText.object();
    node.put("class", frame.className());
    node.put("method", frame.method());
    node.put("descriptor", frame.descriptor());
    node.put("line", frame.line() < 0 ? null : frame.line());
    return node;
  }

  private static ObjectNode culprit(Culprit c) {
    ObjectNode node = JsonText.object();
    node.put("class", c.className());
    node.put("method", c.method());
    node.put("line", c.line() < 0 ? null : c.line());
    node.put("kind", c.kind().name());
    node.put("owner", c.owner().name().toLowerCase(Locale.ROOT));
    node.put("artifact", c.artifact() == null ? null : c.artifact().display());
    node.put("artifactVersion", c.artifact() == null ? null : c.artifact().version());
    node.put(
        "artifactSource",
        c.artifact() == null ? null : c.artifact().source().name().toLowerCase(Locale.ROOT));
    node.put("artifactHeader", c.artifact() == null ? null : c.artifact().header());
    node.put("jar", c.artifact() == null ? null : c.artifact().jar());
    node.set("lineRange", lineRange(c.lineRange()));
    node.put("frameIndex", c.frameIndex() < 0 ? null : c.frameIndex());
    node.put("detail", c.detail());
    return node;
  }

  private static ObjectNode lineRange(LineRange range) {
    if (range == null) {
      return null;
    }
    ObjectNode node = JsonText.object();
    node.put("first", range.first());
    node.put("last", range.last());
    return node;
  }

  static ArrayNode stack(RecordedStack stack, List<Owner> owners) {
    ArrayNode frames = JsonText.array();
    for (int i = 0; i < stack.frames().size(); i++) {
      Frame f = stack.frames().get(i);
      ObjectNode fn = frames.addObject();
      fn.put("class", f.className());
      fn.put("method", f.method());
      fn.put("descriptor", f.descriptor());
      fn.put("line", f.line() < 0 ? null : f.line());
      fn.put("bytecodeIndex", f.bytecodeIndex() < 0 ? null : f.bytecodeIndex());
      fn.put("type", f.type());
      fn.put("synchronized", f.isSynchronizedMethod());
      fn.put("native", f.isNativeMethod());
      fn.put("loader", f.loader().name().toLowerCase(Locale.ROOT));
      fn.put("owner", owners == null ? null : owners.get(i).name().toLowerCase(Locale.ROOT));
    }
    return frames;
  }

  private static void putInstant(ObjectNode node, String name, long epochNanos) {
    if (epochNanos <= 0 || epochNanos == Long.MAX_VALUE) {
      node.putNull(name);
      return;
    }
    node.put(name, Instant.ofEpochSecond(0, epochNanos).toString());
  }
}
