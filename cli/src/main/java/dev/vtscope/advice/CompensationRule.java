package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.Site;
import java.util.ArrayList;
import java.util.List;

/**
 * JDK 21–23: {@code Object.wait()} in a virtual thread blocks its carrier, and the scheduler starts
 * another carrier to compensate, up to {@code maxPoolSize}; past it, virtual threads stall. This
 * can happen with no pinned event at all.
 */
final class CompensationRule implements Rule {

  static final String ID = "carrier-compensation";

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    if (a.monitorWait() == null) {
      return List.of(); // JDK 24+: Object.wait() unmounts
    }
    int started = a.scheduler().carriersStarted();
    int parallelism = a.scheduler().parallelism().value();
    int maxPool = a.scheduler().maxPoolSize().value();
    // With jdk.ThreadStart stacks, the starts that compensated for a wait say so themselves.
    dev.vtscope.analysis.CarrierWork work = a.carrierWork();
    long forWaits =
        work.startStacks()
            ? work.compensationSites().stream()
                .filter(CompensationRule::waits)
                .mapToLong(Facts::eventsOf)
                .sum()
            : -1;
    // A wait that never ends (a pool whose objects are never returned) writes no monitor wait
    // event; the carriers started for it say so through their stacks.
    boolean unended = a.monitorWait().events() == 0;
    if ((unended && forWaits <= 0)
        || forWaits == 0
        || (forWaits < 0 && started >= 0 && parallelism > 0 && started <= parallelism)) {
      return List.of(); // no wait, or waits the scheduler did not need to grow for
    }
    long waited = a.monitorWait().durations().totalNanos();
    boolean nearMax =
        started > 0
            && maxPool > 0
            && started >= k.thresholds().compensationHighShareOfMaxPool() * maxPool;
    Severity severity =
        nearMax
            ? Severity.HIGH
            : unended ? Severity.MEDIUM : Facts.severity(a, k, a.monitorWait().sites());
    // Waits for another thread's class initialiser are recorded as monitor waits too (JDK 21-23):
    // the wait this finding names is an Object.wait.
    List<Site> sites =
        a.monitorWait().sites().stream()
            .filter(
                s ->
                    Facts.culprit(s) == null
                        || Facts.culprit(s).kind()
                            != dev.vtscope.attribution.CulpritKind.CLASS_INIT_WAIT)
            .toList();
    if (sites.isEmpty()) {
      // no wait ended: where the carriers the scheduler started blocked (their start stacks)
      sites = work.compensationSites().stream().filter(CompensationRule::waits).toList();
    }
    Site top = sites.isEmpty() ? null : sites.get(0);
    // Whose code waits decides the advice: the JDK's or a library's cannot be changed by the user,
    // and the frame that called into it can.
    dev.vtscope.attribution.Owner waitOwner =
        top == null || Facts.culprit(top) == null ? null : Facts.culprit(top).owner();
    boolean jdkWait = waitOwner == dev.vtscope.attribution.Owner.JDK;
    boolean libraryWait = waitOwner == dev.vtscope.attribution.Owner.LIBRARY;
    dev.vtscope.recording.Frame caller =
        (jdkWait || libraryWait) && top.attribution().calledFrom() != null
            ? top.attribution().calledFrom()
            : null;
    Object where =
        top == null || Facts.culprit(top) == null
            ? ""
            : jdkWait
                ? Message.of(
                    "carrier-compensation.where.jdk",
                    "culprit",
                    top.attribution().culprit().qualifiedMethod(),
                    "caller",
                    caller != null
                        ? Message.of("carrier-compensation.called-from", "caller", caller)
                        : "")
                : Message.of(
                    "carrier-compensation.where",
                    "culprit",
                    top.attribution().culprit().qualifiedMethod());
    int fixedIn = k.jdk().monitorsStopPinningIn();
    Object stall =
        nearMax ? Message.of("carrier-compensation.title.stall", "maxPoolSize", maxPool) : "";
    Message title =
        forWaits > 0
            ? Message.of(
                "carrier-compensation.title.extra",
                "where",
                where,
                "extra",
                forWaits,
                "parallelism",
                parallelism,
                "stall",
                stall)
            : started > 0
                ? Message.of(
                    "carrier-compensation.title.started",
                    "where",
                    where,
                    "started",
                    started,
                    "parallelism",
                    parallelism,
                    "stall",
                    stall)
                : Message.of("carrier-compensation.title.unknown", "where", where);
    List<Evidence> evidence = new ArrayList<>();
    if (started >= 0) {
      evidence.add(Evidence.count("carriers started", started, "carriers"));
    }
    if (forWaits > 0) {
      evidence.add(
          Evidence.count("carriers started to compensate for Object.wait()", forWaits, "carriers"));
    }
    evidence.add(Evidence.count("parallelism", parallelism, "carriers"));
    evidence.add(Evidence.count("maxPoolSize", maxPool, "carriers"));
    evidence.add(Evidence.count("monitor waits", a.monitorWait().events(), "events"));
    evidence.add(Evidence.nanos("time in Object.wait()", waited));
    evidence.add(Evidence.count("pinned events", a.pinned().events(), "events"));
    List<Message> actions = new ArrayList<>();
    Message upgrade = Message.of("carrier-compensation.action.upgrade-jdk", "fixedIn", fixedIn);
    // What the code waits for decides what frees the carrier: a Semaphore bounds the waiters of a
    // pool, but a response arrives when it does, and a class initialiser runs once.
    WaitedFor kind = top == null ? WaitedFor.OTHER : WaitedFor.of(top);
    if (kind == WaitedFor.CLASS_INIT) {
      actions.add(classInitAction(top));
    } else if (jdkWait) {
      java.util.Optional<Knowledge.Library> calling =
          caller == null ? java.util.Optional.empty() : k.library(caller.className());
      actions.add(
          Message.of(
              "carrier-compensation.action.jdk-wait",
              "caller",
              caller != null ? caller : Message.of("caller.unknown"),
              "api",
              asyncApi(calling, kind)));
    } else if (libraryWait) {
      // The library's code is its maintainers' to change; what the user can do is upgrade the
      // JDK, or keep virtual threads from waiting inside the library at all.
      dev.vtscope.attribution.Culprit culprit = Facts.culprit(top);
      java.util.Optional<Knowledge.Library> known = k.library(culprit.className());
      known.ifPresent(
          lib ->
              actions.add(
                  LibraryFix.action(
                      lib, Facts.version(culprit.artifact()), culprit.qualifiedMethod(), "")));
      actions.add(upgrade);
      actions.add(
          Message.of(
              switch (kind) {
                case POOL -> "carrier-compensation.action.library-wait";
                case RESPONSE -> "carrier-compensation.action.library-wait.response";
                default -> "carrier-compensation.action.library-wait.other";
              },
              "library",
              culprit.artifact() != null
                  ? culprit.artifact().display()
                  : Message.of("library.owning", "className", culprit.className()),
              "culprit",
              culprit.qualifiedMethod(),
              "until",
              Message.of(
                  known.isPresent() && known.get().fixedIn() != null
                      ? "carrier-compensation.until.upgrade"
                      : "carrier-compensation.until.jdk-upgrade"),
              "caller",
              caller != null ? Message.of("carrier-compensation.in-caller", "caller", caller) : "",
              "api",
              asyncApi(known, kind),
              "end",
              Message.of(
                  known.isPresent()
                      ? "carrier-compensation.action.library-wait.end"
                      : "carrier-compensation.action.library-wait.unknown-release")));
    } else {
      actions.add(
          Message.of(
              switch (kind) {
                case POOL -> "carrier-compensation.action.replace-wait";
                case RESPONSE -> "carrier-compensation.action.replace-wait.response";
                default -> "carrier-compensation.action.replace-wait.other";
              },
              "where",
              where));
    }
    if (!libraryWait) {
      actions.add(upgrade);
    }
    actions.add(Message.of("carrier-compensation.action.max-pool"));
    if (started < 0) {
      actions.add(Message.of("carrier-compensation.action.record-thread-start"));
    }
    return List.of(
        new Finding(
            ID,
            severity,
            title,
            Message.of(
                unended
                    ? "carrier-compensation.explanation.unended"
                    : "carrier-compensation.explanation",
                "from",
                k.jdk().virtualThreadsFinalIn(),
                "to",
                fixedIn - 1,
                "maxPoolSize",
                maxPool,
                "waits",
                a.monitorWait().events(),
                "waited",
                Message.nanos(waited),
                "end",
                Message.of(
                    a.pinned().events() == 0
                        ? "carrier-compensation.explanation.invisible"
                        : "carrier-compensation.explanation.end")),
            actions,
            evidence,
            k.jdk().virtualThreadsFinalIn() + "-" + (fixedIn - 1),
            Facts.DOCS + ID,
            waited,
            top == null || Facts.culprit(top) == null
                ? List.of()
                : List.of(top.attribution().culprit().className()),
            top == null || Facts.culprit(top) == null
                ? List.of()
                : List.of(top.attribution().culprit().qualifiedMethod()),
            List.of("compensation")));
  }

  /**
   * The library's asynchronous API, for a wait for a response or for what the names do not say; a
   * pool's wait is bounded by the pool's size, which no asynchronous call changes.
   */
  private static Object asyncApi(java.util.Optional<Knowledge.Library> library, WaitedFor kind) {
    return library
        .filter(l -> l.asyncApi() != null && kind != WaitedFor.POOL)
        .<Object>map(
            l ->
                Message.of(
                    "carrier-compensation.async-api", "library", l.name(), "api", l.asyncApi()))
        .orElse("");
  }

  /** A wait in or for a class's static initialiser: where the initialiser is, if on the stack. */
  private static Message classInitAction(Site top) {
    List<dev.vtscope.recording.Frame> frames = top.stack().frames();
    Object initialiser =
        frames.stream()
            .filter(f -> f.method().equals("<clinit>"))
            .findFirst() // the innermost: the initialiser that waits
            .<Object>map(
                f -> Message.of("carrier-compensation.class-init.in", "class", f.className()))
            .orElse(Message.of("carrier-compensation.class-init.other"));
    return Message.of("carrier-compensation.action.class-init", "initialiser", initialiser);
  }

  /** Whether a compensated start's stack waits in Object.wait. */
  private static boolean waits(Site site) {
    return site.stack().frames().stream()
        .anyMatch(f -> "java.lang.Object".equals(f.className()) && f.method().startsWith("wait"));
  }
}
