package dev.vtscope.report;

import com.fasterxml.jackson.databind.JsonNode;
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
import dev.vtscope.analysis.GroupBy;
import dev.vtscope.analysis.InputFacts;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.MonitorSummary;
import dev.vtscope.analysis.Note;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.analysis.PinnedSummary;
import dev.vtscope.analysis.RecordingFigures;
import dev.vtscope.analysis.RecordingSet;
import dev.vtscope.analysis.RecordingSettings;
import dev.vtscope.analysis.SchedulerSetting;
import dev.vtscope.analysis.SchedulerSettings;
import dev.vtscope.analysis.Site;
import dev.vtscope.analysis.SubmitFailedSummary;
import dev.vtscope.analysis.SubmitFailureGroup;
import dev.vtscope.attribution.Artifact;
import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.LineRange;
import dev.vtscope.attribution.MonitorFrame;
import dev.vtscope.attribution.Owner;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.JvmFacts;
import dev.vtscope.recording.RecordedStack;
import java.lang.reflect.Modifier;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads back the JSON document {@link JsonReport} writes, for {@code vtscope merge}: what a
 * recording's analysis said, with the durations behind every site ({@code distribution}), so that
 * reports of many recordings, each analysed where its application's jars are, add up to the
 * fleet's. Findings, the carrier-pool advice and the notes are read as the report worded them, with
 * their figures: they were made where the report was, from the recording itself.
 */
public final class JsonReportReader {

  private JsonReportReader() {}

  /** A document that is not a vtscope analysis report this release can merge. */
  public static final class NotAReportException extends Exception {
    NotAReportException(String message) {
      super(message);
    }
  }

  /**
   * What the report says.
   *
   * @throws NotAReportException naming what is missing or wrong
   */
  public static Report.Analyzed read(JsonNode root) throws NotAReportException {
    try {
      return parse(root);
    } catch (IllegalArgumentException | NullPointerException | DateTimeParseException e) {
      throw new NotAReportException("not a vtscope analysis report: " + e.getMessage());
    }
  }

