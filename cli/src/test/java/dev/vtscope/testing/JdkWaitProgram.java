package dev.vtscope.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A program for the attribution tests, run in a child JVM under JFR: virtual threads join a
 * platform thread that waits. On JDK 21 joining a platform thread waits in Object.wait inside the
 * JDK's Thread.join, so the wait is in JDK code, reached from this program. The platform thread
 * ends only once every virtual thread waits in the join, and 300 ms later: on a busy machine the
 * virtual threads may start late, and a join of a thread that already ended does not wait.
 */
public final class JdkWaitProgram {

  private JdkWaitProgram() {}

  public static void main(String[] args) throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Thread worker =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    release.await();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    List<Thread> waiting = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      waiting.add(Thread.ofVirtual().start(() -> awaitWorker(worker)));
    }
    for (Thread t : waiting) {
      while (t.getState() != Thread.State.WAITING) {
        Thread.sleep(10);
      }
    }
    Thread.sleep(300);
    release.countDown();
    for (Thread t : waiting) {
      t.join();
    }
  }

  private static void awaitWorker(Thread worker) {
    try {
      worker.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
