package dev.vtscope.analysis;

import dev.vtscope.attribution.CulpritKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pinned stacks as a tree from the outermost frame in, each node weighted by the pinned time of the
 * stacks through it: what a flame graph draws. Nodes too small to see are left out (their time
 * stays in their parent's), which bounds the tree whatever the number of stacks.
 *
 * @param root the tree's root, "all", weighted by all pinned time
 * @param nodes nodes in the tree
 * @param omittedNanos pinned time in nodes left out as too small
 */
public record StackTree(Node root, int nodes, long omittedNanos) {

  /** The smallest share of the total a node keeps. */
  public static final double MIN_SHARE = 0.001;

  /** The most nodes kept. */
  public static final int MAX_NODES = 5_000;

  /**
   * One frame in the tree.
   *
   * @param frame {@code Class.method}, or "all" for the root
   * @param totalNanos pinned time of the stacks through this frame
   * @param events pinned events through it
   * @param culprit the culprit kind of the heaviest stack through it, or null
   * @param holder whether this frame holds the carrier in that stack
   * @param children callees, heaviest first
   */
  public record Node(
      String frame,
      long totalNanos,
      long events,
      CulpritKind culprit,
      boolean holder,
      List<Node> children) {

    public Node {
      children = List.copyOf(children);
    }
  }

  /** A stack and its weight, as the site collector holds them at its finest. */
  record Weighted(
      List<String> framesOutermostFirst,
      long totalNanos,
      long events,
      CulpritKind culprit,
      int holderDepth) {}

  /** Builds the tree of {@code stacks}. */
  static StackTree of(List<Weighted> stacks) {
    Building root = new Building("all");
    for (Weighted w : stacks) {
      root.add(w, 0);
    }
    long total = root.total;
    long min = Math.max(1, (long) (total * MIN_SHARE));
    int[] count = {0};
    long[] omitted = {0};
    Node tree = root.toNode(min, count, omitted, true);
    return new StackTree(tree, count[0], omitted[0]);
  }

  /**
   * The tree of several recordings' trees, each already cut at its own {@link #MIN_SHARE}: frames
   * on the same path add up, and what each left out stays left out.
   */
  static StackTree merge(List<StackTree> trees) {
    if (trees.size() == 1) {
      return trees.get(0);
    }
    Building root = new Building("all");
    long omittedBefore = 0;
    for (StackTree tree : trees) {
      root.add(tree.root());
      omittedBefore += tree.omittedNanos();
    }
    long min = Math.max(1, (long) (root.total * MIN_SHARE));
    int[] count = {0};
    long[] omitted = {omittedBefore};
    Node tree = root.toNode(min, count, omitted, true);
    return new StackTree(tree, count[0], omitted[0]);
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

    void add(Weighted w, int depth) {
      total += w.totalNanos();
      events += w.events();
      if (w.totalNanos() > heaviest) {
        heaviest = w.totalNanos();
        culprit = w.culprit();
        holder = depth > 0 && depth - 1 == w.holderDepth();
      }
      if (depth < w.framesOutermostFirst().size()) {
        String next = w.framesOutermostFirst().get(depth);
        if (children == null) {
          children = new HashMap<>(4);
        }
        children.computeIfAbsent(next, Building::new).add(w, depth + 1);
      }
    }

    /** Adds a node of another tree, and its callees, below this one. */
    void add(Node node) {
      total += node.totalNanos();
      events += node.events();
      if (node.totalNanos() > heaviest) {
        heaviest = node.totalNanos();
        culprit = node.culprit();
        holder = node.holder();
      }
      for (Node child : node.children()) {
        if (children == null) {
          children = new HashMap<>(4);
        }
        children.computeIfAbsent(child.frame(), Building::new).add(child);
      }
    }

    Node toNode(long min, int[] count, long[] omitted, boolean root) {
      count[0]++;
      List<Node> kept = new ArrayList<>();
      List<Building> sorted =
          children == null ? new ArrayList<>() : new ArrayList<>(children.values());
      sorted.sort(
          (a, b) ->
              a.total != b.total ? Long.compare(b.total, a.total) : a.frame.compareTo(b.frame));
      for (Building child : sorted) {
        if (child.total < min || count[0] >= MAX_NODES) {
          omitted[0] += child.total;
          continue;
        }
        kept.add(child.toNode(min, count, omitted, false));
      }
      return new Node(frame, total, events, root ? null : culprit, holder, kept);
    }
  }
}
