package dev.vtscope.advice;

import dev.vtscope.analysis.Message;
import dev.vtscope.recording.Frame;
import dev.vtscope.threaddump.ObjectRef;
import dev.vtscope.waits.Deadlock;
import dev.vtscope.waits.WaitEdge;
import dev.vtscope.waits.WaitEdge.Resource;
import dev.vtscope.waits.WaitGraph;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The deadlocks and carrier starvations of thread dumps ({@link dev.vtscope.waits.Deadlocks}), a
 * finding each, naming the whole chain and the fix for its kind on its JDK. Not a {@link Rule}:
 * rules read an analysis of events, and this reads the dumps; a pin that never ends has no event.
 */
public final class DeadlockFinding {

  static final String ID = "deadlock";
  static final String CLASS_INIT_ID = "class-init-deadlock";
  static final String STARVATION_ID = "carrier-starvation-deadlock";
  private static final int NEEDERS_NAMED = 3;

  private DeadlockFinding() {}

  /** The findings of {@code found}, most certain first. */
  public static List<Finding> of(List<Deadlock> found) {
    return of(found, Knowledge.standard());
  }

  static List<Finding> of(List<Deadlock> found, Knowledge k) {
    List<Finding> findings = new ArrayList<>();
    for (Deadlock d : found) {
      findings.add(finding(d, k));
    }
    findings.sort(Comparator.comparing(Finding::severity, Comparator.reverseOrder()));
    return findings;
  }

  private static Finding finding(Deadlock d, Knowledge k) {
    boolean certain =
        d.proven() || d.stuck() || (d.closed() && d.weakest() != WaitEdge.Evidence.UNKNOWN_HOLDER);
    String certainty =
        d.proven() ? "proven" : d.stuck() ? "stuck" : certain ? "probable" : "possible";
    Message title =
        Message.of(
            "deadlock.title." + certainty,
            "kind",
            kind(d),
            "chain",
            chain(d),
            "stuck",
            d.stuck() ? d.stuckAtLeast() : java.time.Duration.ZERO);
    List<Message> explanation = new ArrayList<>();
    explanation.add(Message.of("deadlock.explanation." + slug(d.kind())));
    List<String> pinned = new ArrayList<>();
    for (WaitGraph.Node n : d.threads()) {
      if (n.holdsCarrier()) {
        pinned.add(n.name().isEmpty() ? "#" + n.id() : n.name());
      }
    }
    // the hang at the pool's maximum pins hundreds of carriers: its chain names a few
    if (!pinned.isEmpty() && d.kind() != Deadlock.Kind.OBJECT_WAIT_STARVATION) {
      explanation.add(
          Message.of(
              pinned.size() == 1 ? "deadlock.explanation.pins.one" : "deadlock.explanation.pins",
              "threads",
              pinned));
    }
    explanation.add(evidenceMessage(d));
    return new Finding(
        id(d.kind()),
        certain ? Severity.HIGH : Severity.MEDIUM,
        title,
        Message.of("deadlock.explanation", "parts", explanation),
        actions(d, k, certain),
        evidence(d),
        jdks(d.kind(), k),
        Facts.DOCS + id(d.kind()),
        0,
        classes(d),
        List.of());
  }

  /** How the finding is known: from what the dumps state, or read from where threads stand. */
  private static Message evidenceMessage(Deadlock d) {
    if (d.kind() == Deadlock.Kind.OBJECT_WAIT_STARVATION) {
      return d.maxPoolSize() > 0
          ? Message.of(
              "deadlock.evidence.max-pool-size",
              "max",
              (long) d.maxPoolSize(),
              "capacity",
              (long) d.capacity())
          : Message.of("deadlock.evidence.max-pool-size.unknown");
    }
    if (d.edges().stream().anyMatch(e -> e.resource() instanceof Resource.MonitorEntry)) {
      return Message.of(
          d.stuck() ? "deadlock.evidence.monitor-entry" : "deadlock.evidence.monitor-entry.one");
    }
    return Message.of("deadlock.evidence." + slug(d.weakest()));
  }

  private static String id(Deadlock.Kind kind) {
    return switch (kind) {
      case CLASS_INIT, CLASS_INIT_STARVATION -> CLASS_INIT_ID;
      case CARRIER_STARVATION, OBJECT_WAIT_STARVATION -> STARVATION_ID;
      default -> ID;
    };
  }

  private static String jdks(Deadlock.Kind kind, Knowledge k) {
    return switch (kind) {
      case CARRIER_STARVATION, OBJECT_WAIT_STARVATION ->
          "21-" + (k.jdk().monitorsStopPinningIn() - 1);
      default -> "21+";
    };
  }

