package dev.vtscope.analysis;

import dev.vtscope.recording.JvmFacts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An analysis as a report wrote it ({@code vtscope analyze --format json}), read back, with the
 * report's notes as they were worded; and the sum of several such reports, the fleet's analysis:
 * sites of the same key add up (their durations exactly, from the distribution each site carries),
 * distinct virtual threads add up (thread ids are per JVM), carriers held at once are those of the
 * recording that held most. Findings and advice are made again from the sum.
 *
 * @param analysis what the report says, without the timeline and flame graph a report leaves out
 * @param notes the report's notes, as worded there
 */
public record ReportedAnalysis(Analysis analysis, List<ReportedNote> notes) {

  public ReportedAnalysis {
    notes = List.copyOf(notes);
  }

  /** A note of a report, as worded there. */
  public record ReportedNote(String id, String severity, String message) {}

  /**
   * An analysis of the parts a report holds: the carriers-held timeline and the flame graph, which
   * a JSON report leaves out, are empty; the notes are not made yet.
   */
  public static Analysis analysis(
      List<InputFacts> inputs,
      JvmFacts jvm,
      int cpus,
      SchedulerSettings scheduler,
      RecordingSettings settings,
      GroupBy groupBy,
      PinnedSummary pinned,
      Concurrency held,
      MonitorSummary monitorEnter,
      MonitorSummary monitorWait,
      SubmitFailedSummary submitFailed,
      CarrierWork carrierWork,
      CarriersAtEnd carriersAtEnd) {
    return new Analysis(
        inputs,
        jvm,
        cpus,
        scheduler,
        settings,
        groupBy,
        pinned,
        held,
        monitorEnter,
        monitorWait,
        submitFailed,
        carrierWork,
        new CarrierTimeline(
            0, 1, new int[0], new int[0], Math.max(0, scheduler.parallelism().value()), List.of()),
        StackTree.of(List.of()),
        carriersAtEnd,
        List.of());
  }

  /**
   * The durations of all of {@code sites}, each of which carries its distribution: every event of a
   * section is in one of its sites.
   */
  public static DurationSummary durationsOf(List<Site> sites) {
    DurationStatistics all = new DurationStatistics();
    for (Site site : sites) {
      all.addAll(site.durations());
    }
    return all.summary();
  }

