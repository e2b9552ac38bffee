package dev.vtscope.analysis;

import dev.vtscope.recording.JvmFacts;
import java.util.List;

/**
 * The result of analysing one or more recordings; renderers only format it.
 *
 * @param inputs the recordings, in the order given
 * @param jvm the JVM of the first recording that names one, or null
 * @param cpus CPUs that JVM saw, or 0 when unknown
 * @param scheduler the virtual-thread scheduler's settings
 * @param settings the JFR settings in force
 * @param groupBy how sites were grouped
 * @param pinned pinned events
 * @param carriers carriers held at the same time: pinned, and on JDK 21–23 also blocked entering a
 *     monitor (the worst input, when there are several)
 * @param monitorEnter monitor enters of virtual threads (JDK 21–23), or null on JDK 24+
 * @param monitorWait monitor waits of virtual threads (JDK 21–23), or null on JDK 24+
 * @param submitFailed submit failures
 * @param carrierWork carrier time taken without pinning: CPU runs, file I/O, compensation
 * @param timeline carriers held over the recording that held most, in slices, for charts
 * @param pinnedTree pinned stacks as a tree weighted by pinned time, for a flame graph
 * @param carriersAtEnd what the carriers held when the recording ended, from its last thread dump
 *     (of the recording whose carriers were held most, when there are several), or null when no
 *     recording has one
 * @param notes what the recording can and cannot show
 * @param parts of an analysis of several recordings, each recording's own analysis, in the order of
 *     {@code inputs}, from which its findings are made; empty for one recording, and for a sum of
 *     reports (whose findings were made where each report was)
 */
public record Analysis(
    List<InputFacts> inputs,
    JvmFacts jvm,
    int cpus,
    SchedulerSettings scheduler,
    RecordingSettings settings,
    GroupBy groupBy,
    PinnedSummary pinned,
    Concurrency carriers,
    MonitorSummary monitorEnter,
    MonitorSummary monitorWait,
    SubmitFailedSummary submitFailed,
    CarrierWork carrierWork,
    CarrierTimeline timeline,
    StackTree pinnedTree,
    CarriersAtEnd carriersAtEnd,
    List<Note> notes,
    List<Analysis> parts) {

  public Analysis {
    inputs = List.copyOf(inputs);
    notes = List.copyOf(notes);
    parts = List.copyOf(parts);
  }

  /** The analysis of one recording. */
  public Analysis(
      List<InputFacts> inputs,
      JvmFacts jvm,
      int cpus,
      SchedulerSettings scheduler,
      RecordingSettings settings,
      GroupBy groupBy,
      PinnedSummary pinned,
      Concurrency carriers,
      MonitorSummary monitorEnter,
      MonitorSummary monitorWait,
      SubmitFailedSummary submitFailed,
      CarrierWork carrierWork,
      CarrierTimeline timeline,
      StackTree pinnedTree,
      CarriersAtEnd carriersAtEnd,
      List<Note> notes) {
    this(
        inputs,
        jvm,
        cpus,
        scheduler,
        settings,
        groupBy,
        pinned,
        carriers,
        monitorEnter,
        monitorWait,
        submitFailed,
        carrierWork,
        timeline,
        pinnedTree,
        carriersAtEnd,
        notes,
        List.of());
  }

  /**
   * An analysis as a JSON report gave it ({@code vtscope merge} reads reports back): the
   * carriers-held timeline and the flame graph, which such a report leaves out, are empty.
   */
  public static Analysis reported(
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
      CarriersAtEnd carriersAtEnd,
      List<Note> notes) {
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
        notes);
  }

  /** The same analysis with {@code notes} instead of its own. */
  public Analysis withNotes(List<Note> notes) {
    return new Analysis(
        inputs,
        jvm,
        cpus,
        scheduler,
        settings,
        groupBy,
        pinned,
        carriers,
        monitorEnter,
        monitorWait,
        submitFailed,
        carrierWork,
        timeline,
        pinnedTree,
        carriersAtEnd,
        notes,
        parts);
  }

  /** The same sum with {@code parts}, the analyses of its recordings one by one. */
  Analysis withParts(List<Analysis> parts) {
    return new Analysis(
        inputs,
        jvm,
        cpus,
        scheduler,
        settings,
        groupBy,
        pinned,
        carriers,
        monitorEnter,
        monitorWait,
        submitFailed,
        carrierWork,
        timeline,
        pinnedTree,
        carriersAtEnd,
        notes,
        parts);
  }

  /** Whether this analysis is of more than one recording. */
  public boolean several() {
    return inputs.size() > 1;
  }

  /**
   * The carriers its last thread dumps show held, when it ended, by pins that had not ended (which
   * wrote no event); 0 without such dumps.
   */
  public int carriersHeldAtEnd() {
    return carriersAtEnd == null ? 0 : carriersAtEnd.held();
  }

  /**
   * Every site that held carriers, by section, in report order: pinned, monitor enter and monitor
   * wait (JDK 21–23), CPU run and file I/O. What reports and the explorer list.
   */
  public java.util.Map<String, List<Site>> siteSections() {
    java.util.Map<String, List<Site>> sections = new java.util.LinkedHashMap<>();
    sections.put("pinned", pinned.sites());
    if (monitorEnter != null) {
      sections.put("monitor enter", monitorEnter.sites());
      sections.put("monitor wait", monitorWait.sites());
    }
    sections.put("CPU run", carrierWork.runSites());
    sections.put("file I/O", carrierWork.fileIoSites());
    return sections;
  }

  /**
   * Every site of {@link #siteSections()} in one list, most carrier time first: the sites a short
   * report names when it has room for a few of all kinds.
   */
  public List<Site> sitesByTime() {
    List<Site> all = new java.util.ArrayList<>();
    siteSections().values().forEach(all::addAll);
    all.sort(java.util.Comparator.comparingLong((Site s) -> s.durations().totalNanos()).reversed());
    return List.copyOf(all);
  }

  /**
   * The recordings that can show no pin, by name in the order given, each judged by its own
   * settings ({@link RecordingSettings#canShowPinning()}); empty when every one can. An input
   * without figures of its own is judged by this analysis's settings when it is the first, whose
   * settings they are.
   */
  public List<String> recordingsWithoutPinning() {
    List<String> off = new java.util.ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      InputFacts input = inputs.get(i);
      RecordingSettings own =
          input.figures() != null ? input.figures().settings() : i == 0 ? settings : null;
      if (own != null && !own.canShowPinning()) {
        off.add(input.name());
      }
    }
    return List.copyOf(off);
  }

  /** Whether monitor enters and waits of virtual threads hold their carriers (JDK 21–23). */
  public boolean monitorsHoldCarriers() {
    return monitorEnter != null;
  }

  /** The JDK feature release of the recording, or 0 when unknown. */
  public int feature() {
    return jvm == null ? 0 : jvm.feature();
  }
}
