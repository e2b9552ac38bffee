package dev.vtscope.testing;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A program for the advice tests, run in a child JVM under JFR: virtual threads read a socket
 * through a subclass of {@link BufferedInputStream}, whose {@code read} then holds the stream's
 * monitor (the JDK keeps its internal lock for the exact class), and the server answers each after
 * 40 ms. On JDK 21-23 the read pins its carrier in the JDK's code, which blocks in the socket read
 * by itself: no code of the program runs inside the monitor.
 */
public final class JdkStreamMonitorProgram {

  private JdkStreamMonitorProgram() {}

  public static void main(String[] args) throws Exception {
    int clients = 4;
    try (ServerSocket server = new ServerSocket(0, clients, InetAddress.getLoopbackAddress())) {
      Thread answering =
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int i = 0; i < clients; i++) {
                      try (Socket s = server.accept()) {
                        Thread.sleep(40);
                        s.getOutputStream().write(42);
                      } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                      }
                    }
                  });
      List<Thread> readers = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        readers.add(Thread.ofVirtual().start(() -> readOne(server.getLocalPort())));
      }
      for (Thread t : readers) {
        t.join();
      }
      answering.join();
    }
  }

  private static void readOne(int port) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        InputStream in = new BufferedInputStream(socket.getInputStream()) {}) {
      if (in.read() != 42) {
        throw new IllegalStateException("no answer");
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