  private static Message kind(Deadlock d) {
    String cls = initialised(d);
    if (d.kind() == Deadlock.Kind.OBJECT_WAIT_STARVATION) {
      return d.maxPoolSize() > 0
          ? Message.of(
              "deadlock.kind.object-wait-starvation",
              "capacity",
              (long) d.capacity(),
              "max",
              (long) d.maxPoolSize())
          : Message.of(
              "deadlock.kind.object-wait-starvation.max-unknown", "capacity", (long) d.capacity());
    }
    return Message.of(
        "deadlock.kind." + slug(d.kind()),
        "class",
        cls == null ? "" : cls,
        "capacity",
        (long) d.capacity());
  }

  /** The class whose initialisation the chain waits for, or null. */
  private static String initialised(Deadlock d) {
    for (WaitEdge e : d.edges()) {
      if (e.resource() instanceof Resource.ClassInit c) {
        return c.className();
      }
    }
    return null;
  }

  /** The chain in words: the carriers' holders once, then each wait in the order found. */
  private static List<Message> chain(Deadlock d) {
    if (d.kind() == Deadlock.Kind.OBJECT_WAIT_STARVATION) {
      return waitersChain(d);
    }
    List<Message> links = new ArrayList<>();
    List<Message> holders = new ArrayList<>();
    // a thread is described where it is first named, and by its name alone after
    Set<Long> told = new java.util.HashSet<>();
    // by thread id: a dump lists virtual threads in an order of its own, which varies between runs
    d.edges().stream()
        .filter(e -> e.waiter() == WaitGraph.CARRIERS)
        .map(WaitEdge::holder)
        .sorted()
        .forEach(holder -> holders.add(thread(d.nodes().get(holder), told)));
    if (!holders.isEmpty()) {
      links.add(
          Message.of(
              "deadlock.link.carriers", "capacity", (long) d.capacity(), "threads", holders));
    }
    for (WaitEdge e : d.edges()) {
      WaitGraph.Node waiter = d.nodes().get(e.waiter());
      if (waiter == null || !waiter.isThread()) {
        continue;
      }
      WaitGraph.Node holder = e.hasHolder() ? d.nodes().get(e.holder()) : null;
      links.add(link(waiter, e, holder, told));
    }
    if (!d.needCarrier().isEmpty()) {
      links.add(needCarrier(d, told));
    }
    return links;
  }

  /** The virtual threads that wait for a carrier, a few of them named. */
  private static Message needCarrier(Deadlock d, Set<Long> told) {
    List<Message> named = new ArrayList<>();
    for (WaitGraph.Node n :
        d.needCarrier().subList(0, Math.min(NEEDERS_NAMED, d.needCarrier().size()))) {
      named.add(thread(n, told));
    }
    return Message.of(
        "deadlock.link.need-carrier",
        "count",
        (long) d.needCarrier().size(),
        "threads",
        named,
        "more",
        d.needCarrier().size() > NEEDERS_NAMED
            ? Message.of(
                "deadlock.link.need-carrier.more",
                "more",
                (long) (d.needCarrier().size() - NEEDERS_NAMED))
            : "");
  }

  /**
   * The chain of the hang at the pool's maximum: the carriers' holders, as many as the scheduler
   * may start (256 by default), in one link with a few named, where they wait and on what, then the
   * virtual threads that cannot get a carrier.
   */
  private static List<Message> waitersChain(Deadlock d) {
    List<WaitGraph.Node> holders = new ArrayList<>();
    d.edges().stream()
        .filter(e -> e.waiter() == WaitGraph.CARRIERS)
        .map(e -> d.nodes().get(e.holder()))
        .filter(java.util.Objects::nonNull)
        .sorted(Comparator.comparingLong(WaitGraph.Node::id))
        .forEach(holders::add);
    Set<String> monitors = new LinkedHashSet<>();
    for (WaitEdge e : d.edges()) {
      if (e.resource() instanceof Resource.Release r && r.object() != null) {
        monitors.add(object(r.object()));
      }
    }
    Set<Long> told = new java.util.HashSet<>();
    List<Message> named = new ArrayList<>();
    for (WaitGraph.Node n : holders.subList(0, Math.min(NEEDERS_NAMED, holders.size()))) {
      // where they wait is said once, for them all
      told.add(n.id());
      named.add(
          n.name().isEmpty()
              ? Message.of("deadlock.thread.virtual.unnamed", "tid", n.id(), "pinned", "", "at", "")
              : Message.of(
                  "deadlock.thread.virtual",
                  "name",
                  n.name(),
                  "tid",
                  n.id(),
                  "pinned",
                  "",
                  "at",
                  ""));
    }
    List<Message> links = new ArrayList<>();
    links.add(
        Message.of(
            "deadlock.link.object-wait",
            "capacity",
            (long) d.capacity(),
            "count",
            (long) holders.size(),
            "monitor",
            monitors.isEmpty()
                ? Message.of("deadlock.link.object-wait.monitor-unknown")
                : Message.of("deadlock.link.object-wait.monitor", "lock", List.copyOf(monitors)),
            "sites",
            waitSites(d),
            "threads",
            named,
            "more",
            holders.size() > NEEDERS_NAMED
                ? Message.of(
                    "deadlock.link.need-carrier.more",
                    "more",
                    (long) (holders.size() - NEEDERS_NAMED))
                : ""));
    if (!d.needCarrier().isEmpty()) {
      links.add(needCarrier(d, told));
    }
    return links;
  }

