package dev.vtscope.testing;

/**
 * A program for the advice tests, run in a child JVM under JFR with two carriers and a maxPoolSize
 * of 8: 40 virtual threads wait in {@code Object.wait()} for a pool object that is never returned,
 * and the program exits while they wait. On JDK 21-23 each wait holds its carrier and the scheduler
 * starts another, up to maxPoolSize; no wait ends, so no {@code jdk.JavaMonitorWait} is written.
 */
public final class StuckPoolProgram {

  private static final Object POOL = new Object();

  private StuckPoolProgram() {}

  public static void main(String[] args) throws Exception {
    for (int i = 0; i < 40; i++) {
      Thread.ofVirtual().start(StuckPoolProgram::borrow);
    }
    Thread.sleep(1500);
    System.exit(0);
  }

  private static void borrow() {
    synchronized (POOL) {
      try {
        POOL.wait(); // nothing is ever returned
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
