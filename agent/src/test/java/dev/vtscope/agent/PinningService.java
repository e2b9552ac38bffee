package dev.vtscope.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A small service the agent's tests start in a JVM of their own: it runs for the seconds given
 * (default 60), and when a line comes on its standard input a few virtual threads pin their
 * carrier. A test asks once the agent says it serves: the agent starts beside {@code main}, and a
 * pin before it records is never counted. On JDK 21–23 they sleep inside {@code synchronized}; from
 * JDK 24 on, where that no longer pins (JEP 491), they sleep in a class initialiser, which still
 * does. It uses no Micrometer, so that it runs with Micrometer's jar on the class path or without.
 */
public final class PinningService {

  private PinningService() {}

  private static final Object LOCK = new Object();

  public static void main(String[] args) throws Exception {
    Thread.ofPlatform()
        .daemon()
        .start(
            () -> {
              try {
                if (new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                        .readLine()
                    != null) {
                  pin();
                  System.out.println("pinned");
                }
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    Thread.sleep(1000L * (args.length > 0 ? Integer.parseInt(args[0]) : 60));
  }

  /**
   * Whether a line came on standard input; reads it when it did. For the applications the tests
   * start, told when to go on by a line.
   */
  static boolean toldToGoOn() throws IOException {
    if (System.in.available() == 0) {
      return false;
    }
    for (int b = System.in.read(); b != -1 && b != '\n'; b = System.in.read()) {
      // the rest of the line
    }
    return true;
  }

  /** The class whose code the pins are in, the holder the metrics should name. */
  static String holderClass() {
    return Runtime.version().feature() >= 24
        ? SlowInitialiser.class.getName()
        : PinningService.class.getName();
  }

  /** The holder's method, as the metrics should name it, on the running JDK. */
  static String holderMethod() {
    return Runtime.version().feature() >= 24 ? "<clinit>" : "hold";
  }

  /** The kind of hold the metrics should name, on the running JDK. */
  static String holderKind() {
    return Runtime.version().feature() >= 24 ? "class_init" : "synchronized_block";
  }

  /** Pins a few virtual threads, each for some 50 ms, and waits for them. */
  static void pin() throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      threads.add(
          Thread.ofVirtual()
              .start(
                  Runtime.version().feature() >= 24
                      ? SlowInitialiser::touch
                      : PinningService::hold));
    }
    for (Thread t : threads) {
      t.join();
    }
  }

  private static void hold() {
    synchronized (LOCK) {
      sleep();
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Sleeps while being initialised: the virtual thread that runs it cannot unmount. */
  static final class SlowInitialiser {
    static {
      sleep();
    }

    static void touch() {}
  }
}
