package dev.vtscope.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * A program for the attribution tests, run in a child JVM under JFR: virtual threads join a
 * platform thread that sleeps. On JDK 21 joining a platform thread waits in Object.wait inside the
 * JDK's Thread.join, so the wait is in JDK code, reached from this program.
 */
public final class JdkWaitProgram {

  private JdkWaitProgram() {}

  public static void main(String[] args) throws Exception {
    Thread worker =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    Thread.sleep(300);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    List<Thread> waiting = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      waiting.add(Thread.ofVirtual().start(() -> awaitWorker(worker)));
    }
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
