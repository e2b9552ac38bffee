package dev.vtscope.threaddump;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.recording.Frame;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JSON and the plain text of one moment, written by the same code of the JDK a moment apart,
 * read alike: the same threads by id, with the same names, the same kind where both say it, and the
 * same frames for threads that wait (a running thread moves on between the two).
 */
class FormatEquivalenceTest {

  /** Methods a waiting thread sits in on top of its stack. */
  private static final Set<String> WAITING =
      Set.of(
          "park",
          "parkNanos",
          "wait0",
          "sleep0",
          "sleepNanos0",
          "waitForReferencePendingList",
          "epollWait",
          "yield0");

  static Stream<String> scenarios() {
    return Samples.named("dump-to-file.json")
        .filter(p -> !p.contains("escape-name"))
        .map(p -> p.substring(0, p.lastIndexOf('/')));
  }

  @ParameterizedTest
  @MethodSource("scenarios")
  void jsonAndPlainTextOfOneMomentAgree(String scenario) throws IOException {
    ThreadDump json = Samples.json(scenario + "/dump-to-file.json");
    ThreadDump plain = Samples.plain(scenario + "/dump-to-file.txt");
    assertThat(plain.runtimeVersion()).isEqualTo(json.runtimeVersion());
    assertThat(plain.pid()).isEqualTo(json.pid());
    Map<Long, DumpedThread> byTid = new HashMap<>();
    plain.threads().forEach(t -> byTid.put(t.tid(), t));
    Set<Long> common = new HashSet<>(byTid.keySet());
    common.retainAll(json.threads().stream().map(DumpedThread::tid).toList());
    // the attach listener may come or go between the two
    assertThat(common.size()).isGreaterThanOrEqualTo(json.threads().size() - 1);
    int compared = 0;
    for (DumpedThread j : json.threads()) {
      DumpedThread p = byTid.get(j.tid());
      if (p == null) {
        continue;
      }
      assertThat(p.name()).as("#%d", j.tid()).isEqualTo(j.name());
      if (j.kind() != ThreadKind.UNKNOWN) {
        assertThat(p.kind()).as(j.name()).isEqualTo(j.kind());
      } else if (!j.frames().isEmpty()) {
        // JDK 21's JSON: the stack tells what the text says
        assertThat(p.isVirtual()).as(j.name()).isEqualTo(j.isVirtual());
      }
      if (waiting(j) && waiting(p) && !j.name().equals("Attach Listener")) {
        assertThat(p.frames()).as(j.name()).isEqualTo(j.frames());
        compared++;
      }
    }
    assertThat(compared).isPositive();
  }

  private static boolean waiting(DumpedThread t) {
    Frame top = t.frames().isEmpty() ? null : t.frames().get(0);
    return top != null && WAITING.contains(top.method());
  }
}
