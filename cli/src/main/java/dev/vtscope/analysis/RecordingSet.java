package dev.vtscope.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Analyses of several recordings, that is of several JVMs, as one: the only way vtscope adds up
 * recordings, whether it read them itself ({@code analyze A B}, a folder) or read the reports of
 * each ({@code merge}). Each part is the analysis of one recording or itself a sum; summing is the
 * same in any grouping of the parts.
 *
 * <p>What adds up adds up: events, durations (exactly, from the distribution every site carries),
 * sites of the same key, submit failures, distinct virtual threads (thread ids are per JVM). What
 * belongs to one JVM never does: each recording keeps its scheduler, settings and carriers held at
 * once in its own {@link InputFacts#figures()}, and the sum shows those of the recording that held
 * most carriers at once, naming it. The scheduler and settings lines are the first recording's.
 */
public final class RecordingSet {

  private RecordingSet() {}

  /**
   * Which of {@code parts} to add up so that no recording counts twice: a part whose recordings
   * another part (earlier, or holding more) already has is left out, the same report given twice or
   * the merge of reports given beside them.
   *
   * @param parts the recordings of each part, in the order given
   * @param names what to call each part in an error
   * @return the indices of the parts to add up, in the order given, and of those left out
   * @throws IllegalArgumentException when two parts share some of their recordings but not all:
   *     neither can be left out, and their sums cannot be taken apart
   */
  public static Distinct distinct(List<List<InputFacts>> parts, List<String> names) {
    List<Set<String>> identities = new ArrayList<>();
    for (List<InputFacts> part : parts) {
      Set<String> ids = new HashSet<>();
      for (InputFacts input : part) {
        ids.add(identity(input));
      }
      identities.add(ids);
    }
    // the parts holding most recordings first, so that a merge keeps out its parts given with it
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      order.add(i);
    }
    order.sort((a, b) -> Integer.compare(identities.get(b).size(), identities.get(a).size()));
    Map<String, Integer> owner = new HashMap<>();
    boolean[] kept = new boolean[parts.size()];
    List<Integer> left = new ArrayList<>();
    for (int i : order) {
      Integer sharedWith = null;
      int shared = 0;
      for (String id : identities.get(i)) {
        Integer o = owner.get(id);
        if (o != null) {
          shared++;
          sharedWith = o;
        }
      }
      if (shared == 0) {
        kept[i] = true;
        for (String id : identities.get(i)) {
          owner.put(id, i);
        }
      } else if (shared == identities.get(i).size()) {
        left.add(i);
      } else {
        String one = null;
        for (InputFacts input : parts.get(i)) {
          if (owner.containsKey(identity(input))) {
            one = input.name();
            break;
          }
        }
        throw new IllegalArgumentException(
            names.get(i)
                + " and "
                + names.get(sharedWith)
                + " share "
                + shared
                + (shared == 1 ? " recording (" : " recordings (")
                + one
                + (shared == 1 ? "" : ", …")
                + ") but not all of theirs: add up reports of recordings that do not overlap (the"
                + " parts of each merge, say)");
      }
    }
    List<Integer> indices = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      if (kept[i]) {
        indices.add(i);
      }
    }
    left.sort(null);
    return new Distinct(indices, left);
  }

  /**
   * The parts to add up and those left out.
   *
   * @param kept indices of the parts to add up, in the order given
   * @param left indices of the parts left out because every recording of theirs is in a kept one,
   *     in the order given
   */
  public record Distinct(List<Integer> kept, List<Integer> left) {

    public Distinct {
      kept = List.copyOf(kept);
      left = List.copyOf(left);
    }
  }

  /**
   * The identity of {@code input}: its own, or, from a report that gave none, its name and span.
   */
  private static String identity(InputFacts input) {
    return input.figures() != null && input.figures().identity() != null
        ? input.figures().identity()
        : input.name() + "|" + input.startNanos() + "|" + input.durationNanos();
  }

  /**
   * The sum of {@code parts}, in their order; one part is returned as it is.
   *
   * @throws IllegalArgumentException when the parts group their sites differently (their keys would
   *     not match), or when there are none
   */
  public static Analysis sum(List<Analysis> parts) {
    List<PartNotes> notes = new ArrayList<>(parts.size());
    for (Analysis part : parts) {
      notes.add(PartNotes.of(part));
    }
    return sum(parts, notes);
  }

  /**
   * The notes of a part, kept apart from it: a sum of many parts may be taken as a sum of sums of
   * fewer, and each note is said once, of the recordings it concerns, only in the whole.
   *
   * @param recordings the part's recordings
   * @param notes what its analysis or report noted
   */
  public record PartNotes(int recordings, List<String> names, List<Note> notes) {

    public PartNotes {
      names = List.copyOf(names);
      notes = List.copyOf(notes);
    }

    /** The notes of {@code part}, with the first few of its recordings' names. */
    public static PartNotes of(Analysis part) {
      List<String> names = new ArrayList<>();
      for (InputFacts input : part.inputs()) {
        if (names.size() < NAMED) {
          names.add(input.name());
        }
      }
      return new PartNotes(part.inputs().size(), names, part.notes());
    }
  }

  /**
   * The sum of {@code sums}, each the sum of some parts whose notes {@code notes} holds, in the
   * same order: the same as the sum of all those parts.
   */
  public static Analysis sum(List<Analysis> sums, List<PartNotes> notes) {
    List<Analysis> parts = sums;
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("no analysis to add up");
    }
    if (parts.size() == 1 && parts.get(0).inputs().size() == 1) {
      return parts.get(0);
    }
    GroupBy groupBy = parts.get(0).groupBy();
    for (Analysis part : parts) {
      if (part.groupBy() != groupBy) {
        throw new IllegalArgumentException(
            "the reports group sites differently ("
                + groupBy.label()
                + " and "
                + part.groupBy().label()
                + "): analyse them with the same --group-by");
      }
    }
    List<InputFacts> inputs = new ArrayList<>();
    int[] offsets = new int[parts.size()];
    for (int i = 0; i < parts.size(); i++) {
      offsets[i] = inputs.size();
      inputs.addAll(parts.get(i).inputs());
    }
    Analysis first = parts.stream().filter(a -> a.jvm() != null).findFirst().orElse(parts.get(0));
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
    Concurrency worstHeld = null;
    CarriersAtEnd worstEnd = null;
    Analysis worstPart = parts.get(0);
    List<StackTree> trees = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      Analysis a = parts.get(i);
      pinnedSites.add(a.pinned().sites(), offsets[i]);
      pinnedThreads += a.pinned().virtualThreads();
      truncated += a.pinned().truncatedStacks();
      Concurrency held = a.carriers() != null ? a.carriers() : a.pinned().concurrency();
      Concurrency worse = Concurrency.worse(worstHeld, held);
      if (worse != worstHeld) {
        worstPart = a;
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
        groups.merge(SubmitFailureCollector.Key.of(g.message(), g.stack()), g, RecordingSet::sum);
      }
      trees.add(a.pinnedTree());
    }
    List<Site> pinned = pinnedSites.sites();
    List<Site> files = fileSites.sites();
    CarrierWork firstWork = first.carrierWork();
    List<SubmitFailureGroup> groupList = new ArrayList<>(groups.values());
    groupList.sort(SubmitFailureGroup.BY_EVENTS);
    Analysis draft =
        new Analysis(
            inputs,
            first.jvm(),
            first.cpus(),
            first.scheduler(),
            first.settings(),
            groupBy,
            // pinned and held at once: the figures of one recording, the one that held most
            new PinnedSummary(
                durationsOf(pinned),
                pinnedThreads,
                truncated,
                worstPart.pinned().concurrency(),
                pinned),
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
            // the timeline of the recording that held most: a chart never mixes two JVMs
            worstPart.timeline(),
            StackTree.merge(trees),
            worstEnd,
            List.of());
    String worstName =
        worstHeld == null || worstHeld.peak() == 0 ? null : worstRecording(inputs).name();
    List<Note> said = new ArrayList<>(RecordingNotes.merged(inputs, first, worstName));
    said.addAll(groupedNotes(notes, inputs.size()));
    return draft.withNotes(said);
  }

  /**
   * The input whose recording held most carriers at once (the first of equals): whose figures a
   * report of several recordings shows for carriers pinned and held at once.
   */
  public static InputFacts worstRecording(List<InputFacts> inputs) {
    InputFacts worst = inputs.get(0);
    Concurrency worstHeld = null;
    for (InputFacts input : inputs) {
      Concurrency held = input.figures() == null ? null : input.figures().held();
      Concurrency worse = Concurrency.worse(worstHeld, held);
      if (worse != worstHeld) {
        worst = input;
      }
      worstHeld = worse;
    }
    return worst;
  }

  /**
   * The parts' notes, each said once: a note every recording has as it is, one that only some have
   * with how many and which (the first few).
   */
  private static List<Note> groupedNotes(List<PartNotes> parts, int recordings) {
    Map<Note, List<String>> where = new LinkedHashMap<>();
    Map<Note, Integer> counts = new HashMap<>();
    for (PartNotes part : parts) {
      Set<Note> once = new HashSet<>();
      for (Note said : part.notes()) {
        // a note a sum said of some of its recordings is said again of those
        boolean scoped = said.message().key().equals(IN_RECORDINGS);
        Note note =
            scoped
                ? new Note(said.id(), said.severity(), (Message) said.message().args().get("note"))
                : said;
        if (note.id().startsWith("merged-") || note.id().equals("mixed-jdks") || !once.add(note)) {
          continue; // what a sum said of its parts as a whole is said again of the whole
        }
        List<String> names = where.computeIfAbsent(note, n -> new ArrayList<>());
        counts.merge(
            note,
            scoped ? ((Number) said.message().args().get("count")).intValue() : part.recordings(),
            Integer::sum);
        List<?> named = scoped ? (List<?>) said.message().args().get("names") : part.names();
        for (Object name : named) {
          if (names.size() < NAMED) {
            names.add(name.toString());
          }
        }
      }
    }
    List<Note> notes = new ArrayList<>();
    where.forEach(
        (note, names) -> {
          int count = counts.get(note);
          notes.add(
              count >= recordings
                  ? note
                  : new Note(
                      note.id(),
                      note.severity(),
                      Message.of(
                          IN_RECORDINGS,
                          "count",
                          count,
                          "recordings",
                          recordings,
                          "names",
                          names,
                          "more",
                          count > names.size()
                              ? Message.of("note.in-recordings.more", "more", count - names.size())
                              : "",
                          "note",
                          note.message())));
        });
    return notes;
  }

  /**
   * A report's recordings counted rather than listed: how many, from how many folders, how long in
   * all, and how many of each JDK release.
   */
  public static Message header(List<InputFacts> inputs) {
    Set<String> folders = new HashSet<>();
    long recorded = 0;
    Map<Integer, Integer> features = new java.util.TreeMap<>();
    for (InputFacts input : inputs) {
      java.nio.file.Path parent = java.nio.file.Path.of(input.name()).toAbsolutePath().getParent();
      folders.add(String.valueOf(parent));
      recorded += input.durationNanos();
      features.merge(input.jvm() == null ? 0 : input.jvm().feature(), 1, Integer::sum);
    }
    List<String> jdks = new ArrayList<>();
    features.forEach(
        (feature, count) -> jdks.add((feature == 0 ? "unknown" : feature) + " in " + count));
    return Message.of(
        "recordings.header",
        "count",
        inputs.size(),
        "folders",
        folders.size(),
        "recorded",
        Message.nanos(recorded),
        "jdks",
        Message.of("recordings.header.jdks", "jdks", jdks));
  }

  /**
   * The statement of a note said of some of a report's recordings: {@code count} of {@code
   * recordings}, the first few {@code names}, and the {@code note} itself.
   */
  public static final String IN_RECORDINGS = "note.in-recordings";

  /** How many recordings a note of some of them names. */
  static final int NAMED = 3;

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

  /** Sites of several parts, summed by key. */
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
