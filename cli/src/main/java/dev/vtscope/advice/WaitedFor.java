package dev.vtscope.advice;

import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.recording.Frame;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a virtual thread in {@code Object.wait()} waits for, read from the names of the code that
 * waits, the code that called it and the monitor's class: the advice must fit it (a pool's free
 * object is bounded by a Semaphore, a response is not).
 */
enum WaitedFor {
  /** A free object of a pool: the names say pool, borrow, checkout, acquire or lease. */
  POOL(List.of("pool", "borrow", "checkout", "acquire", "lease")),
  /** A response or data from elsewhere: the names say read, receive, response, reply or await. */
  RESPONSE(List.of("read", "receiv", "recv", "respon", "reply", "await", "answer")),
  /** Another thread's class initialisation, or a wait inside a static initialiser. */
  CLASS_INIT(List.of()),
  /** Nothing the names say: the advice assumes no pool. */
  OTHER(List.of());

  private final List<String> wordStarts;

  WaitedFor(List<String> wordStarts) {
    this.wordStarts = wordStarts;
  }

  /** The kind of the wait of a monitor wait site (or a compensated start's stack). */
  static WaitedFor of(Site site) {
    Culprit culprit = Facts.culprit(site);
    List<Frame> frames = site.stack().frames();
    if ((culprit != null && culprit.kind() == CulpritKind.CLASS_INIT_WAIT)
        || site.monitorClasses().keySet().stream().anyMatch(WaitedFor::isClassInitLock)
        || frames.stream().anyMatch(f -> f.method().equals("<clinit>"))) {
      return CLASS_INIT;
    }
    // simple names: a package's words say where the code is, not what it waits for
    List<String> names = new ArrayList<>();
    site.monitorClasses().keySet().forEach(c -> names.add(simpleName(c)));
    if (culprit != null) {
      names.add(simpleName(culprit.className()));
      names.add(culprit.method());
    }
    Frame calledFrom = site.attribution() == null ? null : site.attribution().calledFrom();
    if (calledFrom != null) {
      names.add(simpleName(calledFrom.className()));
      names.add(calledFrom.method());
    }
    List<String> words = words(names);
    for (WaitedFor kind : List.of(POOL, RESPONSE)) {
      if (words.stream().anyMatch(w -> kind.wordStarts.stream().anyMatch(w::startsWith))) {
        return kind;
      }
    }
    return OTHER;
  }

  private static String simpleName(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }

  /** The class of HotSpot's class-initialisation lock: an {@code int[]}. */
  private static boolean isClassInitLock(String monitorClass) {
    return "[I".equals(monitorClass) || "int[]".equals(monitorClass);
  }

  /**
   * The lower-case words of class and method names, split at dots, dollars and camel case, plus
   * each simple name whole: "Thread" is not a "read", and "checkOut" is a "checkout".
   */
  static List<String> words(List<String> names) {
    List<String> words = new ArrayList<>();
    for (String name : names) {
      for (String part : name.split("[^A-Za-z0-9]+")) {
        if (part.isEmpty()) {
          continue;
        }
        words.add(part.toLowerCase(Locale.ROOT));
        for (String w : part.split("(?<=[a-z0-9])(?=[A-Z])")) {
          words.add(w.toLowerCase(Locale.ROOT));
        }
      }
    }
    return words;
  }
}
