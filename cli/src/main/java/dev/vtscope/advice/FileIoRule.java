package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarrierWork;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Blocking file I/O in virtual threads: a file read or write does not unmount, so the carrier is
 * held for the whole call, and the scheduler may start extra carriers to compensate (seen in the
 * stacks of {@code jdk.ThreadStart}).
 */
final class FileIoRule implements Rule {

  static final String ID = "file-io-carriers";

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    CarrierWork w = a.carrierWork();
    if (w == null) {
      return List.of();
    }
    List<Site> compensatedFileIo =
        w.compensationSites().stream()
            .filter(s -> s.stack().frames().stream().anyMatch(CarrierWork::isFileApi))
            .toList();
    List<Site> fileRuns =
        w.runSites().stream()
            .filter(s -> Facts.culprit(s) != null && Facts.culprit(s).kind() == CulpritKind.FILE_IO)
            .toList();
    long compensated = Facts.events(compensatedFileIo);
    long runNanos = Facts.total(fileRuns);
    if (w.fileIo().count() == 0 && compensated == 0 && fileRuns.isEmpty()) {
      return List.of();
    }
    List<Site> sites =
        !w.fileIoSites().isEmpty()
            ? w.fileIoSites()
            : !fileRuns.isEmpty() ? fileRuns : compensatedFileIo;
    Culprit culprit = Facts.culprit(sites.get(0));
    // Carrier time: the recorded calls, or where none reached the threshold, the sampled runs.
    long held = Math.max(w.fileIo().totalNanos(), runNanos);
    String call = culprit.detail() != null ? culprit.detail() : "a file API";
    List<String> parts = new ArrayList<>();
    if (w.fileIo().count() > 0) {
      parts.add(
          Facts.plural(w.fileIo().count(), "call")
              + ", "
              + Facts.duration(w.fileIo().totalNanos()));
    }
    if (!fileRuns.isEmpty()) {
      parts.add(
          Facts.plural(Facts.events(fileRuns), "sampled run")
              + " of at least "
              + Facts.duration(CarrierWork.longRunNanos())
              + " in file calls, the longest "
              + Facts.duration(Facts.maxNanos(fileRuns)));
    }
    if (compensated > 0) {
      parts.add("the scheduler started " + Facts.plural(compensated, "carrier") + " to compensate");
    }
    String title =
        culprit.qualifiedMethod()
            + " holds carriers in blocking file I/O: "
            + String.join("; ", parts);
    Long threshold = w.fileIoThreshold();
    String explanation =
        "A virtual thread in a file read or write keeps its carrier until the call returns: files"
            + " have no non-blocking mode for it to unmount on. "
            + (compensated > 0
                ? "To keep the other virtual threads running, the scheduler started "
                    + Facts.plural(compensated, "platform thread")
                    + " as extra carriers (the stacks of their jdk.ThreadStart events pass"
                    + " through the pool's compensation, from "
                    + call
                    + "), up to jdk.virtualThreadScheduler.maxPoolSize ("
                    + a.scheduler().maxPoolSize().value()
                    + "). "
                : fileRuns.isEmpty()
                    ? ""
                    : "The scheduler started no carrier to compensate: the other virtual"
                        + " threads waited. ")
            + (w.fileIo().count() > 0
                ? "The recording has "
                    + w.fileIo().count()
                    + " file reads and writes of virtual threads"
                    + (threshold != null && threshold > 0
                        ? " of at least " + Facts.duration(threshold)
                        : "")
                    + ", "
                    + Facts.duration(w.fileIo().totalNanos())
                    + " of carrier time in total, the longest "
                    + Facts.duration(w.fileIo().maxNanos())
                    + ". "
                : "")
            + (fileRuns.isEmpty()
                ? ""
                : "Samples found virtual threads in file calls on a carrier again and again"
                    + " (samples at most "
                    + Facts.duration(CarrierWork.maxGapNanos())
                    + " apart) for "
                    + Facts.duration(runNanos)
                    + " at least, in calls each too short to be recorded.");
    List<String> actions = new ArrayList<>();
    actions.add(
        "In "
            + Facts.culpritFrame(sites.get(0))
            + ", do large or slow file I/O on a bounded pool of platform threads (as many as the"
            + " disk serves well) and have the virtual thread wait for the result, or let only a"
            + " few virtual threads into it at once with a java.util.concurrent.Semaphore: both"
            + " keep carriers free and stop the pool from growing.");
    if (compensated > 0) {
      actions.add(
          "Each compensating carrier is a platform thread with its own stack: a burst of file I/O"
              + " from many virtual threads can start up to maxPoolSize of them.");
    }
    List<Evidence> evidence = new ArrayList<>();
    if (!fileRuns.isEmpty()) {
      evidence.add(Evidence.count("sampled runs in file calls", Facts.events(fileRuns), "runs"));
      evidence.add(Evidence.nanos("carrier time in them (at least)", runNanos));
    }
    if (w.fileIo().count() > 0) {
      evidence.add(Evidence.count("file reads and writes", w.fileIo().count(), "calls"));
      evidence.add(Evidence.nanos("carrier time in file I/O", w.fileIo().totalNanos()));
      evidence.add(Evidence.nanos("longest", w.fileIo().maxNanos()));
      evidence.add(Evidence.count("virtual threads", w.fileIoThreads(), "threads"));
    }
    if (compensated > 0) {
      evidence.add(Evidence.count("carriers started to compensate", compensated, "carriers"));
    }
    if (culprit.artifact() != null) {
      evidence.add(Evidence.text("artifact", culprit.artifact().display()));
    }
    Severity severity = Facts.severity(a, k, held);
    if (compensated > 0 && severity.compareTo(Severity.LOW) < 0) {
      severity = Severity.LOW;
    }
    return List.of(
        new Finding(
            ID,
            severity,
            title,
            explanation,
            actions,
            evidence,
            k.jdk().virtualThreadsFinalIn() + "+",
            Facts.DOCS + ID,
            held,
            List.of(culprit.className()),
            List.of()));
  }
}
