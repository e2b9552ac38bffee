package dev.vtscope.threaddump;

/** The formats of thread dump the JDK writes. */
public enum DumpFormat {
  /** {@code jcmd PID Thread.dump_to_file -format=json FILE}: every thread, virtual ones too. */
  JSON,
  /** {@code jcmd PID Thread.dump_to_file FILE}: the same threads as plain text. */
  PLAIN_TEXT,
  /**
   * {@code jcmd PID Thread.print}, {@code jstack}, a {@code jdk.ThreadDump} event: the platform
   * threads, and of virtual threads only those mounted on a carrier.
   */
  THREAD_PRINT
}
