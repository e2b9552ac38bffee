package dev.vtscope.analysis;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.recording.ChunkHeader;
import dev.vtscope.recording.RecordingFiles;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.recording.RecordingReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Reads recordings and builds an {@link Analysis}: load, collect per JVM, merge, note. */
public final class Analyzer {

  private static final String PINNED = "jdk.VirtualThreadPinned";

  private final RecordingReader reader;
  private final AnalysisOptions options;
  private ReadProgress progress = ReadProgress.NONE;

  // What the last analyze read, kept so that regroup needs no second read.
  private List<InputFacts> lastFacts;
  private List<RecordingSummary> lastSummaries;
  private List<Note> lastSkipped = List.of();

  public Analyzer(RecordingReader reader, AnalysisOptions options) {
    this.reader = reader;
    this.options = options;
  }

  public Analyzer(RecordingReader reader, GroupBy groupBy) {
    this(reader, AnalysisOptions.of(groupBy));
  }

  /**
   * An analyzer of summaries already made ({@link #analyze(String, RecordingSummary)}), as a
   * running JVM's events give them: it reads no recording.
   */
  public Analyzer(AnalysisOptions options) {
    this(null, options);
  }

  /**
   * The working folder of the JVM that wrote the recordings, when known from elsewhere (vtscope
   * asked the running JVM): JFR leaves {@code user.dir} out of a recording, and relative entries of
   * its class path are relative to it. Returns this analyzer.
   */
  public Analyzer workingFolder(Path folder) {
    this.workingFolder = folder;
    return this;
  }

  private Path workingFolder;

  /** Tells {@code progress} of every chunk read; returns this analyzer. */
  public Analyzer progress(ReadProgress progress) {
    this.progress = progress;
    return this;
  }

  /**
   * Analyses {@code inputs}: every readable chunk of every file; damaged chunks and, in a folder,
   * unreadable files are left out with a note.
   *
   * @throws RecordingProblemException naming the input that is not a readable recording
   */
  public Analysis analyze(List<RecordingInput> inputs) throws RecordingProblemException {
    try {
      return analyzeAll(inputs);
    } finally {
      progress.done();
    }
  }

  private Analysis analyzeAll(List<RecordingInput> inputs) throws RecordingProblemException {
    List<RecordingSummary> summaries = new ArrayList<>();
    List<InputFacts> facts = new ArrayList<>();
    List<Note> skipped = new ArrayList<>();
    RecordingProblemException firstSkipped = null;
    // A chunk is read once however often it is given: copied into a folder twice, concatenated
    // with itself, or a file named twice (by two paths, say). Its events would count twice and its
    // pins overlap themselves, doubling the carriers pinned at once.
    Set<ChunkHeader.Identity> seen = new HashSet<>();
    List<String> repeatedIn = new ArrayList<>();
    int repeatedChunks = 0;
    for (RecordingInput input : inputs) {
      SummaryBuilder collector = new SummaryBuilder(progress);
      collector.recordedIn =
          input.files().isEmpty() ? null : input.files().get(0).toAbsolutePath().getParent();
      boolean several = input.files().size() > 1;
      List<String> problems = new ArrayList<>();
      List<String> readNotes = new ArrayList<>();
      int unreadable = 0;
      int repeatedFiles = 0;
      for (Path file : input.files()) {
        String prefix = several ? file + ": " : "";
        try {
          RecordingFiles.FileRead read = read(file, collector, seen);
          read.notes().forEach(n -> readNotes.add(prefix + n));
          if (read.problem() != null) {
            problems.add(prefix + read.problem());
          }
          if (read.repeatedChunks() > 0) {
            repeatedChunks += read.repeatedChunks();
            repeatedIn.add(file.toString());
            if (read.chunksRead() == 0) {
              repeatedFiles++;
            }
          }
        } catch (RecordingProblemException e) {
          if (input.folder() == null && !several) {
            throw e;
          }
          // One bad file in a folder does not hide the others: a warning names it.
          unreadable++;
          firstSkipped = firstSkipped == null ? e : firstSkipped;
          skipped.add(
              RecordingNotes.note(
                  "unreadable-file", Note.Severity.WARNING, "problem", e.getMessage()));
        }
      }
      if (unreadable + repeatedFiles == input.files().size()) {
        continue; // nothing of it was read, or only what other inputs hold too
      }
      summaries.add(RecordingSummary.of(collector));
      facts.add(
          facts(
              input.name(),
              input.files().size(),
              collector,
              problems.isEmpty() ? null : String.join("; ", problems),
              readNotes));
    }
    if (summaries.isEmpty()) {
      throw inputs.size() == 1 && inputs.get(0).files().size() == 1
          ? firstSkipped
          : new RecordingProblemException(
              "no readable recording among the inputs; the first problem: "
                  + firstSkipped.getMessage(),
              firstSkipped.unreadable());
    }
    if (repeatedChunks > 0) {
      skipped.add(
          RecordingNotes.note(
              "repeated-chunks",
              Note.Severity.WARNING,
              "chunks",
              repeatedChunks,
              "inputs",
              repeatedIn));
    }
    lastFacts = facts;
    lastSummaries = summaries;
    lastSkipped = skipped;
    Analysis analysis = analyze(facts, summaries);
    return skipped.isEmpty()
        ? analysis
        : analysis.withNotes(
            java.util.stream.Stream.concat(skipped.stream(), analysis.notes().stream()).toList());
  }