  private static Report.Analyzed parse(JsonNode root) throws NotAReportException {
    if (root == null || !root.isObject() || !root.has("schemaVersion")) {
      throw new NotAReportException(
          "not a vtscope analysis report (vtscope analyze --format json writes one)");
    }
    if (root.has("checks") || root.has("before") || root.has("changes") || !root.has("pinned")) {
      throw new NotAReportException(
          "a report of check or diff, not of analyze: merge takes vtscope analyze --format json");
    }
    int version = root.path("schemaVersion").asInt();
    if (version < JsonReport.SCHEMA_VERSION) {
      throw new NotAReportException(
          "a report of schema version "
              + version
              + ", written by an older vtscope, which gave no recording its own figures: analyse"
              + " the recording again (this vtscope writes and merges version "
              + JsonReport.SCHEMA_VERSION
              + ")");
    }
    if (version != JsonReport.SCHEMA_VERSION) {
      throw new NotAReportException(
          "schema version " + version + ", this vtscope reads " + JsonReport.SCHEMA_VERSION);
    }
    GroupBy groupBy = groupBy(text(root.path("groupBy")));
    JsonNode jvmNode = root.path("jvm");
    JvmFacts jvm =
        text(jvmNode.path("version")) == null && jvmNode.path("feature").isNull()
            ? null
            : new JvmFacts(
                text(jvmNode.path("name")),
                text(jvmNode.path("vmVersion")),
                text(jvmNode.path("version")),
                jvmNode.path("feature").asInt(0),
                0,
                -1);
    int cpus = jvmNode.path("cpus").asInt(0);
    SchedulerSettings scheduler = scheduler(root.path("scheduler"));
    // carriers at once were counted against the scheduler of the recording they come from
    JsonNode heldNode = root.path("carriersHeld");
    int parallelism =
        heldNode.path("parallelism").isNumber()
            ? heldNode.path("parallelism").asInt()
            : Math.max(0, scheduler.parallelism().value());
    List<InputFacts> inputs = new ArrayList<>();
    for (JsonNode input : root.path("inputs")) {
      inputs.add(input(input, parallelism));
    }
    if (inputs.isEmpty()) {
      throw new NotAReportException("not a vtscope analysis report: it names no recording");
    }
    JsonNode pinnedNode = root.path("pinned");
    List<Site> pinnedSites = sites(pinnedNode.path("sites"));
    PinnedSummary pinned =
        new PinnedSummary(
            total(pinnedSites),
            pinnedNode.path("virtualThreads").asInt(),
            pinnedNode.path("truncatedStacks").asLong(),
            concurrency(pinnedNode, parallelism),
            pinnedSites);
    Concurrency held =
        root.path("carriersHeld").isObject()
            ? concurrency(root.path("carriersHeld"), parallelism)
            : null;
    List<Note> notes = new ArrayList<>();
    for (JsonNode note : root.path("notes")) {
      JsonNode of = note.path("of");
      Message message = Message.verbatim(text(note.path("message")), figures(note.path("figures")));
      if (of.isObject()) {
        // said of some of the report's recordings: which ones go with it into a merge
        message =
            Message.of(
                RecordingSet.IN_RECORDINGS,
                "count",
                of.path("recordings").asInt(),
                "recordings",
                inputs.size(),
                "names",
                strings(of.path("names")),
                "more",
                "",
                "note",
                Message.verbatim(text(of.path("message")), figures(of.path("figures"))));
      }
      notes.add(
          new Note(
              text(note.path("id")),
              Note.Severity.valueOf(text(note.path("severity")).toUpperCase(Locale.ROOT)),
              message));
    }
    Analysis analysis =
        Analysis.reported(
            inputs,
            jvm,
            cpus,
            scheduler,
            settings(root.path("recordingSettings")),
            groupBy,
            pinned,
            held,
            monitors(root.path("monitorEnter")),
            monitors(root.path("monitorWait")),
            submitFailed(root.path("submitFailed")),
            carrierWork(root.path("carrierWork")),
            carriersAtEnd(root.path("carriersAtEnd")),
            notes);
    List<Finding> findings = new ArrayList<>();
    for (JsonNode finding : root.path("findings")) {
      findings.add(finding(finding, inputs.size()));
    }
    return new Report.Analyzed(
        analysis, new Advice(findings, carrierPool(root.path("carrierPool"))));
  }

  /**
   * The recordings a report names, from its {@code inputs} array alone: enough to tell whether two
   * reports share a recording before either is read whole.
   *
   * @throws NotAReportException when it names none
   */
  public static List<InputFacts> inputs(JsonNode inputs) throws NotAReportException {
    List<InputFacts> read = new ArrayList<>();
    try {
      for (JsonNode input : inputs) {
        read.add(input(input, 0));
      }
    } catch (IllegalArgumentException | NullPointerException | DateTimeParseException e) {
      throw new NotAReportException("not a vtscope analysis report: " + e.getMessage());
    }
    if (read.isEmpty()) {
      throw new NotAReportException("not a vtscope analysis report: it names no recording");
    }
    return read;
  }

  /** One recording of the report, with what belongs to it alone. */
  private static InputFacts input(JsonNode input, int parallelism) {
    int feature = input.path("jdkFeature").asInt(0);
    long pid = input.path("pid").isNumber() ? input.path("pid").asLong() : -1;
    JvmFacts jvm =
        feature == 0 && text(input.path("jdkVersion")) == null
            ? null
            : new JvmFacts(
                null,
                null,
                text(input.path("jdkVersion")),
                feature,
                instant(input.path("jvmStart")),
                pid);
    JsonNode held = input.path("carriersHeld");
    RecordingFigures figures =
        new RecordingFigures(
            text(input.path("identity")),
            scheduler(input.path("scheduler")),
            settings(input.path("recordingSettings")),
            input.path("pinnedEvents").asLong(),
            input.path("pinnedNanos").asLong(),
            held.isObject()
                ? concurrency(held, held.path("parallelism").asInt(parallelism))
                : null);
    return new InputFacts(
        text(input.path("path")),
        input.path("files").asInt(1),
        input.path("chunks").asInt(0),
        instant(input.path("start")),
        input.path("durationNanos").asLong(0),
        jvm,
        input.path("cpus").asInt(0),
        text(input.path("problem")),
        List.of(),
        figures);
  }

