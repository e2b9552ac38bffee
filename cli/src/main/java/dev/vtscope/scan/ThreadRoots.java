package dev.vtscope.scan;

import dev.vtscope.attribution.CallSite;
import dev.vtscope.attribution.DeclaredMethod;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The methods of a class path that no virtual thread runs: the {@code run()} of each {@code
 * java.lang.Thread} subclass (a virtual thread cannot be one), the methods of test classes, and
 * every method the scan's calls reach only from those. A method with any other caller in the class
 * path, or none at all (an entry point: the application's, the JDK's through an interface,
 * reflection), is kept; so is a cycle reached only from a root, which is conservative too.
 */
final class ThreadRoots {

  private static final Pattern TEST_PACKAGE = Pattern.compile("(^|\\.)(test|tests|testing)\\.");
  private static final Pattern TEST_CLASS = Pattern.compile("(^|\\.)[^.$]*Tests?(\\$.*)?$");

  private final Map<DeclaredMethod, Demotion> demoted;

  private ThreadRoots(Map<DeclaredMethod, Demotion> demoted) {
    this.demoted = demoted;
  }

  /** Why {@code m} runs on no virtual thread, or null when one may run it. */
  Demotion of(DeclaredMethod m) {
    return demoted.get(m);
  }

  static ThreadRoots find(List<ScannedClass> classes, ClassIndex index, ChainSearch search) {
    Map<DeclaredMethod, List<DeclaredMethod>> callees = new IdentityHashMap<>();
    Map<DeclaredMethod, Integer> callers = new IdentityHashMap<>();
    ArrayDeque<DeclaredMethod> pending = new ArrayDeque<>();
    Map<DeclaredMethod, Demotion> demoted = new IdentityHashMap<>();
    for (ScannedClass c : classes) {
      boolean test = isTest(c.name());
      boolean thread = !test && extendsThread(c, index);
      for (DeclaredMethod m : c.code().methods()) {
        Set<DeclaredMethod> out = new HashSet<>();
        List<CallSite> calls = m.calls();
        for (int i = 0; i < calls.size(); i++) {
          CallSite call = calls.get(i);
          if (!call.reached()) {
            continue;
          }
          DeclaredMethod started = startedOnNewThread(calls, i, index);
          if (started != null) {
            if (!test && demoted.putIfAbsent(started, threadRoot(call)) == null) {
              pending.add(started);
            }
          } else if (call.kind() == CallSite.Kind.LAMBDA) {
            // its function object may run anywhere: a caller that is never demoted
            ClassIndex.Resolved r =
                index.resolve(call.owner(), call.name(), call.descriptor(), new ArrayList<>());
            if (r != null) {
              callers.merge(r.method(), 1, Integer::sum);
            }
          } else {
            out.addAll(search.callees(call));
          }
        }
        out.remove(m);
        if (!out.isEmpty()) {
          callees.put(m, List.copyOf(out));
          for (DeclaredMethod d : out) {
            callers.merge(d, 1, Integer::sum);
          }
        }
        Demotion root =
            test
                ? new Demotion(Demotion.Reason.TEST_CODE, c.name() + "." + m.name())
                : thread && m.nameAndDescriptor().equals("run()V")
                    ? new Demotion(Demotion.Reason.LIBRARY_THREAD, c.name() + ".run")
                    : null;
        if (root != null && !demoted.containsKey(m)) {
          demoted.put(m, root);
          pending.add(m);
        }
      }
    }
    // a method is demoted once every one of its callers is: count down its undemoted callers
    Map<DeclaredMethod, Integer> left = new HashMap<>(callers);
    while (!pending.isEmpty()) {
      DeclaredMethod m = pending.poll();
      Demotion why = demoted.get(m);
      for (DeclaredMethod d : callees.getOrDefault(m, List.of())) {
        if (demoted.containsKey(d)) {
          continue;
        }
        int n = left.merge(d, -1, Integer::sum);
        if (n == 0) {
          demoted.put(d, why);
          pending.add(d);
        }
      }
    }
    return new ThreadRoots(demoted);
  }

  /**
   * The method that runs on a platform thread when the call at {@code i} makes the {@code Runnable}
   * the very next call hands to a {@code java.lang.Thread} constructor: a lambda's or method
   * reference's method, or the {@code run()} of a class path class constructed there; else null.
   */
  private static DeclaredMethod startedOnNewThread(List<CallSite> calls, int i, ClassIndex index) {
    if (i + 1 >= calls.size()) {
      return null;
    }
    CallSite next = calls.get(i + 1);
    if (!takesRunnable(next.owner(), next.name(), next.descriptor())) {
      return null;
    }
    CallSite call = calls.get(i);
    ClassIndex.Resolved r;
    if (call.kind() == CallSite.Kind.LAMBDA) {
      r = index.resolve(call.owner(), call.name(), call.descriptor(), new ArrayList<>());
    } else if (call.kind() == CallSite.Kind.SPECIAL && call.name().equals("<init>")) {
      r = index.resolve(call.owner(), "run", "()V", new ArrayList<>());
    } else {
      return null;
    }
    return r == null || r.method().isAbstract() ? null : r.method();
  }

  /** Whether the call is a {@code java.lang.Thread} constructor given a {@code Runnable}. */
  static boolean takesRunnable(String owner, String name, String descriptor) {
    return owner.equals("java.lang.Thread")
        && name.equals("<init>")
        && descriptor.contains("Ljava/lang/Runnable;");
  }

  private static Demotion threadRoot(CallSite call) {
    return new Demotion(
        Demotion.Reason.LIBRARY_THREAD,
        call.owner() + "." + (call.kind() == CallSite.Kind.LAMBDA ? call.name() : "run"));
  }

  static boolean isTest(String className) {
    return TEST_PACKAGE.matcher(className).find() || TEST_CLASS.matcher(className).find();
  }

  private static boolean extendsThread(ScannedClass c, ClassIndex index) {
    String type = c.code().superName();
    for (int i = 0; type != null && i < 64; i++) {
      if (type.equals("java.lang.Thread")) {
        return true;
      }
      ScannedClass s = index.get(type);
      type = s == null ? null : s.code().superName();
    }
    return false;
  }
}