  /**
   * The recordings of the last {@link #analyze} grouped by {@code groupBy}, from what was read
   * then: no recording is read again.
   *
   * @throws IllegalStateException when nothing was analysed yet
   */
  public Analysis regroup(GroupBy groupBy) {
    if (lastSummaries == null) {
      throw new IllegalStateException("nothing analysed yet");
    }
    Analyzer grouped = new Analyzer(reader, options.withGroupBy(groupBy));
    grouped.workingFolder = workingFolder;
    Analysis analysis = grouped.analyze(lastFacts, lastSummaries);
    return lastSkipped.isEmpty()
        ? analysis
        : analysis.withNotes(
            java.util.stream.Stream.concat(lastSkipped.stream(), analysis.notes().stream())
                .toList());
  }

  private static InputFacts facts(
      String name, int files, SummaryBuilder c, String problem, List<String> readNotes) {
    return new InputFacts(
        name,
        files,
        c.chunks,
        c.chunks == 0 ? 0 : c.startNanos,
        c.chunks == 0 ? 0 : c.endNanos - c.startNanos,
        c.jvm,
        c.cpus(),
        problem,
        readNotes);
  }

  /** The analysis of one recording already collected into {@code collector}, which then ends. */
  Analysis analyzeCollected(String name, SummaryBuilder collector) {
    return analyze(name, RecordingSummary.of(collector));
  }

  /** The analysis of one recording's summary, called {@code name}. */
  public Analysis analyze(String name, RecordingSummary summary) {
    return analyze(List.of(facts(name, 1, summary.content(), null, List.of())), List.of(summary));
  }

  /** The analysis of several recordings, one summary and its facts each. */
  private Analysis analyze(List<InputFacts> facts, List<RecordingSummary> summaries) {
    return merge(facts, summaries.stream().map(RecordingSummary::content).toList());
  }

  /** Reads one file into {@code collector}, but for the chunks in {@code seen}. */
  private RecordingFiles.FileRead read(
      Path file, SummaryBuilder collector, Set<ChunkHeader.Identity> seen)
      throws RecordingProblemException {
    try {
      return RecordingFiles.read(reader, file, collector, seen);
    } catch (RecordingFiles.UnreadableException e) {
      throw new RecordingProblemException(e.getMessage(), e.io());
    }
  }