  /** A finding as the report worded it, with its figures. */
  private static Finding finding(JsonNode node, int inputs) {
    Severity severity = severity(node.path("severity"));
    List<Message> actions = new ArrayList<>();
    for (JsonNode action : node.path("action")) {
      actions.add(Message.verbatim(action.asText(), Map.of()));
    }
    List<Evidence> evidence = new ArrayList<>();
    for (JsonNode e : node.path("evidence")) {
      evidence.add(
          new Evidence(
              text(e.path("label")),
              text(e.path("text")),
              e.path("value").isNumber() ? e.path("value").asLong() : null,
              text(e.path("unit"))));
    }
    Spread spread = null;
    if (node.path("recordings").isArray()) {
      List<Integer> recordings = new ArrayList<>();
      List<Severity> severities = new ArrayList<>();
      for (JsonNode r : node.path("recordings")) {
        recordings.add(r.path("input").asInt());
        severities.add(severity(r.path("severity")));
      }
      spread = new Spread(recordings, severities, node.path("figuresFrom").asInt(), inputs);
    }
    // a finding's figures are those of its explanation and then its title: all go with the words
    Finding finding =
        new Finding(
            text(node.path("id")),
            severity,
            Message.verbatim(text(node.path("title")), Map.of()),
            Message.verbatim(text(node.path("explanation")), figures(node.path("figures"))),
            actions,
            evidence,
            text(node.path("jdks")),
            text(node.path("documentation")),
            node.path("carrierNanos").asLong(),
            strings(node.path("classes")),
            strings(node.path("methods")),
            strings(node.path("notes")));
    return spread == null ? finding : finding.withSpread(spread);
  }

  private static Severity severity(JsonNode node) {
    Severity severity = Severity.parse(node.asText(""));
    if (severity == null) {
      throw new IllegalArgumentException("unknown severity " + node);
    }
    return severity;
  }

  /** The carrier-pool recommendation as the report worded it; null when it made none. */
  private static CarrierPool carrierPool(JsonNode node) {
    if (!node.isObject()) {
      return null;
    }
    List<Message> reasoning = new ArrayList<>();
    for (JsonNode r : node.path("reasoning")) {
      reasoning.add(Message.verbatim(r.asText(), Map.of()));
    }
    JsonNode current = node.path("current");
    JsonNode recommended = node.path("recommended");
    return new CarrierPool(
        new CarrierPool.Settings(
            current.path("parallelism").asInt(), current.path("maxPoolSize").asInt()),
        new CarrierPool.Settings(
            recommended.path("parallelism").asInt(), recommended.path("maxPoolSize").asInt()),
        node.path("change").asBoolean(),
        text(node.path("javaOptions")),
        node.path("peakHeldCarriers").asInt(),
        node.path("p99HeldCarriers").asInt(),
        node.path("saturatedNanos").asLong(),
        reasoning,
        node.path("input").isNumber() ? node.path("input").asInt() : -1);
  }

  /** Figures as a report gave them: numbers, text, and lists of these. */
  private static Map<String, Object> figures(JsonNode node) {
    Map<String, Object> figures = new LinkedHashMap<>();
    node.fields()
        .forEachRemaining(
            e -> {
              Object value = figure(e.getValue());
              if (value != null) {
                figures.put(e.getKey(), value);
              }
            });
    return figures;
  }

  private static Object figure(JsonNode node) {
    if (node.isIntegralNumber()) {
      return node.asLong();
    } else if (node.isNumber()) {
      return node.asDouble();
    } else if (node.isTextual()) {
      return node.asText();
    } else if (node.isArray()) {
      List<Object> values = new ArrayList<>();
      node.forEach(
          v -> {
            Object value = figure(v);
            if (value != null) {
              values.add(value);
            }
          });
      return values;
    }
    return null;
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(v -> values.add(v.asText()));
    return values;
  }

