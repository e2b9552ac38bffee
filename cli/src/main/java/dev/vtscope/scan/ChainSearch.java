package dev.vtscope.scan;

import dev.vtscope.attribution.BlockingCalls;
import dev.vtscope.attribution.BlockingKind;
import dev.vtscope.attribution.CallSite;
import dev.vtscope.attribution.ConcurrentMemo;
import dev.vtscope.attribution.DeclaredMethod;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Finds, for a call, the riskiest chain of calls through the class path that ends in a call that
 * blocks, within a number of calls. A call resolves as the JVM would resolve it against the class
 * path's classes (declared or inherited); a call that leaves the class path is looked up in the
 * table of JDK methods that block. A virtual or interface call of a method with no code (abstract,
 * or an interface's) follows the class path's implementations of it, and the chain says so: the
 * receiver may be another. A virtual call of a method with code follows that code only, not its
 * overrides.
 *
 * <p>What each method reaches is found level by level, for all methods at once: within one call
 * (the blocking calls it makes itself), then within two from what its callees reach within one, and
 * so on up to the depth. That is a fixed amount of work per level whatever the recursion in the
 * code, the same answer in any order, and each level runs on every core. A chain that goes round a
 * cycle is never the riskiest: the same chain without the cycle is shorter.
 */
final class ChainSearch {

  /** The most implementations of an abstract method followed from one call. */
  private static final int MAX_IMPLEMENTATIONS = 64;

  /** A chain from a callee to the blocking call, and how it blocks. */
  record Chain(List<ChainStep> steps, BlockingKind kind) {

    boolean virtual() {
      return steps.stream().anyMatch(ChainStep::virtual);
    }

    /** The risk of a monitor held across it, as {@link ScanFinding#score} says. */
    int score() {
      return 5 * kind.weight() - 4 * (steps.size() - 1) - (virtual() ? 6 : 0);
    }

    Chain after(ChainStep first) {
      List<ChainStep> longer = new ArrayList<>(steps.size() + 1);
      longer.add(first);
      longer.addAll(steps);
      return new Chain(List.copyOf(longer), kind);
    }

    Chain reachedVirtually(boolean virtual) {
      if (!virtual || steps.get(0).virtual()) {
        return this;
      }
      List<ChainStep> marked = new ArrayList<>(steps);
      ChainStep s = marked.get(0);
      marked.set(0, new ChainStep(s.className(), s.method(), s.descriptor(), s.line(), true));
      return new Chain(List.copyOf(marked), kind);
    }
  }

  /** A call, resolved once: the blocking JDK method it ends in, or the methods it may run. */
  private record Target(
      Chain leaf, List<ScannedClass> owners, List<DeclaredMethod> methods, boolean virtual) {}

  private static final Target NOWHERE = new Target(null, List.of(), List.of(), false);

  private final ClassIndex index;
  private final BlockingCalls table;
  private final int depth;
  private final Set<String> unfollowed;
  // their names: most calls are of none, and need no qualified name built to tell
  private final Set<String> unfollowedNames;

  /** Per method: its calls' targets, and by the number of calls left what it reaches. */
  private record Reach(Target[] targets, AtomicReferenceArray<Optional<Chain>> byCalls) {}

  private final ConcurrentHashMap<DeclaredMethod, Reach> reach = new ConcurrentHashMap<>();

  /**
   * @param depth the most calls any search follows
   * @param unfollowed methods ({@code a.b.C.m}) whose calls are not followed: knowledge.json's
   *     {@code scanDoesNotFollow}
   */
  ChainSearch(ClassIndex index, BlockingCalls table, int depth, Set<String> unfollowed) {
    this.index = index;
    this.table = table;
    this.depth = depth;
    this.unfollowed = Set.copyOf(unfollowed);
    this.unfollowedNames =
        unfollowed.stream()
            .map(m -> m.substring(m.lastIndexOf('.') + 1))
            .collect(java.util.stream.Collectors.toUnmodifiableSet());
  }

  /**
   * What a call may run in the class path.
   *
   * @param owners the class of each method
   * @param methods the methods
   * @param dispatched whether they are the implementations of a method with no code, any of which
   *     the receiver's class chooses
   */
  record Callees(List<ScannedClass> owners, List<DeclaredMethod> methods, boolean dispatched) {}

  /**
   * The class path's methods {@code call} may run, as the chains follow it, but into the methods
   * the chains do not follow too: they are called all the same.
   */
  Callees callees(CallSite call) {
    Target t = resolve(call, false);
    if (t.leaf() != null && t.leaf().kind() == BlockingKind.NATIVE && !t.virtual()) {
      // a native method of the class path: a leaf of the chains, a callee all the same
      ClassIndex.Resolved r =
          index.get(call.owner()) == null
              ? null
              : index.resolve(call.owner(), call.name(), call.descriptor(), new ArrayList<>());
      return r == null
          ? new Callees(List.of(), List.of(), false)
          : new Callees(List.of(r.owner()), List.of(r.method()), false);
    }
    return new Callees(t.owners(), t.methods(), t.virtual());
  }

  /** The riskiest blocking chain {@code call} starts, within {@code depth} calls, or null. */
  Chain from(CallSite call, int depth) {
    return through(resolve(call), Math.min(depth, this.depth));
  }

  private static Chain riskier(Chain a, Chain b) {
    if (a == null) {
      return b;
    }
    return b != null && b.score() > a.score() ? b : a;
  }

  /** Of {@code m}'s calls, the riskiest chain within {@code calls} calls, {@code m} first. */
  private Chain riskiest(ScannedClass c, DeclaredMethod m, int calls) {
    Reach r = ConcurrentMemo.get(reach, m, this::reachOf);
    Optional<Chain> known = r.byCalls().get(calls);
    if (known != null) {
      return known.orElse(null);
    }
    Chain best = null;
    int at = -1;
    for (int i = 0; i < r.targets().length; i++) {
      Chain sub = through(r.targets()[i], calls);
      if (sub != null && (best == null || sub.score() > best.score())) {
        best = sub;
        at = i;
      }
    }
    Chain found =
        best == null
            ? null
            : best.after(
                new ChainStep(c.name(), m.name(), m.descriptor(), m.calls().get(at).line(), false));
    r.byCalls().set(calls, Optional.ofNullable(found));
    return found;
  }

  /** What {@code m}'s calls resolve to, nothing reached yet. */
  private Reach reachOf(DeclaredMethod m) {
    List<CallSite> sites = m.calls();
    Target[] t = new Target[sites.size()];
    for (int i = 0; i < t.length; i++) {
      t[i] = sites.get(i).reached() ? resolve(sites.get(i)) : NOWHERE;
    }
    return new Reach(t, new AtomicReferenceArray<>(depth + 1));
  }

  /** The riskiest chain a call to {@code target} starts within {@code calls} calls, or null. */
  private Chain through(Target target, int calls) {
    if (calls <= 0) {
      return null;
    }
    if (target.leaf() != null) {
      return target.leaf();
    }
    if (calls < 2) {
      return null;
    }
    Chain best = null;
    for (int i = 0; i < target.methods().size(); i++) {
      Chain chain = riskiest(target.owners().get(i), target.methods().get(i), calls - 1);
      if (chain != null) {
        best = riskier(best, chain.reachedVirtually(target.virtual()));
      }
    }
    return best;
  }

  /** What a call runs: a blocking JDK method or native method, or the class path's methods. */
  private Target resolve(CallSite call) {
    return resolve(call, true);
  }

  private Target resolve(CallSite call, boolean honourUnfollowed) {
    String name = call.name();
    String descriptor = call.descriptor();
    // a lambda runs when its function object is called, which the chains do not follow
    if (call.kind() == CallSite.Kind.LAMBDA
        || (honourUnfollowed && isUnfollowed(call.owner(), name))) {
      return NOWHERE;
    }
    if (call.blocking() != null) {
      // the code around the call tells how it blocks (a class-path resource read, a file)
      return new Target(
          new Chain(
              List.of(new ChainStep(call.owner(), name, descriptor, -1, false)), call.blocking()),
          List.of(),
          List.of(),
          false);
    }
    List<String> outside = new ArrayList<>(2);
    ClassIndex.Resolved r = index.resolve(call.owner(), name, descriptor, outside);
    if (r == null) {
      for (String jdk : outside) {
        Optional<BlockingCalls.Blocking> b = table.match(jdk, name, descriptor);
        if (b.isPresent() && b.get().kind() != BlockingKind.CALLBACK) {
          return new Target(
              new Chain(List.of(new ChainStep(jdk, name, descriptor, -1, false)), b.get().kind()),
              List.of(),
              List.of(),
              false);
        }
      }
      return NOWHERE;
    }
    ScannedClass c = r.owner();
    DeclaredMethod m = r.method();
    if (honourUnfollowed && isUnfollowed(c.name(), name)) {
      return NOWHERE;
    }
    if (m.isNative()) {
      return new Target(
          new Chain(
              List.of(new ChainStep(c.name(), name, descriptor, -1, false)), BlockingKind.NATIVE),
          List.of(),
          List.of(),
          false);
    }
    boolean dispatched =
        call.kind() == CallSite.Kind.VIRTUAL || call.kind() == CallSite.Kind.INTERFACE;
    if (!m.isAbstract()) {
      return new Target(null, List.of(c), List.of(m), false);
    }
    if (!dispatched) {
      return NOWHERE;
    }
    return ConcurrentMemo.get(implementationsOf, m, k -> implementations(c, k, name, descriptor));
  }

  private boolean isUnfollowed(String owner, String name) {
    return unfollowedNames.contains(name) && unfollowed.contains(owner + "." + name);
  }

  /**
   * The implementations a call of a method with no code may run, by the method: every call of an
   * interface's method dispatches to the same ones, and a class path's logger or listener interface
   * is called from thousands of places.
   */
  private final ConcurrentHashMap<DeclaredMethod, Target> implementationsOf =
      new ConcurrentHashMap<>();

  private Target implementations(ScannedClass c, DeclaredMethod m, String name, String descriptor) {
    List<ScannedClass> implementations = new ArrayList<>();
    List<DeclaredMethod> bodies = new ArrayList<>();
    Chain nativeLeaf = null;
    for (ScannedClass impl : index.subtypesOf(c.name(), MAX_IMPLEMENTATIONS)) {
      DeclaredMethod dm = impl.code().method(m.name(), m.descriptor());
      if (dm == null || dm.isAbstract()) {
        continue;
      }
      if (dm.isNative()) {
        nativeLeaf =
            riskier(
                nativeLeaf,
                new Chain(
                    List.of(new ChainStep(impl.name(), name, descriptor, -1, true)),
                    BlockingKind.NATIVE));
      } else {
        implementations.add(impl);
        bodies.add(dm);
      }
    }
    if (nativeLeaf != null && bodies.isEmpty()) {
      return new Target(nativeLeaf, List.of(), List.of(), true);
    }
    return new Target(null, List.copyOf(implementations), List.copyOf(bodies), true);
  }
}
