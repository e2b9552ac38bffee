package dev.vtscope.thirdparty;

import java.io.OutputStream;
import java.util.concurrent.Executors;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.WriterAppender;

/**
 * Virtual threads log through log4j 1.2 to a slow stream (a full pipe, a slow disk). The appender
 * writes while holding log4j's monitors, so on JDK 21 every slow write pins its carrier; the frame
 * where the thread waited is this program's stream, the monitor is log4j's.
 */
public final class Log4jSlowAppender {

  private Log4jSlowAppender() {}

  /** A stream whose writes block for a few milliseconds. */
  static final class SlowStream extends OutputStream {
    @Override
    public void write(int b) {
      pause();
    }

    @Override
    public void write(byte[] b, int off, int len) {
      pause();
    }

    private static void pause() {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  public static void main(String[] args) {
    int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    Logger logger = Logger.getLogger("orders");
    logger.addAppender(new WriterAppender(new PatternLayout("%m%n"), new SlowStream()));
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < tasks; i++) {
        int order = i;
        executor.submit(() -> placeOrder(logger, order));
      }
    }
  }

  static void placeOrder(Logger logger, int order) {
    logger.info("placed order " + order);
  }
}
