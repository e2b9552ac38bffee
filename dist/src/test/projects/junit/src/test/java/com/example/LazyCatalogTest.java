package com.example;

import dev.vtscope.junit.NoPinning;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * Virtual threads that race to initialise a class whose static initialiser blocks: the thread that
 * runs it cannot unmount, on any JDK, so the extension fails the test.
 */
class LazyCatalogTest {

  static final class Catalog {
    static final String FIRST;

    static {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      FIRST = "item-1";
    }
  }

  @Test
  @NoPinning
  void loadsTheCatalogOnFirstUse() {
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 4; i++) {
        executor.submit(() -> Catalog.FIRST.length());
      }
    }
  }
}
