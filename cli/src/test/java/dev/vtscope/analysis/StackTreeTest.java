package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.testing.Reports;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The pinned-stack tree a flame graph draws. */
class StackTreeTest {

  private static StackTree.Weighted stack(long nanos, int holder, String... outermostFirst) {
    return new StackTree.Weighted(
        List.of(outermostFirst), nanos, 1, CulpritKind.SYNCHRONIZED_BLOCK, holder);
  }

  @Test
  void stacksShareTheirOuterFramesAndWeighThemTogether() {
    StackTree tree =
        StackTree.of(
            List.of(
                stack(30, 1, "Main.run", "Dao.query", "Socket.read"),
                stack(10, 1, "Main.run", "Dao.query", "Thread.sleep"),
                stack(5, 0, "Main.run", "Log.write")));
    StackTree.Node root = tree.root();
    assertThat(root.frame()).isEqualTo("all");
    assertThat(root.totalNanos()).isEqualTo(45);
    StackTree.Node run = root.children().get(0);
    assertThat(run.frame()).isEqualTo("Main.run");
    assertThat(run.children())
        .extracting(StackTree.Node::frame)
        .containsExactly("Dao.query", "Log.write");
    StackTree.Node query = run.children().get(0);
    assertThat(query.totalNanos()).isEqualTo(40);
    assertThat(query.holder()).isTrue();
    assertThat(query.children()).extracting(StackTree.Node::totalNanos).containsExactly(30L, 10L);
    assertThat(tree.omittedNanos()).isZero();
  }

  @Test
  void nodesTooSmallToSeeAreLeftOutAndCounted() {
    StackTree tree = StackTree.of(List.of(stack(1_000_000, 0, "A.big"), stack(10, 0, "B.tiny")));
    assertThat(tree.root().children()).extracting(StackTree.Node::frame).containsExactly("A.big");
    assertThat(tree.omittedNanos()).isEqualTo(10);
  }

  /** On every sample: the root weighs all pinned time, and each node at least its children. */
  @ParameterizedTest
  @MethodSource("dev.vtscope.testing.TestRecordings#samples")
  void theTreeAddsUpToThePinnedTime(Path sample) {
    Analysis a = Reports.analyze("s.jfr", sample, GroupBy.CULPRIT);
    StackTree tree = a.pinnedTree();
    assertThat(tree.root().totalNanos()).isEqualTo(a.pinned().totalNanos());
    assertThat(tree.root().events()).isEqualTo(a.pinned().events());
    assertThat(tree.nodes()).isLessThanOrEqualTo(StackTree.MAX_NODES);
    check(tree.root());
  }

  private static void check(StackTree.Node root) {
    Deque<StackTree.Node> todo = new ArrayDeque<>(List.of(root));
    while (!todo.isEmpty()) {
      StackTree.Node node = todo.pop();
      long children = node.children().stream().mapToLong(StackTree.Node::totalNanos).sum();
      assertThat(children).isLessThanOrEqualTo(node.totalNanos());
      node.children().forEach(todo::push);
    }
  }
}
