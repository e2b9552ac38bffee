package dev.vtscope.testing;

import jdk.jfr.Recording;

/**
 * A program that keeps recording until it is stopped, for the tests of a running JVM's repository:
 * virtual threads pin their carrier (a {@code synchronized} sleep, which pins on JDK 21-23) every
 * few milliseconds. It starts a second chunk early, so the repository holds a finished chunk and
 * the one being written, then prints {@code ready} and runs until its standard input closes.
 */
public final class LiveProgram {

  private static final Object LOCK = new Object();

  private LiveProgram() {}

  public static void main(String[] args) throws Exception {
    Thread pins =
        Thread.ofPlatform()
            .daemon()
            .start(
                () -> {
                  while (true) {
                    Thread vt = Thread.ofVirtual().start(LiveProgram::pin);
                    try {
                      vt.join();
                      Thread.sleep(5);
                    } catch (InterruptedException e) {
                      return;
                    }
                  }
                });
    Thread.sleep(300);
    try (Recording rotate = new Recording()) {
      rotate.start(); // the JVM starts a new chunk: the first one is finished
      rotate.stop();
    }
    System.out.println("ready");
    System.out.flush();
    while (System.in.read() >= 0) {
      // runs until the test closes standard input (or kills it)
    }
    pins.interrupt();
  }

  private static void pin() {
    synchronized (LOCK) {
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