  /** What the carriers held at the end; null for a report without (or from before) the section. */
  private static CarriersAtEnd carriersAtEnd(JsonNode node) {
    if (!node.isObject()) {
      return null;
    }
    List<PinnedNow> pinned = new ArrayList<>();
    for (JsonNode p : node.path("pinned")) {
      Attribution attribution = null;
      if (p.path("culprit").isObject()) {
        JsonNode w = p.path("waitedAt");
        Frame waitedAt =
            w.isObject()
                ? new Frame(
                    text(w.path("class")),
                    text(w.path("method")),
                    text(w.path("descriptor")),
                    w.path("line").isNull() ? -1 : w.path("line").asInt(-1),
                    -1,
                    null,
                    0,
                    Frame.ClassLoaderKind.UNKNOWN)
                : null;
        attribution =
            new Attribution(
                culprit(p.path("culprit")), List.of(), waitedAt, null, null, List.of(), null);
      }
      pinned.add(
          new PinnedNow(
              p.path("virtualThread").asLong(-1),
              "",
              p.path("carrier").isNull() ? -1 : p.path("carrier").asLong(-1),
              attribution));
    }
    long before = instant(node.path("previousThreadDumpAt"));
    return new CarriersAtEnd(
        instant(node.path("threadDumpAt")),
        node.path("carriers").asInt(),
        node.path("carrying").asInt(),
        node.path("stacksPrinted").asBoolean(),
        pinned,
        node.path("unchanged").asInt(),
        node.path("running").asInt(),
        before == 0 ? -1 : before,
        node.path("undetermined").asInt(),
        node.path("input").asInt());
  }

  private static GroupBy groupBy(String label) {
    for (GroupBy g : GroupBy.values()) {
      if (g.label().equals(label)) {
        return g;
      }
    }
    throw new IllegalArgumentException("unknown groupBy " + label);
  }

  private static SchedulerSettings scheduler(JsonNode node) {
    return new SchedulerSettings(
        setting(node.path("parallelism")),
        setting(node.path("maxPoolSize")),
        setting(node.path("minRunnable")),
        node.path("carriersStarted").isNull() ? -1 : node.path("carriersStarted").asInt(-1));
  }

  private static SchedulerSetting setting(JsonNode node) {
    String label = text(node.path("source"));
    SchedulerSetting.Source source = SchedulerSetting.Source.ASSUMED_DEFAULT;
    for (SchedulerSetting.Source s : SchedulerSetting.Source.values()) {
      if (s.label().equals(label)) {
        source = s;
      }
    }
    return new SchedulerSetting(
        text(node.path("property")),
        node.path("value").isNull() ? -1 : node.path("value").asInt(-1),
        source);
  }

  private static RecordingSettings settings(JsonNode node) {
    return new RecordingSettings(
        bool(node.path("pinnedEnabled")),
        number(node.path("pinnedThresholdNanos")),
        bool(node.path("submitFailedEnabled")),
        bool(node.path("monitorEnterEnabled")),
        number(node.path("monitorEnterThresholdNanos")),
        bool(node.path("monitorWaitEnabled")),
        number(node.path("monitorWaitThresholdNanos")),
        node.path("stackDepth").isNumber() ? node.path("stackDepth").asInt() : null);
  }

  private static Concurrency concurrency(JsonNode node, int parallelism) {
    List<Long> levels = new ArrayList<>();
    levels.add(0L);
    for (JsonNode level : node.path("nanosByConcurrentCarriers")) {
      int carriers = level.path("carriers").asInt();
      while (levels.size() <= carriers) {
        levels.add(0L);
      }
      levels.set(carriers, level.path("nanos").asLong());
    }
    return new Concurrency(
        node.path("peakConcurrentCarriers").asInt(),
        node.path("saturatedNanos").asLong(),
        parallelism,
        levels);
  }

