package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarrierWork;
import dev.vtscope.analysis.Message;
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
    Object call =
        culprit.detail() != null ? culprit.detail() : Message.of("file-io-carriers.a-file-api");
    List<Message> parts = new ArrayList<>();
    if (w.fileIo().count() > 0) {
      parts.add(
          Message.of(
              "file-io-carriers.title.calls",
              "calls",
              w.fileIo().count(),
              "total",
              Message.nanos(w.fileIo().totalNanos())));
    }
    if (!fileRuns.isEmpty()) {
      parts.add(
          Message.of(
              "file-io-carriers.title.runs",
              "runs",
              Facts.events(fileRuns),
              "longRun",
              Message.nanos(CarrierWork.longRunNanos()),
              "longest",
              Message.nanos(Facts.maxNanos(fileRuns))));
    }
    if (compensated > 0) {
      parts.add(Message.of("file-io-carriers.title.compensated", "carriers", compensated));
    }
    Message title =
        Message.of("file-io-carriers.title", "culprit", culprit.qualifiedMethod(), "parts", parts);
    Long threshold = w.fileIoThreshold();
    Message explanation =
        Message.of(
            "file-io-carriers.explanation",
            "compensation",
            compensated > 0
                ? Message.of(
                    "file-io-carriers.explanation.compensated",
                    "carriers",
                    compensated,
                    "call",
                    call,
                    "maxPoolSize",
                    a.scheduler().maxPoolSize().value())
                : fileRuns.isEmpty()
                    ? ""
                    : Message.of("file-io-carriers.explanation.no-compensation"),
            "calls",
            w.fileIo().count() > 0
                ? Message.of(
                    "file-io-carriers.explanation.calls",
                    "calls",
                    w.fileIo().count(),
                    "threshold",
                    threshold != null && threshold > 0
                        ? Message.of(
                            "file-io-carriers.explanation.threshold",
                            "threshold",
                            Message.nanos(threshold))
                        : "",
                    "total",
                    Message.nanos(w.fileIo().totalNanos()),
                    "longest",
                    Message.nanos(w.fileIo().maxNanos()))
                : "",
            "runs",
            fileRuns.isEmpty()
                ? ""
                : Message.of(
                    "file-io-carriers.explanation.runs",
                    "maxGap",
                    Message.nanos(CarrierWork.maxGapNanos()),
                    "runNanos",
                    Message.nanos(runNanos)));
    List<Message> actions = new ArrayList<>();
    actions.add(
        Message.of("file-io-carriers.action.offload", "frame", Facts.culpritFrame(sites.get(0))));
    if (compensated > 0) {
      actions.add(Message.of("file-io-carriers.action.compensating-carriers"));
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
    Severity severity =
        Facts.severity(a, k, w.fileIo().totalNanos() >= runNanos ? w.fileIoSites() : fileRuns);
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
            List.of(culprit.qualifiedMethod()),
            List.of()));
  }
}
