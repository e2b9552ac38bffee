package dev.vtscope.testing.app;

import dev.vtscope.testing.pool.TinyPool;
import java.util.ArrayList;
import java.util.List;

/**
 * A program for the advice tests, run in a child JVM under JFR: 12 virtual threads borrow from a
 * pool of 2 (a library's, {@link TinyPool}) and hold the object 50 ms; the others wait in the
 * library's Object.wait(), which on JDK 21 keeps their carriers.
 */
public final class LibraryWaitProgram {

  private LibraryWaitProgram() {}

  public static void main(String[] args) throws Exception {
    TinyPool pool = new TinyPool(2);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      threads.add(Thread.ofVirtual().start(() -> useConnection(pool)));
    }
    for (Thread t : threads) {
      t.join();
    }
  }

  private static void useConnection(TinyPool pool) {
    try {
      pool.borrow();
      try {
        Thread.sleep(50);
      } finally {
        pool.giveBack();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