  private static Message link(
      WaitGraph.Node waiterNode, WaitEdge e, WaitGraph.Node holder, Set<Long> told) {
    boolean described = !told.contains(waiterNode.id());
    Message waiter = thread(waiterNode, told);
    Resource r = e.resource();
    if (r instanceof Resource.Monitor m) {
      return lockLink(true, waiter, m.lock(), holder, told);
    } else if (r instanceof Resource.MonitorEntry m) {
      Object where =
          described && m.at().equals(waiterNode.at())
              ? Message.of("deadlock.link.monitor.entering.there")
              : Message.of("deadlock.link.monitor.entering.at", "frame", m.at());
      if (m.holding() == null) {
        return Message.of("deadlock.link.monitor.entering.only", "waiter", waiter, "where", where);
      }
      return m.holding().equals(m.at())
          ? Message.of("deadlock.link.monitor.entering", "waiter", waiter, "where", where)
          : Message.of(
              "deadlock.link.monitor.entering.held",
              "waiter",
              waiter,
              "where",
              where,
              "held",
              m.holding());
    } else if (r instanceof Resource.OwnableLock l) {
      return lockLink(false, waiter, l.lock(), holder, told);
    } else if (r instanceof Resource.ClassInit c) {
      return holder == null
          ? Message.of("deadlock.link.class-init.unknown", "waiter", waiter, "class", c.className())
          : Message.of(
              "deadlock.link.class-init",
              "waiter",
              waiter,
              "class",
              c.className(),
              "holder",
              thread(holder, told));
    } else if (r instanceof Resource.Release x) {
      return Message.of(
          "deadlock.link.release", "waiter", waiter, "what", x.what().isEmpty() ? "?" : x.what());
    }
    return Message.of("deadlock.link.needs-carrier", "waiter", waiter);
  }

  private static Message lockLink(
      boolean monitor, Message waiter, ObjectRef lock, WaitGraph.Node holder, Set<Long> told) {
    String object = object(lock);
    if (holder == null) {
      return Message.of(
          monitor ? "deadlock.link.monitor.unknown" : "deadlock.link.lock.unknown",
          "waiter",
          waiter,
          "lock",
          object);
    }
    if (holder.kind() == WaitGraph.Node.Kind.UNNAMED_OWNER) {
      return Message.of(
          monitor ? "deadlock.link.monitor.unmounted" : "deadlock.link.lock.unmounted",
          "waiter",
          waiter,
          "lock",
          object);
    }
    return Message.of(
        monitor ? "deadlock.link.monitor" : "deadlock.link.lock",
        "waiter",
        waiter,
        "lock",
        object,
        "holder",
        thread(holder, told));
  }

  private static String object(ObjectRef lock) {
    if (lock == null) {
      return "?";
    }
    return lock.kind() == ObjectRef.IdKind.IDENTITY && lock.id() != null
        ? lock.id()
        : lock.id() == null ? lock.className() : lock.className() + " <" + lock.id() + ">";
  }

  /** A thread as first named: its kind, id, pin and frame; by its name alone once {@code told}. */
  private static Message thread(WaitGraph.Node n, Set<Long> told) {
    if (n == null) {
      return Message.of("deadlock.thread.unknown");
    }
    boolean virtual = n.kind() == WaitGraph.Node.Kind.VIRTUAL;
    if (!told.add(n.id())) {
      return n.name().isEmpty()
          ? Message.of(
              virtual ? "deadlock.thread.virtual.unnamed" : "deadlock.thread.platform.unnamed",
              "tid",
              n.id(),
              "pinned",
              "",
              "at",
              "")
          : Message.of("deadlock.thread.again", "name", n.name());
    }
    // Thread.print names no carried virtual thread: its id alone then
    String key =
        n.name().isEmpty()
            ? virtual ? "deadlock.thread.virtual.unnamed" : "deadlock.thread.platform.unnamed"
            : virtual ? "deadlock.thread.virtual" : "deadlock.thread.platform";
    return Message.of(
        key,
        "name",
        n.name(),
        "tid",
        n.id(),
        "pinned",
        n.holdsCarrier() ? Message.of("deadlock.thread.pinned") : "",
        "at",
        n.at() == null ? "" : Message.of("deadlock.thread.at", "frame", n.at()));
  }

