package dev.vtscope.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A JVM with very many parked virtual threads, for the tests of {@code watch --pid} on such a JVM:
 * its thread dump is some 50 MB of JSON and takes the JVM seconds to write. It starts the number of
 * virtual threads its argument says, each parked for good, prints {@code ready}, and runs until its
 * standard input closes. A virtual thread holds a monitor while it sleeps, every few milliseconds,
 * so that there are events to watch (pins on JDK 21–23).
 */
public final class ParkedCrowdProgram {

  private static final Object LOCK = new Object();

  private ParkedCrowdProgram() {}

  public static void main(String[] args) throws Exception {
    int count = Integer.parseInt(args[0]);
    // kept reachable: a parked virtual thread nobody refers to may be collected
    List<Thread> parked = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      parked.add(Thread.ofVirtual().start(LockSupport::park));
    }
    Thread.ofPlatform()
        .daemon()
        .start(
            () -> {
              while (true) {
                try {
                  Thread.ofVirtual().start(ParkedCrowdProgram::hold).join();
                  Thread.sleep(5);
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    System.out.println("ready " + parked.size());
    System.out.flush();
    while (System.in.read() >= 0) {
      // runs until the test closes standard input (or kills it)
    }
  }

  private static void hold() {
    synchronized (LOCK) {
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