  /**
   * The sum of {@code reports}: one analysis of every recording they name, as if analysed together.
   *
   * @throws IllegalArgumentException when the reports group their sites differently (their keys
   *     would not match), or when there are none
   */
  public static Analysis merge(List<ReportedAnalysis> reports, AnalysisOptions options) {
    if (reports.isEmpty()) {
      throw new IllegalArgumentException("no report to merge");
    }
    GroupBy groupBy = reports.get(0).analysis().groupBy();
    for (ReportedAnalysis r : reports) {
      if (r.analysis().groupBy() != groupBy) {
        throw new IllegalArgumentException(
            "the reports group sites differently ("
                + groupBy.label()
                + " and "
                + r.analysis().groupBy().label()
                + "): analyse them with the same --group-by");
      }
    }
    List<Analysis> all = reports.stream().map(ReportedAnalysis::analysis).toList();
    List<InputFacts> inputs = new ArrayList<>();
    int[] offsets = new int[all.size()];
    for (int i = 0; i < all.size(); i++) {
      offsets[i] = inputs.size();
      inputs.addAll(all.get(i).inputs());
    }
    Analysis first = all.stream().filter(a -> a.jvm() != null).findFirst().orElse(all.get(0));
    SiteSum pinnedSites = new SiteSum();
    SiteSum enterSites = new SiteSum();
    SiteSum waitSites = new SiteSum();
    SiteSum runSites = new SiteSum();
    SiteSum fileSites = new SiteSum();
    SiteSum compensationSites = new SiteSum();
    int pinnedThreads = 0;
    int enterThreads = 0;
    int waitThreads = 0;
    int fileThreads = 0;
    int sampledThreads = 0;
    long truncated = 0;
    long samples = 0;
    long nativeSamples = 0;
    long runs = 0;
    long longRuns = 0;
    long longRunNanos = 0;
    long longest = 0;
    long compensated = 0;
    boolean startStacks = false;
    boolean anyMonitors = false;
    long submitEvents = 0;
    // grouped as one recording's are: by message pattern and stack
    Map<SubmitFailureCollector.Key, SubmitFailureGroup> groups = new LinkedHashMap<>();
    Concurrency worstPinned = null;
    Concurrency worstHeld = null;
    CarriersAtEnd worstEnd = null;
    int worstInput = 0;
    for (int i = 0; i < all.size(); i++) {
      Analysis a = all.get(i);
      pinnedSites.add(a.pinned().sites(), offsets[i]);
      pinnedThreads += a.pinned().virtualThreads();
      truncated += a.pinned().truncatedStacks();
      worstPinned = Concurrency.worse(worstPinned, a.pinned().concurrency());
      Concurrency held = a.carriers() != null ? a.carriers() : a.pinned().concurrency();
      Concurrency worse = Concurrency.worse(worstHeld, held);
      if (worse != worstHeld) {
        worstInput = offsets[i];
      }
      worstHeld = worse;
      if (a.carriersAtEnd() != null) {
        worstEnd =
            CarriersAtEnd.worse(
                worstEnd, a.carriersAtEnd().withInput(offsets[i] + a.carriersAtEnd().input()));
      }
      if (a.monitorEnter() != null) {
        anyMonitors = true;
        enterSites.add(a.monitorEnter().sites(), offsets[i]);
        waitSites.add(a.monitorWait().sites(), offsets[i]);
        enterThreads += a.monitorEnter().virtualThreads();
        waitThreads += a.monitorWait().virtualThreads();
      }
      CarrierWork w = a.carrierWork();
      runSites.add(w.runSites(), offsets[i]);
      fileSites.add(w.fileIoSites(), offsets[i]);
      compensationSites.add(w.compensationSites(), offsets[i]);
      samples += w.samples();
      nativeSamples += w.nativeSamples();
      sampledThreads += w.sampledThreads();
      runs += w.runs();
      longRuns += w.longRuns();
      longRunNanos += w.longRunTotalNanos();
      longest = Math.max(longest, w.longestRunNanos());
      fileThreads += w.fileIoThreads();
      if (w.startStacks()) {
        startStacks = true;
        compensated += Math.max(0, w.compensatedStarts());
      }
      submitEvents += a.submitFailed().events();
      for (SubmitFailureGroup g : a.submitFailed().groups()) {
        groups.merge(
            SubmitFailureCollector.Key.of(g.message(), g.stack()), g, ReportedAnalysis::sum);
      }
    }
    List<Site> pinned = pinnedSites.sites();
    List<Site> files = fileSites.sites();
    CarrierWork firstWork = first.carrierWork();
    List<SubmitFailureGroup> groupList = new ArrayList<>(groups.values());
    groupList.sort(SubmitFailureGroup.BY_EVENTS);
    // the scheduler's settings are the first recording's; the compensation advice rests on the
    // most carriers one of them started, as when the recordings are analysed together
    int mostStarted = all.stream().mapToInt(a -> a.scheduler().carriersStarted()).max().orElse(-1);
    SchedulerSettings scheduler =
        new SchedulerSettings(
            first.scheduler().parallelism(),
            first.scheduler().maxPoolSize(),
            first.scheduler().minRunnable(),
            mostStarted);
    Analysis draft =
        analysis(
            inputs,
            first.jvm(),
            first.cpus(),
            scheduler,
            first.settings(),
            groupBy,
            new PinnedSummary(durationsOf(pinned), pinnedThreads, truncated, worstPinned, pinned),
            worstHeld,
            anyMonitors ? monitors(enterSites.sites(), enterThreads) : null,
            anyMonitors ? monitors(waitSites.sites(), waitThreads) : null,
            new SubmitFailedSummary(submitEvents, groupList),
            new CarrierWork(
                firstWork.samplesEnabled(),
                firstWork.samplePeriod(),
                samples,
                nativeSamples,
                sampledThreads,
                runs,
                longRuns,
                longRunNanos,
                longest,
                runSites.sites(),
                firstWork.fileIoEnabled(),
                firstWork.fileIoThreshold(),
                durationsOf(files),
                fileThreads,
                files,
                startStacks,
                startStacks ? compensated : -1,
                compensationSites.sites()),
            worstEnd);
    // each recording with the settings its report shows (a merged report shows its first's)
    List<String> names = new ArrayList<>();
    List<RecordingSettings> settings = new ArrayList<>();
    List<SchedulerSettings> schedulers = new ArrayList<>();
    for (Analysis a : all) {
      for (InputFacts input : a.inputs()) {
        names.add(input.name());
        settings.add(a.settings());
        schedulers.add(a.scheduler());
      }
    }
    List<Note> made =
        new ArrayList<>(
            RecordingNotes.merged(
                names,
                settings,
                schedulers,
                first.inputs().get(0).name(),
                worstHeld == null || worstHeld.peak() == 0 ? null : inputs.get(worstInput).name()));
    made.addAll(RecordingNotes.of(draft, options.jdk()));
    java.util.Set<String> madeIds = new java.util.HashSet<>();
    made.forEach(n -> madeIds.add(n.id()));
    List<Note> notes = new ArrayList<>();
    for (int i = 0; i < reports.size(); i++) {
      for (ReportedNote n : reports.get(i).notes()) {
        // what a report warned of (a recording read in part, class files missing) stays said,
        // unless the sum says it again
        if ("warning".equals(n.severity()) && !madeIds.contains(n.id())) {
          notes.add(
              new Note(
                  n.id(),
                  Note.Severity.WARNING,
                  Message.of(
                      "note.from-report",
                      "report",
                      all.get(i).inputs().size() == 1
                          ? all.get(i).inputs().get(0).name()
                          : all.get(i).inputs().get(0).name() + " …",
                      "message",
                      n.message())));
        }
      }
    }
    // the same recording in two reports (by its name, start and length) counts twice
    java.util.Set<String> seenInputs = new java.util.HashSet<>();
    List<String> twice = new ArrayList<>();
    for (InputFacts input : inputs) {
      if (!seenInputs.add(input.name() + "|" + input.startNanos() + "|" + input.durationNanos())) {
        twice.add(input.name());
      }
    }
    if (!twice.isEmpty()) {
      notes.add(RecordingNotes.note("duplicate-input", Note.Severity.WARNING, "inputs", twice));
    }
    notes.addAll(made);
    return draft.withNotes(notes);
  }

