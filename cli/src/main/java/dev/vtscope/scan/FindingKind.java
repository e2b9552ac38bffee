package dev.vtscope.scan;

/** What a scan finding is about. */
public enum FindingKind {
  /** A {@code synchronized} method whose body makes a blocking call. */
  SYNCHRONIZED_METHOD,
  /** A {@code synchronized} block around a blocking call. */
  SYNCHRONIZED_BLOCK,
  /** A class initialiser that blocks: it pins, and the threads waiting for it wait pinned. */
  CLASS_INIT,
  /** A native method: a virtual thread pins while it runs, or while Java code it calls blocks. */
  NATIVE_METHOD,
  /**
   * A foreign-function upcall made here: Java code run under a native frame, which pins if it
   * blocks.
   */
  FOREIGN_UPCALL,
  /**
   * A call of a JDK method that runs the caller's function under its own monitor ({@code
   * ConcurrentHashMap.compute}): a function that blocks pins there.
   */
  JDK_MONITOR_CALLBACK
}
