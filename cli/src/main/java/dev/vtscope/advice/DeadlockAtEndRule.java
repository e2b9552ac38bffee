package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.CarriersAtEnd;
import java.util.List;

/**
 * The deadlocks and carrier starvations of a recording's last thread dump ({@code jdk.ThreadDump}):
 * the JVM's own detector never reports one with a virtual thread in it, and a pin that never ends
 * writes no event.
 */
final class DeadlockAtEndRule implements Rule {

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    CarriersAtEnd end = a.carriersAtEnd();
    return end == null ? List.of() : DeadlockFinding.of(end.deadlocks(), k);
  }
}
