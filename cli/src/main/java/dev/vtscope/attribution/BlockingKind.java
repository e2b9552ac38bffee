package dev.vtscope.attribution;

/**
 * How a call blocks a virtual thread, with the weight the risk ranking gives it: a thread parked
 * for a socket, a lock or another thread can wait without bound; file I/O and a stream of unknown
 * kind for as long as the device; a sleep for the time it names.
 */
public enum BlockingKind {
  /** {@code Object.wait}: waits for another thread's notify. */
  WAIT(6),
  /** {@code LockSupport.park} and what parks through it: locks, conditions, latches, semaphores. */
  PARK(6),
  /** Socket and network I/O. */
  SOCKET(6),
  /**
   * A host name looked up (a name service, DNS): as long as the resolver takes, seconds at worst.
   */
  HOST_LOOKUP(6),
  /** Waiting for a future, a task or an executor. */
  FUTURE(6),
  /** A blocking queue's take, put or timed poll/offer. */
  QUEUE(6),
  /** {@code Process.waitFor}. */
  PROCESS(6),
  /** {@code Thread.join}. */
  JOIN(6),
  /** File I/O. */
  FILE(5),
  /** I/O on a stream, reader, writer or channel of unknown kind: a file's or a socket's. */
  STREAM(5),
  /** A native method of the class path: its frame pins while it runs or calls back into Java. */
  NATIVE(5),
  /** {@code Thread.sleep}. */
  SLEEP(4),
  /** A JDK method that runs the caller's function under its own monitor. */
  CALLBACK(4);

  private final int weight;

  BlockingKind(int weight) {
    this.weight = weight;
  }

  /** Its weight in the risk score: 6 for what can wait without bound, down to 4. */
  public int weight() {
    return weight;
  }
}