  private static MonitorSummary monitors(JsonNode node) {
    if (!node.isObject()) {
      return null;
    }
    List<Site> sites = sites(node.path("sites"));
    return new MonitorSummary(total(sites), node.path("virtualThreads").asInt(), sites);
  }

  private static SubmitFailedSummary submitFailed(JsonNode node) {
    List<SubmitFailureGroup> groups = new ArrayList<>();
    for (JsonNode g : node.path("groups")) {
      groups.add(
          new SubmitFailureGroup(
              text(g.path("message")),
              text(g.path("example")),
              g.path("events").asLong(),
              g.path("virtualThreads").asInt(),
              stack(g.path("stack"), g.path("stackTruncated").asBoolean()),
              instant(g.path("firstSeen")),
              instant(g.path("lastSeen"))));
    }
    return new SubmitFailedSummary(node.path("events").asLong(), groups);
  }

  private static CarrierWork carrierWork(JsonNode node) {
    JsonNode cpu = node.path("cpu");
    JsonNode file = node.path("fileIo");
    JsonNode compensation = node.path("compensation");
    List<Site> fileSites = sites(file.path("sites"));
    boolean startStacks = compensation.path("startStacks").asBoolean();
    return new CarrierWork(
        bool(cpu.path("samplesEnabled")),
        text(cpu.path("samplePeriod")),
        cpu.path("samples").asLong(),
        cpu.path("nativeSamples").asLong(),
        cpu.path("sampledVirtualThreads").asInt(),
        cpu.path("runs").asLong(),
        cpu.path("longRuns").asLong(),
        cpu.path("longRunTotalNanos").asLong(),
        cpu.path("longestRunNanos").asLong(),
        sites(cpu.path("sites")),
        bool(file.path("enabled")),
        number(file.path("thresholdNanos")),
        total(fileSites),
        file.path("virtualThreads").asInt(),
        fileSites,
        startStacks,
        startStacks ? compensation.path("carriersStarted").asLong() : -1,
        sites(compensation.path("sites")));
  }

  /** The durations of all of {@code sites}: each event is in one site. */
  private static DurationSummary total(List<Site> sites) {
    return RecordingSet.durationsOf(sites);
  }

  private static List<Site> sites(JsonNode array) {
    List<Site> sites = new ArrayList<>();
    for (JsonNode node : array) {
      sites.add(site(node));
    }
    return sites;
  }

  private static Site site(JsonNode node) {
    String key = text(node.path("key"));
    JsonNode distribution = node.path("distribution");
    if (!distribution.isObject()) {
      throw new IllegalArgumentException(
          "site "
              + key
              + " has no distribution: the report was written by a vtscope release before merge;"
              + " analyse the recording again");
    }
    Distribution d =
        distribution.has("histogram")
            ? Distribution.decodeHistogram(text(distribution.path("histogram")))
            : Distribution.values(longs(distribution.path("values")));
    long events = node.path("events").asLong();
    if (d.count() != events) {
      throw new IllegalArgumentException(
          "site " + key + ": its distribution holds " + d.count() + " durations, not " + events);
    }
    DurationSummary durations =
        new DurationSummary(
            events,
            node.path("totalNanos").asLong(),
            node.path("minNanos").asLong(),
            node.path("meanNanos").asLong(),
            node.path("p50Nanos").asLong(),
            node.path("p90Nanos").asLong(),
            node.path("p99Nanos").asLong(),
            node.path("maxNanos").asLong(),
            d);
    RecordedStack stack = stack(node.path("stack"), node.path("stackTruncated").asBoolean());
    List<Owner> owners = new ArrayList<>();
    for (JsonNode frame : node.path("stack")) {
      String owner = text(frame.path("owner"));
      owners.add(owner == null ? Owner.JDK : Owner.valueOf(owner.toUpperCase(Locale.ROOT)));
    }
    Attribution attribution = null;
    if (node.path("culprit").isObject()) {
      List<MonitorFrame> others = new ArrayList<>();
      for (JsonNode m : node.path("otherMonitorFrames")) {
        others.add(
            new MonitorFrame(
                indexOf(stack, m),
                CulpritKind.valueOf(text(m.path("kind"))),
                lineRange(m.path("lineRange"))));
      }
      attribution =
          new Attribution(
              culprit(node.path("culprit")),
              others,
              frameIn(stack, node.path("waitedAt")),
              frameIn(stack, node.path("calledFrom")),
              artifact(text(node.path("calledFromArtifact")), null, null, null, null),
              owners,
              blockingCall(node.path("blockedIn")));
    }
    return new Site(
        key,
        durations,
        node.path("virtualThreads").asInt(),
        instant(node.path("firstSeen")),
        instant(node.path("lastSeen")),
        stack,
        stack.topApplicationFrame(),
        node.path("truncatedStacks").asLong(),
        counts(node.path("reasons"), text(node.path("reason")), events),
        counts(node.path("blockingOperations"), text(node.path("blockingOperation")), events),
        counts(node.path("monitorClasses"), text(node.path("monitorClass")), events),
        attribution,
        nanosByInput(node.path("nanosByInput")));
  }

