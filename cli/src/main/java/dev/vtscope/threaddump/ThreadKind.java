package dev.vtscope.threaddump;

/** Whether a dumped thread is virtual, as the dump says it. */
public enum ThreadKind {
  PLATFORM,
  VIRTUAL,
  /**
   * The dump does not say (JDK 21's JSON): only the stack tells, {@link DumpedThread#isVirtual}.
   */
  UNKNOWN
}