  /**
   * What several recordings' summaries add up to. Sites, durations and submit failures add up;
   * distinct threads add up (thread ids are per JVM); carriers held at once are counted within each
   * recording, and the figures are those of the recording that held most.
   */
  private record Totals(
      SiteCollector pinnedSites,
      SiteCollector enterSites,
      SiteCollector waitSites,
      DurationStatistics pinned,
      DurationStatistics enter,
      DurationStatistics waiting,
      int pinnedThreads,
      int enterThreads,
      int waitThreads,
      long truncated,
      boolean anyMonitorInput,
      SubmitFailureCollector submitFailures,
      Concurrency worstPinned,
      Concurrency worstHeld,
      int worstInput,
      ConcurrencyTimeline worstHeldTimeline) {}

  private Totals totals(List<SummaryBuilder> collectors) {
    // One recording's sites are used as they are; several are merged into new collectors.
    boolean one = collectors.size() == 1;
    SiteCollector pinnedSites = one ? collectors.get(0).pinnedSites : new SiteCollector();
    SiteCollector enterSites = one ? collectors.get(0).monitorEnterSites : new SiteCollector();
    SiteCollector waitSites = one ? collectors.get(0).monitorWaitSites : new SiteCollector();
    SubmitFailureCollector submitFailures = new SubmitFailureCollector();
    DurationStatistics pinned = new DurationStatistics();
    DurationStatistics enter = new DurationStatistics();
    DurationStatistics wait = new DurationStatistics();
    int pinnedThreads = 0;
    int enterThreads = 0;
    int waitThreads = 0;
    long truncated = 0;
    boolean anyMonitorInput = false;
    Concurrency worst = null;
    Concurrency worstHeld = null;
    ConcurrencyTimeline worstHeldTimeline = null;
    int worstInput = 0;
    for (int i = 0; i < collectors.size(); i++) {
      SummaryBuilder c = collectors.get(i);
      if (!one) {
        pinnedSites.addAll(c.pinnedSites, i);
      }
      submitFailures.addAll(c.submitFailures, i);
      pinned.addAll(c.pinnedDurations);
      truncated += c.truncatedPinnedStacks;
      pinnedThreads += c.pinnedThreads.size();
      if (c.monitorsHoldCarrier(options.jdk())) {
        anyMonitorInput = true;
        if (!one) {
          enterSites.addAll(c.monitorEnterSites, i);
          waitSites.addAll(c.monitorWaitSites, i);
        }
        enter.addAll(c.monitorEnterDurations);
        wait.addAll(c.monitorWaitDurations);
        enterThreads += c.monitorEnterThreads.size();
        waitThreads += c.monitorWaitThreads.size();
      }
      int parallelism = Math.max(0, scheduler(c).parallelism().value());
      Concurrency pinnedAtOnce = c.timeline.compute(parallelism);
      worst = Concurrency.worse(worst, pinnedAtOnce);
      // held: pinned, and on JDK 21-23 entering a monitor; kept for the worst input's timeline
      ConcurrencyTimeline heldTimeline =
          c.monitorsHoldCarrier(options.jdk())
              ? ConcurrencyTimeline.union(c.timeline, c.monitorEnterTimeline)
              : c.timeline;
      Concurrency held =
          heldTimeline == c.timeline ? pinnedAtOnce : heldTimeline.compute(parallelism);
      Concurrency worstSoFar = Concurrency.worse(worstHeld, held);
      if (worstSoFar != worstHeld) {
        worstInput = i;
        worstHeldTimeline = heldTimeline;
      }
      worstHeld = worstSoFar;
    }
    return new Totals(
        pinnedSites,
        enterSites,
        waitSites,
        pinned,
        enter,
        wait,
        pinnedThreads,
        enterThreads,
        waitThreads,
        truncated,
        anyMonitorInput,
        submitFailures,
        worst,
        worstHeld,
        worstInput,
        worstHeldTimeline);
  }