  /** Of a report of several recordings, the site's time in each, by index into inputs. */
  private static Map<Integer, Long> nanosByInput(JsonNode node) {
    Map<Integer, Long> byInput = new LinkedHashMap<>();
    if (node.isObject()) {
      node.fields()
          .forEachRemaining(e -> byInput.put(Integer.parseInt(e.getKey()), e.getValue().asLong()));
    }
    return byInput;
  }

  private static Culprit culprit(JsonNode c) {
    return new Culprit(
        text(c.path("class")),
        text(c.path("method")),
        c.path("line").isNull() ? -1 : c.path("line").asInt(-1),
        CulpritKind.valueOf(text(c.path("kind"))),
        Owner.valueOf(text(c.path("owner")).toUpperCase(Locale.ROOT)),
        artifact(
            text(c.path("artifact")),
            text(c.path("artifactVersion")),
            text(c.path("artifactSource")),
            text(c.path("jar")),
            text(c.path("artifactHeader"))),
        lineRange(c.path("lineRange")),
        c.path("frameIndex").isNull() ? -1 : c.path("frameIndex").asInt(-1),
        text(c.path("detail")));
  }

  /**
   * An artifact from how a report shows it: {@code group:artifact:version}, without the group when
   * no Maven metadata named it. Reports of earlier versions showed a manifest's name as {@code
   * Title version} and a Maven artifact without version as {@code group:artifact:?}.
   */
  private static Artifact artifact(
      String display, String version, String source, String jar, String header) {
    if (display == null) {
      return null;
    }
    Artifact.Source from =
        source != null
            ? artifactSource(source)
            : display.chars().filter(ch -> ch == ':').count() == 2 && !display.contains(" ")
                ? Artifact.Source.MAVEN
                : Artifact.Source.MANIFEST;
    String name = display;
    String v = version;
    if (v != null && (display.endsWith(":" + v) || display.endsWith(" " + v))) {
      name = display.substring(0, display.length() - v.length() - 1);
    } else if (v == null) {
      // only the shown name is known (calledFromArtifact): its last part is the version when it
      // starts with a digit, as versions do and artifacts and groups do not
      int colon = display.lastIndexOf(':');
      int space = display.lastIndexOf(' ');
      int at = from == Artifact.Source.MAVEN ? colon : Math.max(colon, space);
      String last = at < 0 ? "" : display.substring(at + 1);
      if (last.equals("?") || (!last.isEmpty() && Character.isDigit(last.charAt(0)))) {
        name = display.substring(0, at);
        v = last.equals("?") ? null : last;
      }
    }
    return new Artifact(name, v, from, jar, from == Artifact.Source.MANIFEST ? header : null);
  }

  /** A source this version does not know (a later one's) is at least not Maven coordinates. */
  private static Artifact.Source artifactSource(String source) {
    for (Artifact.Source s : Artifact.Source.values()) {
      if (s.name().equalsIgnoreCase(source)) {
        return s;
      }
    }
    return Artifact.Source.MANIFEST;
  }

