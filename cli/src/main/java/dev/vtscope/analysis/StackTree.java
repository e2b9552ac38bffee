package dev.vtscope.analysis;

import dev.vtscope.attribution.CulpritKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Pinned stacks as a tree from the outermost frame in, each node weighted by the pinned time of the
 * stacks through it: what a flame graph draws. Nodes too small to see are left out (their time
 * stays in their parent's), which bounds the tree whatever the number of stacks.
 *
 * <p>A recording's stacks can be as deep as its writer likes (a JVM caps them at 2048 frames, its
 * own setting; other writers need not), so every walk over the tree is a loop, never a recursion
 * that a deep stack could overflow. The tree is made on first use: a report that draws no tree
 * never pays for it.
 */
public final class StackTree {

  /** The smallest share of the total a node keeps. */
  public static final double MIN_SHARE = 0.001;

  /** The most nodes kept. */
  public static final int MAX_NODES = 5_000;

  /**
   * One frame in the tree. Its equality is its identity: a structural one would walk the tree
   * recursively, and nothing compares trees.
   */
  public static final class Node {
    private final String frame;
    private final long totalNanos;
    private final long events;
    private final CulpritKind culprit;
    private final boolean holder;
    private final List<Node> children;

    /**
     * A node.
     *
     * @param frame {@code Class.method}, or "all" for the root
     * @param totalNanos pinned time of the stacks through this frame
     * @param events pinned events through it
     * @param culprit the culprit kind of the heaviest stack through it, or null
     * @param holder whether this frame holds the carrier in that stack
     * @param children callees, heaviest first
     */
    public Node(
        String frame,
        long totalNanos,
        long events,
        CulpritKind culprit,
        boolean holder,
        List<Node> children) {
      this.frame = frame;
      this.totalNanos = totalNanos;
      this.events = events;
      this.culprit = culprit;
      this.holder = holder;
      this.children = List.copyOf(children);
    }

    /** {@code Class.method}, or "all" for the root. */
    public String frame() {
      return frame;
    }

    /** Pinned time of the stacks through this frame. */
    public long totalNanos() {
      return totalNanos;
    }

    /** Pinned events through this frame. */
    public long events() {
      return events;
    }

    /** The culprit kind of the heaviest stack through this frame, or null. */
    public CulpritKind culprit() {
      return culprit;
    }

    /** Whether this frame holds the carrier in the heaviest stack through it. */
    public boolean holder() {
      return holder;
    }

    /** Callees, heaviest first. */
    public List<Node> children() {
      return children;
    }

    @Override
    public String toString() {
      return frame + " (" + totalNanos + " ns, " + children.size() + " callees)";
    }
  }

  /** A stack and its weight, as the site collector holds them at its finest. */
  record Weighted(
      List<String> framesOutermostFirst,
      long totalNanos,
      long events,
      CulpritKind culprit,
      int holderDepth) {}

  /** The tree's root, its node count and the time it left out. */
  private record Shape(Node root, int nodes, long omittedNanos) {}

  /** Makes the shape; dropped once it has. */
  private Supplier<Shape> make;

  private Shape shape;

  private StackTree(Supplier<Shape> make) {
    this.make = make;
  }

  /** The tree's root, "all", weighted by all pinned time. */
  public Node root() {
    return shape().root();
  }

  /** Nodes in the tree. */
  public int nodes() {
    return shape().nodes();
  }

  /** Pinned time in nodes left out as too small. */
  public long omittedNanos() {
    return shape().omittedNanos();
  }

  private synchronized Shape shape() {
    if (shape == null) {
      shape = make.get();
      make = null;
    }
    return shape;
  }

  /** The tree of {@code stacks}, made on first use. */
  static StackTree of(List<Weighted> stacks) {
    List<Weighted> all = List.copyOf(stacks);
    return new StackTree(
        () -> {
          Building root = new Building("all");
          for (Weighted w : all) {
            root.add(w);
          }
          return root.cut(0);
        });
  }