  private Analysis merge(List<InputFacts> facts, List<SummaryBuilder> collectors) {
    Totals t = totals(collectors);
    SummaryBuilder primary =
        collectors.stream().filter(c -> c.jvm != null).findFirst().orElse(null);
    SummaryBuilder settingsSource = primary != null ? primary : collectors.get(0);
    mostCarriersStarted = collectors.stream().mapToInt(Analyzer::carriersStarted).max().orElse(-1);
    try (ClassBytesSource classes = classBytes(collectors, settingsSource)) {
      Attributor attributor = new Attributor(classes, new FrameOwnership(options.appPackages()));
      PinnedSummary pinned =
          new PinnedSummary(
              t.pinned().summary(),
              t.pinnedThreads(),
              t.truncated(),
              t.worstPinned(),
              t.pinnedSites().sites(SiteGroupings.pinned(options.groupBy(), attributor)));
      MonitorSummary monitorEnter =
          t.anyMonitorInput()
              ? new MonitorSummary(
                  t.enter().summary(),
                  t.enterThreads(),
                  t.enterSites()
                      .sites(SiteGroupings.monitors(options.groupBy(), attributor, false)))
              : null;
      MonitorSummary monitorWait =
          t.anyMonitorInput()
              ? new MonitorSummary(
                  t.waiting().summary(),
                  t.waitThreads(),
                  t.waitSites().sites(SiteGroupings.monitors(options.groupBy(), attributor, true)))
              : null;
      Analysis draft =
          new Analysis(
              facts,
              primary == null ? null : primary.jvm,
              settingsSource.cpus(),
              scheduler(settingsSource, mostCarriersStarted),
              settings(settingsSource),
              options.groupBy(),
              pinned,
              t.worstHeld(),
              monitorEnter,
              monitorWait,
              new SubmitFailedSummary(t.submitFailures().events(), t.submitFailures().groups()),
              carrierWork(collectors, settingsSource, attributor),
              timeline(collectors.get(t.worstInput()), t.worstHeldTimeline()),
              t.pinnedSites().tree(SiteGroupings.pinned(options.groupBy(), attributor)),
              carriersAtEnd(collectors, attributor),
              List.of());
      // The notes are read off the analysis itself, so it is built first without them.
      List<Note> notes =
          new ArrayList<>(
              RecordingNotes.merged(
                  facts.stream().map(InputFacts::name).toList(),
                  collectors.stream().map(Analyzer::settings).toList(),
                  collectors.stream().map(Analyzer::scheduler).toList(),
                  facts.get(collectors.indexOf(settingsSource)).name(),
                  t.worstHeld() == null || t.worstHeld().peak() == 0
                      ? null
                      : facts.get(t.worstInput()).name()));
      notes.addAll(jdkClassFileNotes(classes, attributor, settingsSource));
      List<String> unresolved = classes.unresolvedRelativeEntries();
      if (!unresolved.isEmpty()) {
        List<String> shown = new ArrayList<>(unresolved.subList(0, Math.min(3, unresolved.size())));
        if (unresolved.size() > 3) {
          shown.add("and " + (unresolved.size() - 3) + " more");
        }
        notes.add(
            RecordingNotes.note(
                "relative-class-path", Note.Severity.WARNING, "entries", List.copyOf(shown)));
      }
      notes.addAll(RecordingNotes.of(draft, options.jdk()));
      return draft.withNotes(notes);
    }
  }

  /**
   * What the carriers held when each recording ended, from its last thread dump: that of the
   * recording whose carriers were held most (the later one of equals), or null when none has one.
   */
  private static CarriersAtEnd carriersAtEnd(
      List<SummaryBuilder> collectors, Attributor attributor) {
    CarriersAtEnd worst = null;
    for (int i = 0; i < collectors.size(); i++) {
      SummaryBuilder c = collectors.get(i);
      if (c.lastDump != null) {
        worst =
            CarriersAtEnd.worse(
                worst, CarriersAtEnd.of(c.lastDump, c.dumpBefore, c.recentSamples, attributor, i));
      }
    }
    return worst;
  }