  private static LineRange lineRange(JsonNode node) {
    return node.isObject()
        ? new LineRange(node.path("first").asInt(), node.path("last").asInt())
        : null;
  }

  private static RecordedStack stack(JsonNode frames, boolean truncated) {
    List<Frame> list = new ArrayList<>();
    for (JsonNode f : frames) {
      int modifiers =
          (f.path("synchronized").asBoolean() ? Modifier.SYNCHRONIZED : 0)
              | (f.path("native").asBoolean() ? Modifier.NATIVE : 0);
      String loader = text(f.path("loader"));
      list.add(
          new Frame(
              text(f.path("class")),
              text(f.path("method")),
              text(f.path("descriptor")),
              f.path("line").isNull() ? -1 : f.path("line").asInt(-1),
              f.path("bytecodeIndex").isNull() ? -1 : f.path("bytecodeIndex").asInt(-1),
              text(f.path("type")),
              modifiers,
              loader == null
                  ? Frame.ClassLoaderKind.UNKNOWN
                  : Frame.ClassLoaderKind.valueOf(loader.toUpperCase(Locale.ROOT))));
    }
    return new RecordedStack(list, truncated);
  }

  /** The frame of {@code stack} that {@code ref} ({@code class, method, line}) names, or null. */
  private static Frame frameIn(RecordedStack stack, JsonNode ref) {
    int i = indexOf(stack, ref);
    return i < 0 ? null : stack.frames().get(i);
  }

  private static int indexOf(RecordedStack stack, JsonNode ref) {
    if (!ref.isObject()) {
      return -1;
    }
    String cls = text(ref.path("class"));
    String method = text(ref.path("method"));
    int line = ref.path("line").isNull() ? -1 : ref.path("line").asInt(-1);
    List<Frame> frames = stack.frames();
    for (int i = 0; i < frames.size(); i++) {
      Frame f = frames.get(i);
      if (f.className().equals(cls) && f.method().equals(method) && f.line() == line) {
        return i;
      }
    }
    return -1;
  }

  /** Counts by value; a report without them gives all of the site's events to its top value. */
  private static Map<String, Long> counts(JsonNode node, String top, long events) {
    Map<String, Long> counts = new LinkedHashMap<>();
    if (node.isObject()) {
      node.fields().forEachRemaining(e -> counts.put(e.getKey(), e.getValue().asLong()));
    } else if (top != null) {
      counts.put(top, events);
    }
    return counts;
  }

  private static long[] longs(JsonNode array) {
    if (!array.isArray()) {
      throw new IllegalArgumentException("a distribution without values");
    }
    long[] values = new long[array.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = array.get(i).asLong();
    }
    return values;
  }

  private static long instant(JsonNode node) {
    if (node.isNull() || node.isMissingNode()) {
      return 0;
    }
    Instant t = Instant.parse(node.asText());
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }

  private static String text(JsonNode node) {
    return node.isNull() || node.isMissingNode() ? null : node.asText();
  }

  private static Boolean bool(JsonNode node) {
    return node.isBoolean() ? node.asBoolean() : null;
  }

  private static Long number(JsonNode node) {
    return node.isNumber() ? node.asLong() : null;
  }

  /** A compensated site's blocking call, as {@code blockedIn} gives it; null when absent. */
  private static dev.vtscope.attribution.BlockingCall blockingCall(JsonNode node) {
    if (!node.isObject() || text(node.path("method")) == null) {
      return null;
    }
    dev.vtscope.attribution.BlockingKind kind;
    try {
      kind = dev.vtscope.attribution.BlockingKind.valueOf(text(node.path("kind")));
    } catch (IllegalArgumentException | NullPointerException e) {
      kind = null;
    }
    return new dev.vtscope.attribution.BlockingCall(
        text(node.path("method")),
        kind,
        text(node.path("during")),
        node.path("byRecorder").asBoolean());
  }
}
