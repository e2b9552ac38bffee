package dev.vtscope.threaddump;

import java.util.List;

/**
 * One {@code Found one Java-level deadlock} section of {@code Thread.print}: the JVM's own
 * detector, which sees platform threads only.
 *
 * @param threadNames the threads of the cycle, in the order printed
 * @param waits for each thread, what it waits for and who holds it, as printed ({@code waiting to
 *     lock monitor 0x… (object 0x…, a java.lang.Object), which is held by "B"})
 */
public record VmDeadlock(List<String> threadNames, List<String> waits) {
  public VmDeadlock {
    threadNames = List.copyOf(threadNames);
    waits = List.copyOf(waits);
  }
}