  /** The carriers {@code c}'s recording held ({@code held}'s intervals), slice by slice. */
  private CarrierTimeline timeline(SummaryBuilder c, ConcurrencyTimeline held) {
    long from = c.startNanos == Long.MAX_VALUE ? 0 : c.startNanos;
    long to = c.endNanos == Long.MIN_VALUE ? from : Math.max(from, c.endNanos);
    int buckets = CarrierTimeline.BUCKETS;
    int[] pinned = c.timeline.maxPerBucket(from, to, buckets);
    int[] heldMax = held == c.timeline ? pinned : held.maxPerBucket(from, to, buckets);
    List<Long> marks = new ArrayList<>(c.submitFailures.times);
    marks.sort(null);
    return new CarrierTimeline(
        from,
        Math.max(1, (to - from) / buckets),
        pinned,
        heldMax,
        Math.max(0, scheduler(c).parallelism().value()),
        marks);
  }

  /** Carrier work of every recording; runs and thread counts stay within each JVM's. */
  private CarrierWork carrierWork(
      List<SummaryBuilder> collectors, SummaryBuilder settingsSource, Attributor attributor) {
    SiteCollector runs = new SiteCollector();
    SiteCollector fileIo = new SiteCollector();
    SiteCollector compensation = new SiteCollector();
    DurationStatistics fileIoDurations = new DurationStatistics();
    long samples = 0;
    long nativeSamples = 0;
    int sampledThreads = 0;
    long runCount = 0;
    long longRuns = 0;
    long longRunNanos = 0;
    long longest = 0;
    int fileIoThreads = 0;
    long compensated = 0;
    boolean startStacks = false;
    for (int i = 0; i < collectors.size(); i++) {
      CarrierWorkCollector w = collectors.get(i).carrierWork.finished();
      runs.addAll(w.runSites, i);
      fileIo.addAll(w.fileIoSites, i);
      compensation.addAll(w.compensationSites, i);
      fileIoDurations.addAll(w.fileIoDurations);
      samples += w.samples;
      nativeSamples += w.nativeSamples;
      sampledThreads += w.sampledThreads.size();
      runCount += w.runs;
      longRuns += w.longRuns;
      longRunNanos += w.longRunNanos;
      longest = Math.max(longest, w.longestRunNanos);
      fileIoThreads += w.fileIoThreads.size();
      compensated += w.compensatedStarts;
      startStacks |= w.startsWithStacks > 0;
    }
    return new CarrierWork(
        settingsSource.enabled("jdk.ExecutionSample"),
        settingsSource.period("jdk.ExecutionSample"),
        samples,
        nativeSamples,
        sampledThreads,
        runCount,
        longRuns,
        longRunNanos,
        longest,
        runs.sites(SiteGroupings.carrierWork(options.groupBy(), attributor)),
        settingsSource.enabled("jdk.FileRead"),
        settingsSource.threshold("jdk.FileRead"),
        fileIoDurations.summary(),
        fileIoThreads,
        fileIo.sites(SiteGroupings.carrierWork(options.groupBy(), attributor)),
        startStacks,
        startStacks ? compensated : -1,
        compensation.sites(SiteGroupings.carrierWork(options.groupBy(), attributor)));
  }

  /**
   * Which JDK's class files the JDK frames were checked against, or that they could not be: the
   * ranges of the JDK's synchronized blocks are read from the recording's own release.
   */
  private static List<Note> jdkClassFileNotes(
      ClassBytesSource classes, Attributor attributor, SummaryBuilder jdkSource) {
    String recorded = jdkSource.jvm == null ? null : jdkSource.jvm.javaVersion();
    String release = recorded != null ? recorded : "JDK " + jdkSource.feature();
    var read = classes.jdkClassFiles();
    if (read.isPresent()) {
      // The recording's own update needs no word: a site whose holder is JDK code says where its
      // block was read. Another update is an approximation, said once.
      return read.get().sameUpdate()
          ? List.of()
          : List.of(
              RecordingNotes.note(
                  "jdk-class-files",
                  Note.Severity.INFO,
                  "used",
                  read.get().version(),
                  "release",
                  release));
    }
    List<Note> notes = new ArrayList<>();
    // a JDK of the release may be installed but unreadable (its warning says which): not "none"
    Message none =
        Message.of(
            classes.unreadableJdks().isEmpty()
                ? "note.jdk-none-installed"
                : "note.jdk-none-readable",
            "feature",
            jdkSource.feature());
    // said only where the table named a holder: elsewhere it changed nothing in the report
    classes
        .jdkTableUpdates()
        .filter(updates -> attributor.usedJdkTable())
        .ifPresent(
            updates ->
                notes.add(
                    RecordingNotes.note(
                        "jdk-monitor-table",
                        Note.Severity.INFO,
                        "none",
                        none,
                        "feature",
                        jdkSource.feature(),
                        "updates",
                        List.copyOf(updates),
                        "release",
                        release)));
    if (!classes.unreadableJdks().isEmpty()) {
      notes.add(
          RecordingNotes.note(
              "jdk-unreadable",
              Note.Severity.WARNING,
              "feature",
              jdkSource.feature(),
              "homes",
              classes.unreadableJdks().stream().map(Path::toString).toList()));
    }
    if (classes.jdkClassesMissing()) {
      notes.add(
          RecordingNotes.note(
              "jdk-class-files-missing",
              Note.Severity.WARNING,
              "none",
              none,
              "feature",
              jdkSource.feature(),
              "install",
              recorded != null
                  ? ClassBytesSource.releaseOf(recorded)
                  : Integer.toString(jdkSource.feature())));
    }
    return notes;
  }

