package dev.vtscope.analysis;

import dev.vtscope.attribution.Attributor;
import dev.vtscope.attribution.ClassBytesSource;
import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.waits.CarrierHolding;
import dev.vtscope.waits.Deadlock;
import dev.vtscope.waits.Deadlocks;
import dev.vtscope.waits.SchedulerLimits;
import dev.vtscope.waits.WaitClassifier;
import dev.vtscope.waits.WaitGrouping;
import dev.vtscope.waits.WaitKey;
import dev.vtscope.waits.WaitSeries;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Analyses thread dumps already read: one, or a series of one JVM's. */
public final class DumpAnalyzer {

  /**
   * A dump and the name it is known by.
   *
   * @param name its file, as given
   * @param dump the dump read
   */
  public record NamedDump(String name, ThreadDump dump) {}

  private DumpAnalyzer() {}

  /**
   * Why {@code dumps} are not of one JVM (two name different pids or runtime versions), or null
   * when they are: a series compares one JVM's threads, and thread ids of two JVMs name different
   * threads. A dump that does not name its pid or version ({@code jstack}) fits any.
   */
  public static String whyNotOneJvm(List<NamedDump> dumps) {
    Set<Long> pids = new LinkedHashSet<>();
    Set<String> versions = new LinkedHashSet<>();
    Set<String> jvms = new LinkedHashSet<>();
    for (NamedDump d : dumps) {
      long pid = d.dump().pid();
      String version = d.dump().runtimeVersion() == null ? null : d.dump().runtimeVersion().strip();
      if (pid >= 0) {
        pids.add(pid);
      }
      if (version != null) {
        versions.add(version);
      }
      if (pid >= 0 || version != null) {
        jvms.add(
            "pid "
                + (pid < 0 ? "?" : Long.toString(pid))
                + " "
                + (version == null ? "?" : version));
      }
    }
    return pids.size() <= 1 && versions.size() <= 1
        ? null
        : "the dumps are of " + jvms.size() + " JVMs (" + String.join(", ", jvms) + ")";
  }

  /**
   * The analysis of {@code dumps}, which are of one JVM ({@link #whyNotOneJvm}): ordered by the
   * time each was taken (a dump without one keeps its place among the others given).
   *
   * @param options the application's packages ({@code --app-package}) and where class files are
   *     ({@code --classpath}, JDKs): a dump names neither a frame's monitors before JDK 25 nor a
   *     pin's holder, which the class files tell
   * @param recorded the JVM's own class path when it is known (a running JVM's), or null
   */
  public static DumpAnalysis analyze(
      List<NamedDump> dumps, AnalysisOptions options, ClassBytesSource.RecordedClassPath recorded) {
    return analyze(dumps, options, recorded, SchedulerLimits.UNKNOWN);
  }

  /**
   * The analysis of {@code dumps}, as {@link #analyze(List, AnalysisOptions,
   * ClassBytesSource.RecordedClassPath)}, with what the JVM said of its scheduler: its parallelism
   * rates the carriers pinned now, and its maximum pool size tells whether threads pinned in {@code
   * Object.wait()} hold every carrier it may start.
   *
   * @param scheduler the scheduler's parallelism and maximum pool size, as far as known
   */
  public static DumpAnalysis analyze(
      List<NamedDump> dumps,
      AnalysisOptions options,
      ClassBytesSource.RecordedClassPath recorded,
      SchedulerLimits scheduler) {
    List<NamedDump> ordered = new ArrayList<>(dumps);
    if (ordered.stream().allMatch(d -> d.dump().takenAt() != null)) {
      ordered.sort(Comparator.comparing(d -> d.dump().takenAt()));
    }
    FrameOwnership ownership = new FrameOwnership(options.appPackages());
    List<ThreadDump> inOrder = new ArrayList<>(ordered.stream().map(NamedDump::dump).toList());
    ThreadDump last = inOrder.get(inOrder.size() - 1);
    try (ClassBytesSource classes =
        ClassBytesSource.of(
            options.classPath(),
            recorded == null ? List.of() : List.of(recorded),
            last.runtimeVersion() == null ? null : last.runtimeVersion().strip(),
            last.feature(),
            options.jdkHomes())) {
      Attributor attributor = new Attributor(classes, ownership);
      List<Deadlock> deadlocks =
          Deadlocks.find(inOrder, scheduler, attributor, options.jdk()::monitorsHoldCarrier);
      List<PinnedNow> pinned =
          PinnedNow.find(inOrder, attributor, options.jdk()::monitorsHoldCarrier);
      List<DumpedThread> standing =
          CarrierHolding.mayEnterMonitor(inOrder, attributor, options.jdk()::monitorsHoldCarrier);
      if (!standing.isEmpty()) {
        inOrder.set(
            0,
            last.withNote(
                standing.size()
                    + (standing.size() == 1 ? " virtual thread stands" : " virtual threads stand")
                    + " where a monitor is entered (the first at "
                    + standing.get(0).frames().get(0).display()
                    + "): on JDK 21-23 one dump cannot tell waiting there, holding the carrier,"
                    + " from running there; a second dump a moment later tells (vtscope dump PID"
                    + " takes one then)."));
        last = inOrder.get(0);
      }
      Set<String> missing = attributor.monitorEntryClassesMissing();
      if (!missing.isEmpty() && options.jdk().monitorsHoldCarrier(last.feature())) {
        inOrder.set(
            inOrder.size() - 1,
            last.withNote(
                "A dump of JDK 21-23 does not say which virtual threads wait to enter a monitor:"
                    + " vtscope tells it from the class files, and those of "
                    + named(missing)
                    + " were not found here; give --classpath with the application's jars and"
                    + " folders (vtscope dump PID reads the JVM's own class path, and --save keeps"
                    + " it with the dumps)."));
      }
      return new DumpAnalysis(
          ordered.stream().map(NamedDump::name).toList(),
          WaitSeries.of(
              inOrder,
              new WaitClassifier(ownership, attributor, options.jdk()::monitorsHoldCarrier)),
          pinned,
          deadlocks,
          standing.size(),
          scheduler);
    }
  }

  /** A few of {@code classes}, and how many more. */
  private static String named(Set<String> classes) {
    List<String> some = classes.stream().limit(3).toList();
    return String.join(", ", some)
        + (classes.size() > some.size() ? " and " + (classes.size() - some.size()) + " more" : "");
  }

  /**
   * The threads of dump {@code index} of {@code analysis} by what they wait for, read as {@link
   * #analyze} read them: the whole of each group, which names only a few.
   *
   * @param appPackages the application's package prefixes the analysis was made with
   */
  public static Map<WaitKey, List<DumpedThread>> members(
      DumpAnalysis analysis, int index, List<String> appPackages) {
    return WaitGrouping.members(
        analysis.series().dumps().get(index), new WaitClassifier(new FrameOwnership(appPackages)));
  }
}
