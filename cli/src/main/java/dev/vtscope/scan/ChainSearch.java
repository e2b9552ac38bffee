package dev.vtscope.scan;

import dev.vtscope.attribution.CallSite;
import dev.vtscope.attribution.DeclaredMethod;
import java.util.ArrayList;
import java.util.HashSet;
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
 * overrides. What each method reaches within a number of calls is kept once found, for every caller
 * and on every core; a result cut short by recursion is not kept.
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

  private final ClassIndex index;
  private final BlockingCalls table;

  /** Per method, by the calls left: what it reaches, once found without recursion cutting it. */
  private final ConcurrentHashMap<DeclaredMethod, AtomicReferenceArray<Optional<Chain>>> reached =
      new ConcurrentHashMap<>();

  private final int depth;

  /**
   * @param depth the most calls any search follows
   */
  ChainSearch(ClassIndex index, BlockingCalls table, int depth) {
    this.index = index;
    this.table = table;
    this.depth = depth;
  }

  /** The riskiest blocking chain {@code call} starts, within {@code depth} calls, or null. */
  Chain from(CallSite call, int depth) {
    return new Walk().call(call.owner(), call.name(), call.descriptor(), call.kind(), depth);
  }

  private static Chain riskier(Chain a, Chain b) {
    if (a == null) {
      return b;
    }
    return b != null && b.score() > a.score() ? b : a;
  }

  /** One search, with the methods it is inside of. */
  private final class Walk {
    private final Set<DeclaredMethod> inside = new HashSet<>();
    private boolean cut;

    Chain call(String owner, String name, String descriptor, CallSite.Kind kind, int budget) {
      if (budget <= 0) {
        return null;
      }
      List<String> outside = new ArrayList<>();
      ClassIndex.Resolved r = null;
      if (index.get(owner) == null) {
        outside.add(owner);
      } else {
        r = index.resolve(owner, name, descriptor, outside);
      }
      if (r == null) {
        for (String jdk : outside) {
          Optional<BlockingCalls.Blocking> b = table.match(jdk, name, descriptor);
          if (b.isPresent() && b.get().kind() != BlockingKind.CALLBACK) {
            return new Chain(
                List.of(new ChainStep(jdk, name, descriptor, -1, false)), b.get().kind());
          }
        }
        return null;
      }
      ScannedClass c = r.owner();
      DeclaredMethod m = r.method();
      if (m.isNative()) {
        return new Chain(
            List.of(new ChainStep(c.name(), name, descriptor, -1, false)), BlockingKind.NATIVE);
      }
      Chain best = null;
      if (!m.isAbstract() && budget > 1) {
        best = method(c, m, budget - 1, false);
      }
      boolean dispatched = kind == CallSite.Kind.VIRTUAL || kind == CallSite.Kind.INTERFACE;
      if (dispatched && m.isAbstract() && budget > 1) {
        for (ScannedClass impl : index.subtypesOf(c.name(), MAX_IMPLEMENTATIONS)) {
          DeclaredMethod dm = impl.code().method(m.nameAndDescriptor());
          if (dm == null || dm.isAbstract()) {
            continue;
          }
          Chain candidate =
              dm.isNative()
                  ? new Chain(
                      List.of(new ChainStep(impl.name(), name, descriptor, -1, true)),
                      BlockingKind.NATIVE)
                  : method(impl, dm, budget - 1, true);
          best = riskier(best, candidate);
        }
      }
      return best;
    }

    /** The riskiest chain of {@code m}'s calls, each within {@code budget} calls, m first. */
    private Chain method(ScannedClass c, DeclaredMethod m, int budget, boolean virtual) {
      AtomicReferenceArray<Optional<Chain>> byBudget =
          reached.computeIfAbsent(m, k -> new AtomicReferenceArray<>(depth + 1));
      Optional<Chain> known = byBudget.get(budget);
      if (known != null) {
        return known.map(k -> k.reachedVirtually(virtual)).orElse(null);
      }
      if (!inside.add(m)) {
        cut = true; // recursion: the way in already holds what this would find
        return null;
      }
      boolean cutBefore = cut;
      cut = false;
      Chain best = null;
      for (CallSite call : m.calls()) {
        if (!call.reached()) {
          continue;
        }
        Chain sub = call(call.owner(), call.name(), call.descriptor(), call.kind(), budget);
        if (sub != null) {
          best =
              riskier(
                  best,
                  sub.after(new ChainStep(c.name(), m.name(), m.descriptor(), call.line(), false)));
        }
      }
      inside.remove(m);
      if (!cut) {
        byBudget.set(budget, Optional.ofNullable(best));
      }
      cut |= cutBefore;
      return best == null ? null : best.reachedVirtually(virtual);
    }
  }
}
