package dev.vtscope.testing;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

/**
 * Virtual threads that take carriers without pinning: CPU work, a spin wait and file reads. Args:
 * the folder for the temporary file.
 */
public final class CarrierWorkProgram {

  private static volatile long sink;
  private static volatile boolean released;

  private CarrierWorkProgram() {}

  public static void main(String[] args) throws Exception {
    Path file = Files.createTempFile(Path.of(args[0]), "carrier-work", ".bin");
    Files.write(file, new byte[32 << 20]);
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 3; i++) {
        executor.submit(() -> compute(200));
      }
      CountDownLatch spinning = new CountDownLatch(1);
      executor.submit(() -> spin(spinning));
      spinning.await();
      Thread.sleep(150);
      released = true;
      for (int i = 0; i < 4; i++) {
        executor.submit(() -> read(file, 10));
      }
    } finally {
      Files.delete(file);
    }
  }

  static void compute(long millis) {
    long end = System.nanoTime() + millis * 1_000_000L;
    long x = 1;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 10_000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
    }
    sink = x;
  }

  static void spin(CountDownLatch spinning) {
    spinning.countDown();
    while (!released) {
      Thread.onSpinWait();
    }
  }

  static void read(Path file, int times) {
    byte[] buffer = new byte[32 << 20];
    try {
      for (int i = 0; i < times; i++) {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
          in.readFully(buffer);
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