  /** The user's class path first, then each recording's own, where its files exist here. */
  private ClassBytesSource classBytes(List<SummaryBuilder> collectors, SummaryBuilder jdkSource) {
    List<ClassBytesSource.RecordedClassPath> recorded = new ArrayList<>();
    for (SummaryBuilder c : collectors) {
      String workingDirectory =
          c.workingDirectory != null
              ? c.workingDirectory
              : workingFolder != null ? workingFolder.toString() : null;
      recorded.add(
          new ClassBytesSource.RecordedClassPath(c.classPath, workingDirectory, c.recordedIn));
    }
    return ClassBytesSource.of(
        options.classPath(),
        recorded,
        jdkSource.jvm == null ? null : jdkSource.jvm.javaVersion(),
        jdkSource.feature(),
        options.jdkHomes());
  }

  private static SchedulerSettings scheduler(SummaryBuilder c) {
    return scheduler(c, carriersStarted(c));
  }

  /** {@code c}'s scheduler settings, with {@code started} carriers started. */
  private static SchedulerSettings scheduler(SummaryBuilder c, int started) {
    return SchedulerSettings.derive(
        c.schedulerProperties, c.systemPropertiesRecorded, c.cpus(), started);
  }

  /** The carriers {@code c}'s recording saw start, or -1 when it did not record thread starts. */
  private static int carriersStarted(SummaryBuilder c) {
    return Boolean.TRUE.equals(c.enabled("jdk.ThreadStart")) ? c.carriersStarted : -1;
  }

  /**
   * Of several JVMs' recordings, the most carriers one of them started: what the compensation
   * advice rests on, whichever recording comes first (the scheduler's settings are the first's).
   */
  private int mostCarriersStarted = -1;

  private static RecordingSettings settings(SummaryBuilder c) {
    return new RecordingSettings(
        c.enabled(PINNED),
        c.threshold(PINNED),
        c.enabled("jdk.VirtualThreadSubmitFailed"),
        c.enabled("jdk.JavaMonitorEnter"),
        c.threshold("jdk.JavaMonitorEnter"),
        c.enabled("jdk.JavaMonitorWait"),
        c.threshold("jdk.JavaMonitorWait"),
        stackDepth(c));
  }

  /**
   * The stack depth the recording had: as its JVM was started with, unless its stacks say more. JFR
   * takes a new depth before it starts (the JFR.configure command, as the JUnit extension uses),
   * and the flag keeps the old one: a truncated stack then shows the depth, a deeper one that it is
   * unknown.
   */
  private static Integer stackDepth(SummaryBuilder c) {
    Integer stated = c.stackDepth != null ? c.stackDepth : null;
    if (c.truncatedDepth > 0 && (stated == null || c.truncatedDepth > stated)) {
      return c.truncatedDepth;
    }
    if (stated != null && c.deepestPinnedStack > stated) {
      return null;
    }
    return stated;
  }
}
