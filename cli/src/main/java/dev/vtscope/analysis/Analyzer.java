package dev.vtscope.analysis;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.recording.ChunkHeader;
import dev.vtscope.recording.JvmFacts;
import dev.vtscope.recording.RecordingFiles;
import dev.vtscope.recording.RecordingInput;
import dev.vtscope.recording.RecordingReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** Reads recordings and builds an {@link Analysis}: load, collect per JVM, merge, note. */
public final class Analyzer {

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
    // The inputs are read on every core, each leaving out only the chunks it repeats itself; an
    // input that holds chunks of an earlier one is read again, alone, leaving those out.
    InputRead[] reads = new InputRead[inputs.size()];
    Cores.forEach(inputs.size(), i -> reads[i] = read(inputs.get(i), new HashSet<>()));
    for (int i = 0; i < inputs.size(); i++) {
      RecordingInput input = inputs.get(i);
      InputRead read = reads[i];
      reads[i] = null;
      if (!java.util.Collections.disjoint(read.chunks(), seen)) {
        read = read(input, seen);
      } else {
        seen.addAll(read.chunks());
      }
      if (read.fatal() != null) {
        throw read.fatal();
      }
      repeatedChunks += read.repeatedChunks();
      repeatedIn.addAll(read.repeatedIn());
      skipped.addAll(read.skipped());
      firstSkipped = firstSkipped == null ? read.firstSkipped() : firstSkipped;
      if (read.unreadable() + read.repeatedFiles() == input.files().size()) {
        continue; // nothing of it was read, or only what other inputs hold too
      }
      List<Set<ChunkHeader.Identity>> byJvm =
          chunksByJvm(read.chunks(), read.collector().chunkJvms());
      if (byJvm.size() == 1) {
        add(input.name(), input, read, summaries, facts);
        continue;
      }
      // Chunks of several JVMs in one input (recordings concatenated, or a stream of several):
      // each JVM's are read again, alone, and analysed as a recording of its own, as if the
      // recordings had been given apart. Their figures never mix.
      List<JvmFacts> jvms = new ArrayList<>();
      for (Set<ChunkHeader.Identity> chunks : byJvm) {
        jvms.add(read.collector().chunkJvms().get(firstNamed(chunks, read.collector())));
      }
      boolean pidsTell = jvms.stream().map(JvmFacts::pid).distinct().count() == jvms.size();
      List<String> names = new ArrayList<>();
      for (int j = 0; j < byJvm.size(); j++) {
        String name =
            input.name()
                + " (JVM "
                + (j + 1)
                + " of "
                + byJvm.size()
                + (pidsTell ? ", pid " + jvms.get(j).pid() : "")
                + ")";
        names.add(name);
        Set<ChunkHeader.Identity> others = new HashSet<>(seen);
        others.removeAll(byJvm.get(j));
        add(name, input, read(input, others), summaries, facts);
      }
      skipped.add(
          RecordingNotes.note(
              "several-jvms",
              Note.Severity.INFO,
              "input",
              input.name(),
              "jvms",
              byJvm.size(),
              "recordings",
              names));
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

  /** Adds the recording {@code read} holds, called {@code name}, to those analysed. */
  private static void add(
      String name,
      RecordingInput input,
      InputRead read,
      List<RecordingSummary> summaries,
      List<InputFacts> facts) {
    RecordingSummary summary = RecordingSummary.of(read.collector());
    summaries.add(summary);
    facts.add(
        facts(
            name,
            input.files().size(),
            summary,
            read.problems().isEmpty() ? null : String.join("; ", read.problems()),
            read.readNotes()));
  }

  /**
   * Who a JVM is: its process id and the millisecond it started (JFR records it in milliseconds),
   * which no other JVM shares.
   */
  private record JvmIdentity(long pid, long startMillis) {}

  /**
   * {@code chunks} grouped by the JVM that wrote them, in the order each JVM's first chunk started:
   * one group when they name one JVM or none. A chunk that names no JVM (its {@code
   * jdk.JVMInformation} event was off) goes with the chunk that started before it, or with the
   * first JVM's when none did.
   */
  static List<Set<ChunkHeader.Identity>> chunksByJvm(
      Set<ChunkHeader.Identity> chunks, Map<ChunkHeader.Identity, JvmFacts> jvms) {
    if (new HashSet<>(jvms.values().stream().map(Analyzer::identity).toList()).size() < 2) {
      return List.of(chunks);
    }
    List<ChunkHeader.Identity> inTime = new ArrayList<>(chunks);
    // a lambda of this class, not Comparator.comparing's: the launcher's class archive keeps it
    inTime.sort(
        (a, b) ->
            a.startNanos() != b.startNanos()
                ? Long.compare(a.startNanos(), b.startNanos())
                : Long.compare(a.durationNanos(), b.durationNanos()));
    Map<JvmIdentity, Set<ChunkHeader.Identity>> groups = new LinkedHashMap<>();
    List<ChunkHeader.Identity> beforeAny = new ArrayList<>();
    Set<ChunkHeader.Identity> current = null;
    for (ChunkHeader.Identity chunk : inTime) {
      JvmFacts jvm = jvms.get(chunk);
      if (jvm != null) {
        current = groups.computeIfAbsent(identity(jvm), k -> new HashSet<>());
      }
      (current == null ? beforeAny : current).add(chunk);
    }
    groups.values().iterator().next().addAll(beforeAny);
    return List.copyOf(groups.values());
  }

  private static JvmIdentity identity(JvmFacts jvm) {
    return new JvmIdentity(jvm.pid(), jvm.jvmStartNanos() / 1_000_000L);
  }

  /** The earliest chunk of {@code chunks} that names its JVM. */
  private static ChunkHeader.Identity firstNamed(
      Set<ChunkHeader.Identity> chunks, SummaryBuilder collector) {
    ChunkHeader.Identity first = null;
    for (ChunkHeader.Identity chunk : chunks) {
      if (collector.chunkJvms().containsKey(chunk)
          && (first == null || chunk.startNanos() < first.startNanos())) {
        first = chunk;
      }
    }
    return first;
  }

  /**
   * What reading one input gave.
   *
   * @param collector its events
   * @param chunks the chunks read, by identity
   * @param problems why reading a file stopped early, each
   * @param readNotes what the reader said of what it read
   * @param unreadable files that could not be read
   * @param repeatedFiles files all of whose chunks were read already
   * @param repeatedChunks chunks left out as read already
   * @param repeatedIn the files that repeated chunks
   * @param skipped notes on the files skipped
   * @param firstSkipped why the first skipped file was, or null
   * @param fatal why the input, a single file, cannot be read at all, or null
   */
  private record InputRead(
      SummaryBuilder collector,
      Set<ChunkHeader.Identity> chunks,
      List<String> problems,
      List<String> readNotes,
      int unreadable,
      int repeatedFiles,
      int repeatedChunks,
      List<String> repeatedIn,
      List<Note> skipped,
      RecordingProblemException firstSkipped,
      RecordingProblemException fatal) {}

  /** Reads {@code input}'s files, but for the chunks in {@code seen}, to which it adds its own. */
  private InputRead read(RecordingInput input, Set<ChunkHeader.Identity> seen) {
    Set<ChunkHeader.Identity> before = new HashSet<>(seen);
    SummaryBuilder collector =
        new SummaryBuilder(
            progress,
            input.files().isEmpty() ? null : input.files().get(0).toAbsolutePath().getParent());
    boolean several = input.files().size() > 1;
    List<String> problems = new ArrayList<>();
    List<String> readNotes = new ArrayList<>();
    List<String> repeatedIn = new ArrayList<>();
    List<Note> skipped = new ArrayList<>();
    RecordingProblemException firstSkipped = null;
    int unreadable = 0;
    int repeatedFiles = 0;
    int repeatedChunks = 0;
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
          Set<ChunkHeader.Identity> none = Set.of();
          return new InputRead(
              collector, none, problems, readNotes, 1, 0, 0, repeatedIn, skipped, null, e);
        }
        // One bad file in a folder does not hide the others: a warning names it.
        unreadable++;
        firstSkipped = firstSkipped == null ? e : firstSkipped;
        skipped.add(
            RecordingNotes.note(
                "unreadable-file", Note.Severity.WARNING, "problem", e.getMessage()));
      }
    }
    Set<ChunkHeader.Identity> chunks = new HashSet<>(seen);
    chunks.removeAll(before);
    return new InputRead(
        collector,
        chunks,
        problems,
        readNotes,
        unreadable,
        repeatedFiles,
        repeatedChunks,
        repeatedIn,
        skipped,
        firstSkipped,
        null);
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
      String name, int files, RecordingSummary s, String problem, List<String> readNotes) {
    return new InputFacts(
        name,
        files,
        s.chunks(),
        s.startNanos(),
        s.endNanos() - s.startNanos(),
        s.jvm(),
        s.cpus(),
        problem,
        readNotes);
  }

  /** The analysis of one recording already collected into {@code collector}, which then ends. */
  Analysis analyzeCollected(String name, SummaryBuilder collector) {
    return analyze(name, RecordingSummary.of(collector));
  }

  /** The analysis of one recording's summary, called {@code name}. */
  public Analysis analyze(String name, RecordingSummary summary) {
    return analyze(List.of(facts(name, 1, summary, null, List.of())), List.of(summary));
  }

  /**
   * The analysis of several recordings, one summary and its facts each: each recording is analysed
   * on its own, and several are added up by {@link RecordingSet}, as {@code merge} adds up their
   * reports. The parts are analysed on every core.
   */
  private Analysis analyze(List<InputFacts> facts, List<RecordingSummary> summaries) {
    if (summaries.size() == 1) {
      return analyzeOne(facts.get(0), summaries.get(0));
    }
    List<Analysis> parts = new ArrayList<>(summaries.size());
    for (int i = 0; i < summaries.size(); i++) {
      parts.add(null);
    }
    Cores.forEach(summaries.size(), i -> parts.set(i, analyzeOne(facts.get(i), summaries.get(i))));
    return RecordingSet.sum(parts).withParts(parts);
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

  /** The analysis of one recording, whose summary is {@code summary}. */
  private Analysis analyzeOne(InputFacts facts, RecordingSummary summary) {
    // held: pinned, and on JDK 21-23 entering a monitor
    boolean monitors = summary.monitorsHoldCarrier(options.jdk());
    // The carriers' sweep (every pin's start and end, in order) and the attribution of the sites
    // need nothing of each other, and on a large recording each is a good part of what is left
    // once the chunks are read: one core each.
    Supplier<RecordingSummary.CarriersHeld> sweep =
        Cores.start(() -> summary.carriersHeld(monitors));
    try (ClassBytesSource classes = classBytes(summary)) {
      Attributor attributor = new Attributor(classes, new FrameOwnership(options.appPackages()));
      GroupBy groupBy = options.groupBy();
      List<Site> pinnedSites = summary.pinnedSites(SiteGroupings.pinned(groupBy, attributor));
      MonitorSummary monitorEnter =
          monitors
              ? summary.monitorEnters(SiteGroupings.monitors(groupBy, attributor, false))
              : null;
      MonitorSummary monitorWait =
          monitors ? summary.monitorWaits(SiteGroupings.monitors(groupBy, attributor, true)) : null;
      CarrierWork carrierWork = summary.carrierWork(SiteGroupings.carrierWork(groupBy, attributor));
      StackTree pinnedTree = summary.pinnedTree(SiteGroupings.pinned(groupBy, attributor));
      CarriersAtEnd carriersAtEnd = summary.carriersAtEnd(attributor);
      RecordingSummary.CarriersHeld carriers = sweep.get();
      Concurrency held = carriers.held();
      PinnedSummary pinned = summary.pinned(pinnedSites, carriers.pinned());
      SubmitFailedSummary submitFailed = summary.submitFailures();
      SchedulerSettings scheduler = summary.scheduler();
      RecordingSettings settings = summary.settings();
      InputFacts input =
          facts.withFigures(
              new RecordingFigures(
                  RecordingFigures.identity(
                      facts.jvm(), facts.startNanos(), facts.durationNanos(), facts.chunks()),
                  scheduler,
                  settings,
                  pinned.events(),
                  pinned.totalNanos(),
                  held));
      Analysis draft =
          new Analysis(
              List.of(input),
              summary.jvm(),
              summary.cpus(),
              scheduler,
              settings,
              groupBy,
              pinned,
              held,
              monitorEnter,
              monitorWait,
              submitFailed,
              carrierWork,
              carriers.timeline(),
              pinnedTree,
              carriersAtEnd,
              List.of());
      // The notes are read off the analysis itself, so it is built first without them.
      List<Note> notes = new ArrayList<>(jdkClassFileNotes(classes, attributor, summary));
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
   * Which JDK's class files the JDK frames were checked against, or that they could not be: the
   * ranges of the JDK's synchronized blocks are read from the recording's own release.
   */
  private static List<Note> jdkClassFileNotes(
      ClassBytesSource classes, Attributor attributor, RecordingSummary jdkSource) {
    String recorded = jdkSource.jvm() == null ? null : jdkSource.jvm().javaVersion();
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

  /** The user's class path first, then the recording's own, where its files exist here. */
  private ClassBytesSource classBytes(RecordingSummary s) {
    String workingDirectory =
        s.workingDirectory() != null
            ? s.workingDirectory()
            : workingFolder != null ? workingFolder.toString() : null;
    return ClassBytesSource.of(
        options.classPath(),
        List.of(
            new ClassBytesSource.RecordedClassPath(
                s.classPath(), workingDirectory, s.recordedIn())),
        s.jvm() == null ? null : s.jvm().javaVersion(),
        s.feature(),
        options.jdkHomes());
  }
}
