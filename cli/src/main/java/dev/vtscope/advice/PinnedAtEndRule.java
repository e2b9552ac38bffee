package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarriersAtEnd;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.PinnedNow;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.recording.Frame;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Carriers held by blocked virtual threads when the recording ended, from its last thread dump: a
 * pin that has not ended has no pinned event, and one that never ends (every carrier pinned while
 * what would wake the threads needs a carrier itself) leaves a recording that looks healthy but for
 * this. High when they held every carrier; otherwise medium when they held them since the dump
 * before, low when only the last dump shows them.
 */
final class PinnedAtEndRule implements Rule {

  static final String ID = "pinned-at-end";
  private static final int CULPRITS_NAMED = 3;

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    CarriersAtEnd end = a.carriersAtEnd();
    if (end == null || end.held() == 0) {
      return List.of();
    }
    int parallelism = a.scheduler().parallelism().value();
    int held = end.held();
    Set<String> culprits = new LinkedHashSet<>();
    Set<String> waits = new LinkedHashSet<>();
    List<String> classes = new ArrayList<>();
    for (PinnedNow p : end.pinned()) {
      Culprit c = p.attribution() == null ? null : p.attribution().culprit();
      if (c != null && culprits.size() < CULPRITS_NAMED && culprits.add(c.qualifiedMethod())) {
        classes.add(c.className());
      }
      Frame w = p.attribution() == null ? null : p.attribution().waitedAt();
      if (w != null && waits.size() < CULPRITS_NAMED) {
        waits.add(w.display());
      }
    }
    // every carrier: the parallelism, or more when the scheduler started more to compensate and
    // they are in the dump (one that is free runs the other virtual threads)
    boolean every = held >= Math.max(parallelism, end.carriers());
    // A hang is never excused by an allow-list of classes whose short pins are accepted: with
    // every carrier held nothing runs, whoever holds them.
    List<String> blamed = every ? List.of() : classes;
    long since = end.beforeNanos() < 0 ? -1 : end.atNanos() - end.beforeNanos();
    // JDK 21's dump names no frame of a virtual thread: the carriers held the same one since the
    // dump before; JDK 25's names the holders
    Object how =
        end.stacksPrinted()
            ? culprits.isEmpty()
                ? ""
                : Message.of("pinned-at-end.held-by", "culprits", List.copyOf(culprits))
            : Message.of("pinned-at-end.held-since", "since", Message.nanos(since));
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(Evidence.count("virtual threads held blocked at the end", held, "threads"));
    evidence.add(Evidence.count("carriers in the last thread dump", end.carriers(), "carriers"));
    if (parallelism > 0) {
      evidence.add(Evidence.count("parallelism", parallelism, "carriers"));
    }
    evidence.add(
        Evidence.text("last thread dump", Instant.ofEpochSecond(0, end.atNanos()).toString()));
    if (!end.stacksPrinted()) {
      evidence.add(Evidence.nanos("held unchanged since the dump before", since));
    }
    List<Message> actions = new ArrayList<>();
    if (!culprits.isEmpty()) {
      actions.add(
          waits.isEmpty()
              ? Message.of("pinned-now.action.fix-holders", "culprits", List.copyOf(culprits))
              : Message.of(
                  "pinned-at-end.action.fix-holders",
                  "waits",
                  List.copyOf(waits),
                  "culprits",
                  List.copyOf(culprits)));
    }
    // the recording names its JVM's process: if it still runs here, ask it
    long pid = a.jvm() == null ? -1 : a.jvm().pid();
    actions.add(
        pid > 0 && a.inputs().size() == 1
            ? Message.of("pinned-at-end.action.watch.pid", "pid", pid)
            : Message.of("pinned-at-end.action.watch"));
    actions.add(Message.of("pinned-now.action.dump"));
    return List.of(
        new Finding(
            ID,
            // every carrier: nothing else can run. Some: a pin the last dump happened to catch is
            // low; one held since the dump before, medium
            every ? Severity.HIGH : end.unchanged() > 0 ? Severity.MEDIUM : Severity.LOW,
            Message.of(
                every ? "pinned-at-end.title.every" : "pinned-at-end.title.some",
                "threads",
                held,
                "how",
                how),
            Message.of(
                end.stacksPrinted()
                    ? "pinned-at-end.explanation.frames"
                    : "pinned-at-end.explanation.unchanged",
                "of",
                a.inputs().size() > 1 && end.input() < a.inputs().size()
                    ? Message.of(
                        "pinned-at-end.of", "recording", a.inputs().get(end.input()).name())
                    : "",
                "carrying",
                end.carrying(),
                "carriers",
                end.carriers(),
                "held",
                held,
                "waits",
                waits.isEmpty()
                    ? ""
                    : Message.of("pinned-at-end.waiting-in", "waits", List.copyOf(waits)),
                "since",
                Message.nanos(Math.max(0, since))),
            actions,
            evidence,
            "21+",
            Facts.DOCS + ID,
            since > 0 ? held * since : 0,
            blamed,
            List.of()));
  }
}