  /**
   * The tree of several recordings' trees, each already cut at its own {@link #MIN_SHARE}: frames
   * on the same path add up, and what each left out stays left out. Made on first use.
   */
  static StackTree merge(List<StackTree> trees) {
    if (trees.size() == 1) {
      return trees.get(0);
    }
    List<StackTree> all = List.copyOf(trees);
    return new StackTree(
        () -> {
          Building root = new Building("all");
          long omittedBefore = 0;
          for (StackTree tree : all) {
            root.add(tree.root());
            omittedBefore += tree.omittedNanos();
          }
          return root.cut(omittedBefore);
        });
  }

  private static final class Building {
    final String frame;
    long total;
    long events;
    long heaviest = -1;
    CulpritKind culprit;
    boolean holder;

    /** Callees by frame; made with the first (most nodes of a deep tree are leaves). */
    Map<String, Building> children;

    Building(String frame) {
      this.frame = frame;
    }

    Building child(String frame) {
      if (children == null) {
        children = new HashMap<>(4);
      }
      return children.computeIfAbsent(frame, Building::new);
    }

    /** Weighs this node and one node a frame down the stack, from the outermost frame in. */
    void add(Weighted w) {
      List<String> frames = w.framesOutermostFirst();
      Building node = this;
      for (int depth = 0; ; depth++) {
        node.total += w.totalNanos();
        node.events += w.events();
        if (w.totalNanos() > node.heaviest) {
          node.heaviest = w.totalNanos();
          node.culprit = w.culprit();
          node.holder = depth > 0 && depth - 1 == w.holderDepth();
        }
        if (depth == frames.size()) {
          return;
        }
        node = node.child(frames.get(depth));
      }
    }

    /** Adds a node of another tree, and all below it, at this one. */
    void add(Node top) {
      Deque<Graft> pending = new ArrayDeque<>();
      pending.push(new Graft(this, top));
      while (!pending.isEmpty()) {
        Graft graft = pending.pop();
        Building into = graft.into();
        Node node = graft.node();
        into.total += node.totalNanos();
        into.events += node.events();
        if (node.totalNanos() > into.heaviest) {
          into.heaviest = node.totalNanos();
          into.culprit = node.culprit();
          into.holder = node.holder();
        }
        for (Node child : node.children()) {
          pending.push(new Graft(into.child(child.frame()), child));
        }
      }
    }

    /**
     * The tree below this root, its callees heaviest first, cut: a node lighter than the share
     * kept, or past the most nodes kept in depth-first order, is left out with all below it.
     */
    Shape cut(long omittedBefore) {
      long min = Math.max(1, (long) (total * MIN_SHARE));
      long omitted = omittedBefore;
      int count = 1;
      Deque<Visit> path = new ArrayDeque<>();
      path.push(new Visit(this));
      while (true) {
        Visit visit = path.peek();
        if (visit.next < visit.callees.size()) {
          Building callee = visit.callees.get(visit.next++);
          if (callee.total < min || count >= MAX_NODES) {
            omitted += callee.total;
          } else {
            count++;
            path.push(new Visit(callee));
          }
          continue;
        }
        path.pop();
        Building b = visit.node;
        Node done =
            new Node(
                b.frame,
                b.total,
                b.events,
                path.isEmpty() ? null : b.culprit,
                b.holder,
                visit.kept);
        if (path.isEmpty()) {
          return new Shape(done, count, omitted);
        }
        path.peek().kept.add(done);
      }
    }
  }

  /** A node of another tree to add at a node of this one. */
  private record Graft(Building into, Node node) {}

  /** A node being cut: its callees heaviest first, the next to visit, and those kept. */
  private static final class Visit {
    final Building node;
    final List<Building> callees;
    final List<Node> kept = new ArrayList<>();
    int next;

    Visit(Building node) {
      this.node = node;
      this.callees =
          node.children == null ? new ArrayList<>() : new ArrayList<>(node.children.values());
      callees.sort(
          (a, b) ->
              a.total != b.total ? Long.compare(b.total, a.total) : a.frame.compareTo(b.frame));
    }
  }
}
