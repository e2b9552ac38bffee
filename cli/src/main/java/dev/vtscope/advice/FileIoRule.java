package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarrierWork;
import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
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
            .filter(s -> s.stack().frames().stream().anyMatch(FileIoRule::isFileApi))
            .toList();
    long compensated = Facts.events(compensatedFileIo);
    if (w.fileIo().count() == 0 && compensated == 0) {
      return List.of();
    }
    List<Site> sites = !w.fileIoSites().isEmpty() ? w.fileIoSites() : compensatedFileIo;
    Culprit culprit = Facts.culprit(sites.get(0));
    long held = w.fileIo().totalNanos();
    String call = culprit.detail() != null ? culprit.detail() : "a file API";
    String title =
        culprit.qualifiedMethod()
            + " holds carriers in blocking file I/O"
            + (w.fileIo().count() > 0
                ? ": " + Facts.plural(w.fileIo().count(), "call") + ", " + Facts.duration(held)
                : "")
            + (compensated > 0
                ? (w.fileIo().count() > 0 ? "; " : ": ")
                    + "the scheduler started "
                    + Facts.plural(compensated, "carrier")
                    + " to compensate"
                : "");
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
                : "")
            + (w.fileIo().count() > 0
                ? "The recording has "
                    + w.fileIo().count()
                    + " file reads and writes of virtual threads"
                    + (threshold != null && threshold > 0
                        ? " of at least " + Facts.duration(threshold)
                        : "")
                    + ", "
                    + Facts.duration(held)
                    + " of carrier time in total, the longest "
                    + Facts.duration(w.fileIo().maxNanos())
                    + "."
                : "");
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
    if (w.fileIo().count() > 0) {
      evidence.add(Evidence.count("file reads and writes", w.fileIo().count(), "calls"));
      evidence.add(Evidence.nanos("carrier time in file I/O", held));
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

  /** A frame of the JDK's blocking file APIs. */
  static boolean isFileApi(dev.vtscope.recording.Frame f) {
    String c = f.className();
    return c.startsWith("java.io.File")
        || c.equals("java.io.RandomAccessFile")
        || c.startsWith("sun.nio.ch.FileChannelImpl")
        || c.startsWith("sun.nio.fs.UnixFileSystemProvider")
        || c.startsWith("java.nio.file.Files");
  }
}
