package dev.vtscope.advice;

import dev.vtscope.analysis.Message;
import dev.vtscope.waits.DumpWaits;
import dev.vtscope.waits.WaitGroup;
import dev.vtscope.waits.WaitKind;
import dev.vtscope.waits.WaitSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Most of a JVM's virtual threads waiting for one thing at one place, from a thread dump: a pool's
 * object, a lock, a monitor, a permit or a queue's element. Virtual threads are cheap and what they
 * queue for here is not, so it sets how fast they go, whatever the carriers do; JFR shows it only
 * in part (no event for a virtual thread that unmounts to wait for a monitor on JDK 24+, none for a
 * park shorter than its threshold). Not a {@link Rule}: rules read an analysis of events, and this
 * reads the moment a dump was taken.
 */
public final class CrowdedWaitFinding {

  static final String ID = "crowded-wait";

  /** The fewest virtual threads in one wait that make a crowd: fewer are a few requests queued. */
  static final int MIN_THREADS = 100;

  /** The least share of the dump's virtual threads in one wait that makes it the crowd. */
  static final double MIN_SHARE = 0.5;

  private CrowdedWaitFinding() {}

  /**
   * The finding for the last dump of {@code waits}, when one of its application's waits for a
   * shared resource holds at least {@link #MIN_THREADS} virtual threads and {@link #MIN_SHARE} of
   * them: low, or medium when a series shows some of the same threads in it in every dump and it no
   * smaller at the end (the queue does not drain).
   */
  static Optional<Finding> of(WaitSeries waits) {
    DumpWaits last = waits.dumps().get(waits.dumps().size() - 1);
    WaitGroup crowd = null;
    for (WaitGroup g : last.groups()) {
      if (shared(g.key().kind())
          && g.site() != null
          && g.virtualThreads() >= MIN_THREADS
          && g.virtualThreads() >= MIN_SHARE * last.virtualThreads()
          && (crowd == null || g.virtualThreads() > crowd.virtualThreads())) {
        crowd = g;
      }
    }
    if (crowd == null) {
      return Optional.empty();
    }
    WaitSeries.Trend trend = null;
    for (WaitSeries.Trend t : waits.groups()) {
      if (t.key().equals(crowd.key())) {
        trend = t;
      }
    }
    // a queue that drains between the dumps moves, however long its oldest waiters wait
    boolean stuck = waits.dumps().size() > 1 && trend != null && trend.notDraining();
    WaitKind kind = crowd.key().kind();
    String entry = crowd.entry() == null ? null : crowd.entry().qualifiedMethod();
    String via = crowd.via() == null ? null : crowd.via().qualifiedMethod();
    String site = crowd.key().site();
    String resource =
        crowd.key().resourceId() != null ? crowd.key().resourceId() : crowd.key().resourceClass();
    // a library's wait is its own way of waiting (a pool hands connections over a queue): what
    // to change is how the application uses the library, not the JDK call inside it
    Message action =
        via != null
            ? Message.of("crowded-wait.action.library", "via", via)
            : switch (kind) {
              case MONITOR_ENTER, LOCK -> Message.of("crowded-wait.action.lock", "site", site);
              case SYNCHRONIZER -> Message.of("crowded-wait.action.permits", "entry", entry);
              case QUEUE -> Message.of("crowded-wait.action.queue", "entry", entry);
              default -> Message.of("crowded-wait.action.signal", "site", site);
            };
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(Evidence.count("virtual threads in this wait", crowd.virtualThreads(), "threads"));
    evidence.add(Evidence.count("virtual threads in the dump", last.virtualThreads(), "threads"));
    if (stuck) {
      evidence.add(Evidence.count("of them in it in every dump", trend.persistent(), "threads"));
    }
    List<String> classes = new ArrayList<>();
    if (crowd.via() != null) {
      classes.add(crowd.via().className());
    }
    if (crowd.site() != null) {
      classes.add(crowd.site().className());
    }
    return Optional.of(
        new Finding(
            ID,
            stuck ? Severity.MEDIUM : Severity.LOW,
            Message.of(
                "crowded-wait.title",
                "threads",
                (long) crowd.virtualThreads(),
                "virtual",
                (long) last.virtualThreads(),
                "share",
                Message.share(crowd.virtualThreads(), last.virtualThreads()),
                "what",
                Message.of("crowded-wait.kind." + kind.id()),
                "entry",
                entry == null ? "" : Message.of("crowded-wait.in", "entry", entry),
                "via",
                via == null ? "" : Message.of("crowded-wait.via", "via", via),
                "site",
                site,
                "resource",
                resource == null ? "" : Message.of("crowded-wait.resource", "resource", resource)),
            Message.of(
                "crowded-wait.explanation",
                "stuck",
                stuck ? Message.of("crowded-wait.explanation.stuck") : ""),
            List.of(action),
            evidence,
            "21+",
            Facts.DOCS + ID,
            0,
            classes,
            List.of()));
  }

  /** Whether threads of this kind queue for a resource they share with the others of the wait. */
  private static boolean shared(WaitKind kind) {
    return switch (kind) {
      case MONITOR_ENTER, MONITOR_WAIT, LOCK, CONDITION, SYNCHRONIZER, QUEUE -> true;
      default -> false;
    };
  }
}
