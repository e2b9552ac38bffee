package dev.vtscope.scan;

import dev.vtscope.advice.Knowledge;
import dev.vtscope.attribution.CallSite;
import dev.vtscope.attribution.DeclaredMethod;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The methods of a class path that no virtual thread runs, or that nothing runs: the {@code run()}
 * of each {@code java.lang.Thread} subclass (a virtual thread cannot be one) and of each {@code
 * java.util.TimerTask} (a {@code Timer}'s own thread runs it), the methods of test classes, the
 * methods of a package the knowledge file says an application does not run that nothing outside the
 * package reaches, and every method the scan's calls reach only from those. A method with any other
 * caller in the class path is kept; so is a cycle reached only from a root, which is conservative
 * too. A method with no caller at all is an entry point (the application's, the JDK's through an
 * interface, reflection) and kept, unless its package is one its library keeps to itself ({@code
 * .internal.}, {@code .shaded.}, {@code .shadow.}) and it overrides nothing: then nothing runs it.
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

  static ThreadRoots find(
      List<ScannedClass> classes,
      List<ScannedArchive> archives,
      ClassIndex index,
      ChainSearch search,
      List<Knowledge.UnrunPackage> unrun) {
    Map<DeclaredMethod, List<DeclaredMethod>> callees = new IdentityHashMap<>();
    // what a method makes for other threads to run: lambdas, Runnables handed to new Thread
    Map<DeclaredMethod, List<DeclaredMethod>> handsOut = new IdentityHashMap<>();
    Map<DeclaredMethod, Integer> callers = new IdentityHashMap<>();
    ArrayDeque<DeclaredMethod> pending = new ArrayDeque<>();
    Map<DeclaredMethod, Demotion> demoted = new IdentityHashMap<>();
    Map<DeclaredMethod, Knowledge.UnrunPackage> notRun = new IdentityHashMap<>();
    Map<DeclaredMethod, ScannedClass> unrunOwner = new IdentityHashMap<>();
    // calls into such a package's implementations of a method with no code, the receiver's choice
    Map<DeclaredMethod, List<DeclaredMethod>> dispatchedInto = new IdentityHashMap<>();
    // the run() of a Runnable handed to new Thread as this or through a local: a root if uncalled
    Map<DeclaredMethod, Demotion> handedOver = new LinkedHashMap<>();
    for (ScannedClass c : classes) {
      boolean test = isTest(c.name());
      String jdkSuper = test ? null : jdkSuperclass(c, index);
      Knowledge.UnrunPackage unrunPackage = unrunPackage(c, archives, unrun);
      for (DeclaredMethod m : c.code().methods()) {
        if (unrunPackage != null) {
          notRun.put(m, unrunPackage);
          unrunOwner.put(m, c);
        }
        Set<DeclaredMethod> out = new HashSet<>();
        List<CallSite> calls = m.calls();
        for (int i = 0; i < calls.size(); i++) {
          CallSite call = calls.get(i);
          if (!call.reached()) {
            continue;
          }
          DeclaredMethod started = startedOnNewThread(calls, i, index);
          if (started != null) {
            handsOut.computeIfAbsent(m, k -> new ArrayList<>()).add(started);
            if (!test && demoted.putIfAbsent(started, threadRoot(call)) == null) {
              pending.add(started);
            }
          } else if (call.kind() == CallSite.Kind.LAMBDA) {
            // its function object may run anywhere: a caller that is never demoted
            ClassIndex.Resolved r =
                index.resolve(call.owner(), call.name(), call.descriptor(), new ArrayList<>());
            if (r != null) {
              callers.merge(r.method(), 1, Integer::sum);
              handsOut.computeIfAbsent(m, k -> new ArrayList<>()).add(r.method());
            }
          } else {
            ChainSearch.Callees to = search.callees(call);
            out.addAll(to.methods());
            for (int j = 0; to.dispatched() && j < to.methods().size(); j++) {
              if (unrunPackage(to.owners().get(j), archives, unrun) != null) {
                dispatchedInto.computeIfAbsent(m, k -> new ArrayList<>()).add(to.methods().get(j));
              }
            }
            DeclaredMethod handed = handedToNewThread(call, index);
            if (handed != null && !test) {
              handsOut.computeIfAbsent(m, k -> new ArrayList<>()).add(handed);
              handedOver.putIfAbsent(handed, threadRoot(call));
            }
          }
        }
        out.remove(m);
        if (!out.isEmpty()) {
          callees.put(m, List.copyOf(out));
          for (DeclaredMethod d : out) {
            callers.merge(d, 1, Integer::sum);
          }
        }
        Demotion root = null;
        if (test) {
          root = new Demotion(Demotion.Reason.TEST_CODE, c.name() + "." + m.name());
        } else if (m.nameAndDescriptor().equals("run()V") && "java.lang.Thread".equals(jdkSuper)) {
          root = new Demotion(Demotion.Reason.LIBRARY_THREAD, c.name() + ".run");
        } else if (m.nameAndDescriptor().equals("run()V")
            && "java.util.TimerTask".equals(jdkSuper)) {
          root = new Demotion(Demotion.Reason.TIMER_THREAD, c.name() + ".run");
        }
        if (root != null && !demoted.containsKey(m)) {
          demoted.put(m, root);
          pending.add(m);
        }
      }
    }
    handedOver.forEach(
        (m, why) -> {
          if (!callers.containsKey(m) && demoted.putIfAbsent(m, why) == null) {
            pending.add(m);
          }
        });
    if (!notRun.isEmpty()) {
      Set<DeclaredMethod> reached =
          reachedFromOutside(notRun, unrunOwner, callees, handsOut, dispatchedInto, callers, index);
      for (ScannedClass c : classes) {
        for (DeclaredMethod m : c.code().methods()) {
          Knowledge.UnrunPackage p = notRun.get(m);
          if (p != null && !reached.contains(m) && !demoted.containsKey(m)) {
            demoted.put(
                m,
                new Demotion(Demotion.Reason.PACKAGE_NOT_RUN, p.packagePrefix() + ": " + p.what()));
            pending.add(m);
          }
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
    demoteUncalled(classes, index, callees, callers, left, demoted);
    return new ThreadRoots(demoted);
  }

  /**
   * Demotes the methods nothing calls in a package its library keeps to itself, and what only such
   * methods call in such a package: a public method elsewhere may be the application's to call.
   *
   * @param left per method, its callers not demoted yet
   */
  private static void demoteUncalled(
      List<ScannedClass> classes,
      ClassIndex index,
      Map<DeclaredMethod, List<DeclaredMethod>> callees,
      Map<DeclaredMethod, Integer> callers,
      Map<DeclaredMethod, Integer> left,
      Map<DeclaredMethod, Demotion> demoted) {
    Map<String, Set<String>> jdkMethods = new HashMap<>();
    Map<DeclaredMethod, ScannedClass> internal = new IdentityHashMap<>();
    ArrayDeque<DeclaredMethod> pending = new ArrayDeque<>();
    for (ScannedClass c : classes) {
      if (!INTERNAL_PACKAGE.matcher(c.name()).find()) {
        continue;
      }
      for (DeclaredMethod m : c.code().methods()) {
        internal.put(m, c);
        if (!demoted.containsKey(m)
            && !callers.containsKey(m)
            && uncallable(c, m, index, jdkMethods)) {
          demoted.put(m, new Demotion(Demotion.Reason.NOT_CALLED, c.name() + "." + m.name()));
          pending.add(m);
        }
      }
    }
    while (!pending.isEmpty()) {
      DeclaredMethod m = pending.poll();
      Demotion why = demoted.get(m);
      for (DeclaredMethod d : callees.getOrDefault(m, List.of())) {
        ScannedClass c = internal.get(d);
        if (c != null
            && !demoted.containsKey(d)
            && left.merge(d, -1, Integer::sum) == 0
            && uncallable(c, d, index, jdkMethods)) {
          demoted.put(d, why);
          pending.add(d);
        }
      }
    }
  }

  /**
   * The methods of a package no application runs that the calls reach from outside it, where what
   * only the package calls (the server's helpers in a shared package) counts as inside it too.
   */
  private static Set<DeclaredMethod> reachedFromOutside(
      Map<DeclaredMethod, Knowledge.UnrunPackage> notRun,
      Map<DeclaredMethod, ScannedClass> unrunOwner,
      Map<DeclaredMethod, List<DeclaredMethod>> callees,
      Map<DeclaredMethod, List<DeclaredMethod>> handsOut,
      Map<DeclaredMethod, List<DeclaredMethod>> dispatchedInto,
      Map<DeclaredMethod, Integer> callers,
      ClassIndex index) {
    Set<DeclaredMethod> inside = Collections.newSetFromMap(new IdentityHashMap<>());
    inside.addAll(notRun.keySet());
    ArrayDeque<DeclaredMethod> from = new ArrayDeque<>(notRun.keySet());
    Map<DeclaredMethod, Integer> outsideCallers = new HashMap<>(callers);
    while (!from.isEmpty()) {
      for (DeclaredMethod d : callees.getOrDefault(from.poll(), List.of())) {
        if (!inside.contains(d) && outsideCallers.merge(d, -1, Integer::sum) == 0) {
          inside.add(d);
          from.add(d);
        }
      }
    }
    // by a direct call, or by a call the receiver's class chooses once something outside or
    // reached has made an instance of that class
    Reach reach = new Reach(inside, unrunOwner, index);
    for (Map<DeclaredMethod, List<DeclaredMethod>> edges : List.of(callees, handsOut)) {
      edges.forEach(
          (m, out) -> {
            if (!inside.contains(m)) {
              for (DeclaredMethod d : out) {
                reach.edge(d, edges == callees && isIn(dispatchedInto.get(m), d));
              }
            }
          });
    }
    while (!reach.pending.isEmpty()) {
      DeclaredMethod m = reach.pending.poll();
      for (Map<DeclaredMethod, List<DeclaredMethod>> edges : List.of(callees, handsOut)) {
        for (DeclaredMethod d : edges.getOrDefault(m, List.of())) {
          reach.edge(d, edges == callees && isIn(dispatchedInto.get(m), d));
        }
      }
    }
    return reach.seen;
  }

  private static boolean isIn(List<DeclaredMethod> methods, DeclaredMethod m) {
    return methods != null && methods.contains(m);
  }

  /**
   * What calls from outside a package no application runs reach in it. A call the receiver's class
   * chooses (an interface's method, an abstract one) reaches the package's implementation only once
   * an instance of its class can exist: its constructor, or a subclass's, reached. A library that
   * calls any handler it is given (a network library's channel handlers) does not run the server's
   * handlers when nothing outside the server makes one.
   */
  private static final class Reach {
    final ArrayDeque<DeclaredMethod> pending = new ArrayDeque<>();
    final Set<DeclaredMethod> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<DeclaredMethod> inside;
    private final Map<DeclaredMethod, ScannedClass> owners;
    private final ClassIndex index;
    private final Set<String> instantiated = new HashSet<>();
    private final Map<String, List<DeclaredMethod>> waiting = new HashMap<>();

    Reach(Set<DeclaredMethod> inside, Map<DeclaredMethod, ScannedClass> owners, ClassIndex index) {
      this.inside = inside;
      this.owners = owners;
      this.index = index;
    }

    void edge(DeclaredMethod d, boolean dispatched) {
      if (!inside.contains(d)) {
        return;
      }
      ScannedClass owner = owners.get(d);
      if (dispatched && owner != null && !instantiated.contains(owner.name())) {
        waiting.computeIfAbsent(owner.name(), k -> new ArrayList<>()).add(d);
        return;
      }
      reach(d);
    }

    private void reach(DeclaredMethod d) {
      if (!seen.add(d)) {
        return;
      }
      pending.add(d);
      ScannedClass owner = owners.get(d);
      if (owner != null && d.name().equals("<init>")) {
        // an instance of the class is an instance of each of its superclasses too
        for (String type = owner.name(); type != null; ) {
          if (!instantiated.add(type)) {
            break;
          }
          for (DeclaredMethod w : waiting.getOrDefault(type, List.of())) {
            reach(w);
          }
          waiting.remove(type);
          ScannedClass s = index.get(type);
          type = s == null ? null : s.code().superName();
        }
      }
    }
  }

  /**
   * Packages a library keeps to itself, by the names libraries give them: {@code internal}, and the
   * copies of other libraries a jar carries under its own name ({@code shaded}, {@code shadow}).
   */
  private static final Pattern INTERNAL_PACKAGE =
      Pattern.compile("(^|\\.)(internal|shaded|shadow)\\.");

  /**
   * Methods the JVM or the JDK calls by name, never through the class path's calls: initialisers
   * and constructors (a service loader, reflection), {@code main}, an agent's entry points and
   * serialization's private hooks.
   */
  private static final Set<String> ENTRY_POINTS =
      Set.of(
          "<init>",
          "<clinit>",
          "main",
          "premain",
          "agentmain",
          "readObject",
          "writeObject",
          "readObjectNoData",
          "readResolve",
          "writeReplace");

  /** Whether only the class path's calls can run {@code m}: no entry point, no override. */
  private static boolean uncallable(
      ScannedClass c, DeclaredMethod m, ClassIndex index, Map<String, Set<String>> jdkMethods) {
    return !ENTRY_POINTS.contains(m.name()) && !overrides(c, m, index, jdkMethods);
  }

  /**
   * Whether {@code m} may override a method of a supertype, which a call of that method runs: a
   * class path supertype that declares it, or a JDK one that has a method of its name; a supertype
   * neither the class path nor the JDK has counts as one that does.
   */
  private static boolean overrides(
      ScannedClass c, DeclaredMethod m, ClassIndex index, Map<String, Set<String>> jdkMethods) {
    if (m.isStatic()) {
      return false;
    }
    ArrayDeque<String> pending = new ArrayDeque<>(c.code().interfaces());
    if (c.code().superName() != null) {
      pending.add(c.code().superName());
    }
    Set<String> seen = new HashSet<>();
    while (!pending.isEmpty()) {
      String type = pending.poll();
      if (!seen.add(type)) {
        continue;
      }
      ScannedClass s = index.get(type);
      if (s == null) {
        Set<String> names = jdkMethods.computeIfAbsent(type, ThreadRoots::jdkMethodNames);
        if (names.contains(m.name()) || names.contains("*")) {
          return true;
        }
        continue;
      }
      if (s.code().method(m.nameAndDescriptor()) != null) {
        return true;
      }
      pending.addAll(s.code().interfaces());
      if (s.code().superName() != null) {
        pending.add(s.code().superName());
      }
    }
    return false;
  }

  /** The names of the methods a JDK type has, inherited too; "*" when the JDK has no such type. */
  private static Set<String> jdkMethodNames(String type) {
    Class<?> k;
    try {
      k = Class.forName(type, false, ClassLoader.getPlatformClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return Set.of("*");
    }
    Set<String> names = new HashSet<>();
    for (java.lang.reflect.Method x : k.getMethods()) {
      names.add(x.getName());
    }
    for (Class<?> s = k; s != null; s = s.getSuperclass()) {
      for (java.lang.reflect.Method x : s.getDeclaredMethods()) {
        names.add(x.getName());
      }
    }
    return names;
  }

  /** The package of {@code unrun} that holds {@code c}, from the jar it names, or null. */
  private static Knowledge.UnrunPackage unrunPackage(
      ScannedClass c, List<ScannedArchive> archives, List<Knowledge.UnrunPackage> unrun) {
    for (Knowledge.UnrunPackage p : unrun) {
      String artifact = archives.get(c.archive()).artifact();
      if (c.name().startsWith(p.packagePrefix() + ".")
          && (artifact.equals(p.artifact()) || artifact.startsWith(p.artifact() + ":"))) {
        return p;
      }
    }
    return null;
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

  /**
   * The {@code run()} of the class path {@code Runnable} a {@code Thread} constructor is given as
   * {@code this} or through a local variable (the class the code shows, {@link
   * CallSite#runnableClass}); else null.
   */
  private static DeclaredMethod handedToNewThread(CallSite call, ClassIndex index) {
    if (call.runnableClass() == null
        || !takesRunnable(call.owner(), call.name(), call.descriptor())) {
      return null;
    }
    ClassIndex.Resolved r = index.resolve(call.runnableClass(), "run", "()V", new ArrayList<>());
    return r == null || r.method().isAbstract() ? null : r.method();
  }

  /** Whether the call is a {@code java.lang.Thread} constructor given a {@code Runnable}. */
  static boolean takesRunnable(String owner, String name, String descriptor) {
    return owner.equals("java.lang.Thread")
        && name.equals("<init>")
        && descriptor.contains("Ljava/lang/Runnable;");
  }

  private static Demotion threadRoot(CallSite call) {
    String owner = call.runnableClass() != null ? call.runnableClass() : call.owner();
    return new Demotion(
        Demotion.Reason.LIBRARY_THREAD,
        owner + "." + (call.kind() == CallSite.Kind.LAMBDA ? call.name() : "run"));
  }

  static boolean isTest(String className) {
    return TEST_PACKAGE.matcher(className).find() || TEST_CLASS.matcher(className).find();
  }

  /**
   * The first superclass of {@code c} the class path does not have (the JDK's), as far as the class
   * path's classes lead.
   */
  private static String jdkSuperclass(ScannedClass c, ClassIndex index) {
    String type = c.code().superName();
    for (int i = 0; type != null && i < 64; i++) {
      ScannedClass s = index.get(type);
      if (s == null) {
        return type;
      }
      type = s.code().superName();
    }
    return null;
  }
}
