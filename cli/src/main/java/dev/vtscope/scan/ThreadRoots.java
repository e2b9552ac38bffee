package dev.vtscope.scan;

import dev.vtscope.advice.Knowledge;
import dev.vtscope.analysis.Cores;
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
    int methods = 0;
    for (ScannedClass c : classes) {
      methods += c.code().methods().size();
    }
    // sized for the class path's methods: grown step by step, they were a tenth of a large scan
    Map<DeclaredMethod, List<DeclaredMethod>> callees = new IdentityHashMap<>(methods);
    // what a method makes for other threads to run: lambdas, Runnables handed to new Thread
    Map<DeclaredMethod, List<DeclaredMethod>> handsOut = new IdentityHashMap<>();
    Map<DeclaredMethod, Integer> callers = new IdentityHashMap<>(methods);
    ArrayDeque<DeclaredMethod> pending = new ArrayDeque<>();
    Map<DeclaredMethod, Demotion> demoted = new IdentityHashMap<>();
    Map<DeclaredMethod, Knowledge.UnrunPackage> notRun = new IdentityHashMap<>();
    Map<DeclaredMethod, ScannedClass> unrunOwner = new IdentityHashMap<>();
    // calls into such a package's implementations of a method with no code, the receiver's choice
    Map<DeclaredMethod, List<DeclaredMethod>> dispatchedInto = new IdentityHashMap<>();
    // the run() of a Runnable handed to new Thread as this or through a local: a root if uncalled
    Map<DeclaredMethod, Demotion> handedOver = new LinkedHashMap<>();
    // what each method calls and hands out, found for every class at once (the class path's
    // calls resolved, most of a scan's time), then taken in the classes' order, which decides
    // which reason a method reached from two roots is given
    ClassEdges[] edges = new ClassEdges[classes.size()];
    Cores.forEach(
        edges.length, i -> edges[i] = edges(classes.get(i), archives, index, search, unrun));
    for (ClassEdges e : edges) {
      ScannedClass c = e.owner();
      for (MethodEdges me : e.methods()) {
        DeclaredMethod m = me.method();
        if (e.unrunPackage() != null) {
          notRun.put(m, e.unrunPackage());
          unrunOwner.put(m, c);
        }
        if (!me.handsOut().isEmpty()) {
          handsOut.put(m, me.handsOut());
        }
        for (Root started : me.started()) {
          if (!e.test() && demoted.putIfAbsent(started.method(), started.why()) == null) {
            pending.add(started.method());
          }
        }
        for (DeclaredMethod target : me.lambdas()) {
          callers.merge(target, 1, Integer::sum);
        }
        if (!me.dispatchedInto().isEmpty()) {
          dispatchedInto.put(m, me.dispatchedInto());
        }
        for (Root handed : me.handed()) {
          handedOver.putIfAbsent(handed.method(), handed.why());
        }
        if (!me.callees().isEmpty()) {
          callees.put(m, me.callees());
          for (DeclaredMethod d : me.callees()) {
            callers.merge(d, 1, Integer::sum);
          }
        }
        Demotion root = null;
        if (e.test()) {
          root = new Demotion(Demotion.Reason.TEST_CODE, c.name() + "." + m.name());
        } else if (isRun(m) && "java.lang.Thread".equals(e.jdkSuper())) {
          root = new Demotion(Demotion.Reason.LIBRARY_THREAD, c.name() + ".run");
        } else if (isRun(m) && "java.util.TimerTask".equals(e.jdkSuper())) {
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
    // the counts themselves: nothing after this needs more of them than whether a method has any
    // caller, which counting down to 0 keeps
    Map<DeclaredMethod, Integer> left = callers;
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

  private static boolean isRun(DeclaredMethod m) {
    return m.name().equals("run") && m.descriptor().equals("()V");
  }

  /** What the methods of one class call and hand out, and what the class is. */
  private record ClassEdges(
      ScannedClass owner,
      boolean test,
      String jdkSuper,
      Knowledge.UnrunPackage unrunPackage,
      List<MethodEdges> methods) {}

  /**
   * What one method calls (itself left out) and hands to other threads, in the order of its calls:
   * {@code handsOut} every lambda and every {@code Runnable} given to a new thread; {@code started}
   * those a {@code Thread} constructor is given as they are made; {@code lambdas} the lambdas'
   * methods, whose function objects may run anywhere; {@code dispatchedInto} the implementations in
   * an unrun package its calls may dispatch to; {@code handed} the {@code run()} of a {@code
   * Runnable} given to a new thread as {@code this} or through a local.
   */
  private record MethodEdges(
      DeclaredMethod method,
      List<DeclaredMethod> callees,
      List<DeclaredMethod> handsOut,
      List<Root> started,
      List<DeclaredMethod> lambdas,
      List<DeclaredMethod> dispatchedInto,
      List<Root> handed) {}

  /** A method a new thread runs, and why it is a root. */
  private record Root(DeclaredMethod method, Demotion why) {}

  /** The edges of the methods of {@code c}; reads only what the scan made, so any thread may. */
  private static ClassEdges edges(
      ScannedClass c,
      List<ScannedArchive> archives,
      ClassIndex index,
      ChainSearch search,
      List<Knowledge.UnrunPackage> unrun) {
    boolean test = isTest(c.name());
    List<MethodEdges> methods = new ArrayList<>();
    for (DeclaredMethod m : c.code().methods()) {
      List<CallSite> calls = m.calls();
      if (calls.isEmpty()) {
        // a third of a class path's methods call nothing the scan keeps, or have no code
        methods.add(
            new MethodEdges(m, List.of(), List.of(), List.of(), List.of(), List.of(), List.of()));
        continue;
      }
      // in the order of the calls, each once, itself left out
      List<DeclaredMethod> out = new ArrayList<>();
      Set<DeclaredMethod> outSet = null; // once it calls many: a set says what it has
      // made when the first goes in: most methods hand out nothing, and a scan holds these lists
      // for every method of the class path at once
      List<DeclaredMethod> handsOut = List.of();
      List<Root> started = List.of();
      List<DeclaredMethod> lambdas = List.of();
      List<DeclaredMethod> dispatchedInto = List.of();
      List<Root> handed = List.of();
      for (int i = 0; i < calls.size(); i++) {
        CallSite call = calls.get(i);
        if (!call.reached()) {
          continue;
        }
        DeclaredMethod startedHere = startedOnNewThread(calls, i, index);
        if (startedHere != null) {
          handsOut = added(handsOut, startedHere);
          started = added(started, new Root(startedHere, threadRoot(call)));
        } else if (call.kind() == CallSite.Kind.LAMBDA) {
          // its function object may run anywhere: a caller that is never demoted
          ClassIndex.Resolved r =
              index.resolve(call.owner(), call.name(), call.descriptor(), new ArrayList<>());
          if (r != null) {
            lambdas = added(lambdas, r.method());
            handsOut = added(handsOut, r.method());
          }
        } else {
          ChainSearch.Callees to = search.callees(call);
          for (DeclaredMethod d : to.methods()) {
            if (d == m || (outSet != null ? !outSet.add(d) : out.contains(d))) {
              continue;
            }
            out.add(d);
            if (outSet == null && out.size() > 16) {
              outSet = Collections.newSetFromMap(new IdentityHashMap<>());
              outSet.addAll(out);
            }
          }
          for (int j = 0; to.dispatched() && j < to.methods().size(); j++) {
            if (unrunPackage(to.owners().get(j), archives, unrun) != null) {
              dispatchedInto = added(dispatchedInto, to.methods().get(j));
            }
          }
          DeclaredMethod handedHere = handedToNewThread(call, index);
          if (handedHere != null && !test) {
            handsOut = added(handsOut, handedHere);
            handed = added(handed, new Root(handedHere, threadRoot(call)));
          }
        }
      }
      methods.add(
          new MethodEdges(
              m,
              out.isEmpty() ? List.of() : out,
              handsOut,
              started,
              lambdas,
              dispatchedInto,
              handed));
    }
    return new ClassEdges(
        c, test, test ? null : jdkSuperclass(c, index), unrunPackage(c, archives, unrun), methods);
  }

  /** {@code list} with {@code e} added: a new list in place of the empty one. */
  private static <T> List<T> added(List<T> list, T e) {
    List<T> to = list.isEmpty() ? new ArrayList<>(2) : list;
    to.add(e);
    return to;
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
      if (!inInternalPackage(c.name())) {
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
    Map<DeclaredMethod, Integer> outsideCallers = new IdentityHashMap<>(callers);
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
  private static final String[] INTERNAL_PACKAGES = {"internal.", "shaded.", "shadow."};

  /**
   * Whether a package of {@code className}'s name is one of those: the name or a dot before the
   * word. Asked of every class; a regular expression was some 3% of a scan.
   */
  static boolean inInternalPackage(String className) {
    for (String word : INTERNAL_PACKAGES) {
      for (int at = className.indexOf(word); at >= 0; at = className.indexOf(word, at + 1)) {
        if (at == 0 || className.charAt(at - 1) == '.') {
          return true;
        }
      }
    }
    return false;
  }

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
      if (s.code().method(m.name(), m.descriptor()) != null) {
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
    String name = c.name();
    for (Knowledge.UnrunPackage p : unrun) {
      String prefix = p.packagePrefix();
      if (name.startsWith(prefix)
          && name.length() > prefix.length()
          && name.charAt(prefix.length()) == '.') {
        String artifact = archives.get(c.archive()).artifact();
        if (artifact.equals(p.artifact()) || artifact.startsWith(p.artifact() + ":")) {
          return p;
        }
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

  /**
   * Whether {@code className} is test code: in a package named {@code test}, {@code tests} or
   * {@code testing}, or a class whose top-level name ends with {@code Test} or {@code Tests} (or
   * one nested in it). Read by hand, not by regular expressions: it is asked of every class of the
   * class path.
   */
  static boolean isTest(String className) {
    int length = className.length();
    for (int start = 0; start < length; start = className.indexOf('.', start) + 1) {
      if (className.startsWith("test.", start)
          || className.startsWith("tests.", start)
          || className.startsWith("testing.", start)) {
        return true;
      }
      int end = start;
      while (end < length && className.charAt(end) != '.' && className.charAt(end) != '$') {
        end++;
      }
      if ((end == length || className.charAt(end) == '$')
          && (className.startsWith("Test", end - 4) && end - 4 >= start
              || className.startsWith("Tests", end - 5) && end - 5 >= start)) {
        return true;
      }
      if (className.indexOf('.', start) < 0) {
        break;
      }
    }
    return false;
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
