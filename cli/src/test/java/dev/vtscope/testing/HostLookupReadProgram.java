package dev.vtscope.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A virtual thread reads from an accepted socket while a platform thread writes a few bytes: with
 * JFR's socket-read event on, JDK 21 looks the peer's host name up on the reading thread, and the
 * scheduler compensates for the blocking calls of that lookup. Run it with a parallelism of 1, so
 * that the compensation starts a carrier.
 */
public final class HostLookupReadProgram {

  private HostLookupReadProgram() {}

  public static void main(String[] args) throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      Thread writer =
          Thread.ofPlatform()
              .start(
                  () -> {
                    try (Socket client = new Socket("127.0.0.1", server.getLocalPort())) {
                      OutputStream out = client.getOutputStream();
                      for (int i = 0; i < 5; i++) {
                        out.write(i);
                        out.flush();
                        Thread.sleep(20);
                      }
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  });
      Socket accepted = server.accept();
      Thread reader =
          Thread.ofVirtual()
              .start(
                  () -> {
                    try (accepted;
                        InputStream in = accepted.getInputStream()) {
                      while (in.read() >= 0) {
                        // read to the end
                      }
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  });
      reader.join();
      writer.join();
    }
  }
}
