package dev.vtscope.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A program for the attribution tests, run in a child JVM under JFR: virtual threads read a line
 * from a socket through a {@link BufferedReader} inside a synchronized block of the program's own
 * on the reader's lock, and the server answers each after 40 ms. On JDK 21 the reader's read
 * synchronizes on that lock again (a subclass keeps the monitor, not the JDK's internal lock) and
 * blocks in the socket read: two frames hold the monitor, the program's outside the JDK's, and the
 * program's is the one to change.
 */
public final class LockedReaderProgram {

  private LockedReaderProgram() {}

  /** A reader whose lock the program can synchronize on, as a line-reading library does. */
  static final class SharedLockReader extends BufferedReader {
    SharedLockReader(Reader in) {
      super(in);
    }

    Object sharedLock() {
      return lock;
    }
  }

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
                        s.getOutputStream().write("ok\n".getBytes(StandardCharsets.US_ASCII));
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
        SharedLockReader reader =
            new SharedLockReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))) {
      if (!"ok".equals(readLine(reader))) {
        throw new IllegalStateException("no answer");
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String readLine(SharedLockReader reader) throws IOException {
    synchronized (reader.sharedLock()) {
      return reader.readLine();
    }
  }
}