  private static List<Message> actions(Deadlock d, Knowledge k, boolean certain) {
    List<Message> actions = new ArrayList<>();
    int feature = d.feature();
    int unpinned = k.jdk().monitorsStopPinningIn();
    String cls = initialised(d);
    switch (d.kind()) {
      case MONITOR, LOCK, LOCK_AND_MONITOR ->
          actions.add(Message.of("deadlock.action.lock-order", "sites", sites(d)));
      case CARRIER_STARVATION -> {
        if (feature == 0 || feature < unpinned) {
          actions.add(
              Message.of(
                  "deadlock.action.upgrade",
                  "release",
                  (long) unpinned,
                  "source",
                  k.jdk().monitorsStopPinningSource()));
        }
        actions.add(Message.of("deadlock.action.reentrant-lock", "sites", sites(d)));
        actions.add(Message.of("deadlock.action.parallelism"));
      }
      case OBJECT_WAIT_STARVATION -> {
        actions.add(Message.of("deadlock.action.condition", "sites", waitSites(d)));
        if (feature == 0 || feature < unpinned) {
          actions.add(
              Message.of(
                  "deadlock.action.upgrade-wait",
                  "release",
                  (long) unpinned,
                  "source",
                  k.jdk().monitorsStopPinningSource()));
        }
        actions.add(
            d.maxPoolSize() > 0
                ? Message.of("deadlock.action.max-pool-size", "max", (long) d.maxPoolSize())
                : Message.of("deadlock.action.max-pool-size.unknown"));
      }
      case CLASS_INIT, CLASS_INIT_STARVATION -> {
        actions.add(Message.of("deadlock.action.clinit", "class", cls == null ? "?" : cls));
        int unmounts = k.jdk().classInitWaitUnmountsIn();
        if (d.kind() == Deadlock.Kind.CLASS_INIT_STARVATION
            && (feature == 0 || feature < unmounts)) {
          actions.add(
              Message.of(
                  "deadlock.action.upgrade-clinit",
                  "release",
                  (long) unmounts,
                  "source",
                  k.jdk().classInitWaitUnmountsSource()));
        }
      }
    }
    if (!certain) {
      actions.add(Message.of("deadlock.action.series"));
    }
    return actions;
  }

  /** Where the chain's threads wait, each place once. */
  private static List<Frame> sites(Deadlock d) {
    Set<Frame> sites = new LinkedHashSet<>();
    for (WaitGraph.Node n : d.threads()) {
      if (n.at() != null && n.at().isApplicationFrame()) {
        sites.add(n.at());
      }
    }
    return List.copyOf(sites);
  }

  /** Where the carriers' holders wait, each place once: the frames to change. */
  private static List<Frame> waitSites(Deadlock d) {
    Set<Frame> sites = new LinkedHashSet<>();
    for (WaitGraph.Node n : d.threads()) {
      if (n.holdsCarrier() && n.at() != null && n.at().isApplicationFrame()) {
        sites.add(n.at());
      }
    }
    return List.copyOf(sites);
  }

  private static List<Evidence> evidence(Deadlock d) {
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(Evidence.count("threads in the chain", d.threads().size(), "threads"));
    if (d.kind() == Deadlock.Kind.OBJECT_WAIT_STARVATION) {
      evidence.add(Evidence.count("carriers", d.capacity(), "carriers"));
      if (d.maxPoolSize() > 0) {
        evidence.add(Evidence.count("maxPoolSize", d.maxPoolSize(), "carriers"));
      }
      evidence.add(
          Evidence.count(
              "virtual threads waiting for a carrier", d.needCarrier().size(), "threads"));
    } else if (d.capacity() > 0) {
      evidence.add(Evidence.count("parallelism", d.capacity(), "carriers"));
      evidence.add(
          Evidence.count(
              "virtual threads waiting for a carrier", d.needCarrier().size(), "threads"));
    }
    if (d.stuck()) {
      evidence.add(Evidence.nanos("unchanged for at least", d.stuckAtLeast().toNanos()));
    }
    return evidence;
  }

  private static List<String> classes(Deadlock d) {
    Set<String> classes = new LinkedHashSet<>();
    for (Frame f : d.kind() == Deadlock.Kind.OBJECT_WAIT_STARVATION ? waitSites(d) : sites(d)) {
      classes.add(f.className());
    }
    return List.copyOf(classes);
  }

  private static String slug(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
