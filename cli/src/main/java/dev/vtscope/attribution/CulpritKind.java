package dev.vtscope.attribution;

/** What holds the carrier. */
public enum CulpritKind {
  /** A method declared {@code synchronized}: JFR records its modifiers. */
  SYNCHRONIZED_METHOD,
  /** A {@code synchronized} block: found from the class bytes. */
  SYNCHRONIZED_BLOCK,
  /** A JNI method on the stack. */
  NATIVE_METHOD,
  /** A foreign-function (FFM) downcall or upcall on the stack. */
  FOREIGN_FUNCTION,
  /** A class initialiser running on the virtual thread. */
  CLASS_INIT,
  /** Waiting for another thread to finish a class initialiser. */
  CLASS_INIT_WAIT,
  /**
   * The JVM loading a class for the frame that first used it: it calls the class loader from inside
   * the VM, where the thread cannot unmount (JDK 24+ says so in the pinned reason).
   */
  CLASS_LOADING,
  /** A contended monitor enter of a virtual thread (JDK 21–23). */
  MONITOR_ENTER,
  /** {@code Object.wait()} in a virtual thread (JDK 21–23). */
  MONITOR_WAIT,
  /** CPU work: a virtual thread kept its carrier running Java code (execution samples). */
  CPU_BOUND,
  /** Spinning: a virtual thread kept its carrier in a loop of {@code Thread.onSpinWait}/yield. */
  SPIN_WAIT,
  /** Blocking file I/O of a virtual thread, which keeps its carrier for the whole call. */
  FILE_IO,
  /** A blocking call that made the scheduler start another carrier to compensate. */
  COMPENSATED_BLOCKING,
  /** Not known: the reason is kept as recorded. */
  UNKNOWN
}