  private static MonitorSummary monitors(List<Site> sites, int threads) {
    return new MonitorSummary(durationsOf(sites), threads, sites);
  }

  private static SubmitFailureGroup sum(SubmitFailureGroup a, SubmitFailureGroup b) {
    SubmitFailureGroup earlier = b.firstSeenNanos() < a.firstSeenNanos() ? b : a;
    return new SubmitFailureGroup(
        a.message(),
        earlier.example(),
        a.events() + b.events(),
        a.virtualThreads() + b.virtualThreads(),
        earlier.stack(),
        Math.min(a.firstSeenNanos(), b.firstSeenNanos()),
        Math.max(a.lastSeenNanos(), b.lastSeenNanos()));
  }

  /** Sites of several reports, summed by key. */
  private static final class SiteSum {
    private final Map<String, Summing> byKey = new LinkedHashMap<>();

    void add(List<Site> sites, int inputOffset) {
      for (Site site : sites) {
        byKey.computeIfAbsent(site.key(), k -> new Summing()).add(site, inputOffset);
      }
    }

    List<Site> sites() {
      List<Site> result = new ArrayList<>();
      byKey.forEach((key, s) -> result.add(s.site(key)));
      result.sort(Site.BY_TIME);
      return result;
    }
  }

  private static final class Summing {
    private final DurationStatistics durations = new DurationStatistics();
    private int threads;
    private long first = Long.MAX_VALUE;
    private long last = Long.MIN_VALUE;
    private Site representative;
    private long truncated;
    private final Map<String, Long> reasons = new HashMap<>();
    private final Map<String, Long> operations = new HashMap<>();
    private final Map<String, Long> monitorClasses = new HashMap<>();
    private final Map<Integer, Long> nanosByInput = new HashMap<>();

    void add(Site site, int inputOffset) {
      durations.addAll(site.durations());
      threads += site.virtualThreads();
      first = Math.min(first, site.firstSeenNanos());
      last = Math.max(last, site.lastSeenNanos());
      // the longest event's stack stands for the site, as within one recording
      if (representative == null
          || site.durations().maxNanos() > representative.durations().maxNanos()) {
        representative = site;
      }
      truncated += site.truncatedStacks();
      site.reasons().forEach((k, v) -> reasons.merge(k, v, Long::sum));
      site.blockingOperations().forEach((k, v) -> operations.merge(k, v, Long::sum));
      site.monitorClasses().forEach((k, v) -> monitorClasses.merge(k, v, Long::sum));
      if (site.nanosByInput().isEmpty()) {
        nanosByInput.merge(inputOffset, site.durations().totalNanos(), Long::sum);
      } else {
        site.nanosByInput().forEach((i, n) -> nanosByInput.merge(inputOffset + i, n, Long::sum));
      }
    }

    Site site(String key) {
      return new Site(
          key,
          durations.summary(),
          threads,
          first,
          last,
          representative.stack(),
          representative.topApplicationFrame(),
          truncated,
          Site.sortedByCount(reasons),
          Site.sortedByCount(operations),
          Site.sortedByCount(monitorClasses),
          representative.attribution(),
          nanosByInput);
    }
  }
}
