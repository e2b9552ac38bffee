package dev.vtscope.workloads;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/**
 * Socket round trips on loopback: senders write a request and read the reply, on platform versus
 * virtual threads; the echo server uses the same kind of thread. With blocking sockets one sender
 * pays the virtual thread's park and unpark on every read; many senders share the carriers. The
 * non-blocking variants send through a {@link SocketChannel} in non-blocking mode and wait for the
 * reply with a {@link Selector} of their own, the way event-loop clients do.
 *
 * <p>Variants: {@code virtual} and {@code platform} (blocking sockets), {@code nonblocking-virtual}
 * and {@code nonblocking-platform}. Events and finding: no pinning. Loopback only.
 */
public final class SocketRoundTrip implements Workload {

  @Override
  public String name() {
    return "socket-roundtrip";
  }

  @Override
  public String description() {
    return "request/response over loopback sockets, blocking or non-blocking, 1 or more senders, platform vs virtual threads";
  }

  @Override
  public String effectJdks() {
    return "21+";
  }

  @Override
  public String expectedFinding() {
    return "healthy: no pinning (the figure is the mean round trip)";
  }

  @Override
  public List<String> variants() {
    return List.of("virtual", "platform", "nonblocking-virtual", "nonblocking-platform");
  }

  @Override
  public WorkloadResult run(WorkloadArgs args) throws Exception {
    int senders = args.integer("senders");
    int requests = args.integer("requests");
    boolean virtual = args.variant().endsWith("virtual");
    boolean nonBlocking = args.variant().startsWith("nonblocking");
    ThreadFactory factory = virtual ? Thread.ofVirtual().factory() : Thread.ofPlatform().factory();
    long totalNanos = 0;
    try (ServerSocket server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        ExecutorService echo = Executors.newThreadPerTaskExecutor(factory);
        ExecutorService clients = Executors.newThreadPerTaskExecutor(factory)) {
      echo.submit(() -> accept(server, echo, senders));
      List<java.util.concurrent.Future<Long>> results = new ArrayList<>();
      for (int s = 0; s < senders; s++) {
        results.add(
            clients.submit(
                () ->
                    nonBlocking
                        ? sendNonBlocking(server.getLocalPort(), requests)
                        : send(server.getLocalPort(), requests)));
      }
      for (var result : results) {
        totalNanos += result.get();
      }
    }
    long trips = (long) senders * requests;
    return new WorkloadResult(name(), args.variant())
        .figure("senders", senders)
        .figure("sockets", nonBlocking ? "non-blocking SocketChannel with a Selector" : "blocking")
        .figure("roundTrips", trips)
        .figure("meanMicros", totalNanos / trips / 1000.0)
        .claim(
            "1 sender: 518 us platform vs 687 us virtual; non-blocking closes the gap; with 20 or"
                + " more senders virtual wins");
  }

  private static Void accept(ServerSocket server, ExecutorService echo, int connections)
      throws Exception {
    for (int i = 0; i < connections; i++) {
      Socket socket = server.accept();
      echo.submit(() -> echo(socket));
    }
    return null;
  }

  private static Void echo(Socket socket) throws Exception {
    try (socket;
        DataInputStream in = new DataInputStream(socket.getInputStream());
        DataOutputStream out = new DataOutputStream(socket.getOutputStream())) {
      while (true) {
        int value;
        try {
          value = in.readInt();
        } catch (java.io.EOFException end) {
          return null;
        }
        out.writeInt(value);
        out.flush();
      }
    }
  }

  private static long send(int port, int requests) throws Exception {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        DataInputStream in = new DataInputStream(socket.getInputStream());
        DataOutputStream out = new DataOutputStream(socket.getOutputStream())) {
      socket.setTcpNoDelay(true);
      long start = System.nanoTime();
      for (int i = 0; i < requests; i++) {
        out.writeInt(i);
        out.flush();
        if (in.readInt() != i) {
          throw new IllegalStateException("the echo answered out of order");
        }
      }
      return System.nanoTime() - start;
    }
  }

  /** The same round trips through a non-blocking channel: write, then select until the reply. */
  private static long sendNonBlocking(int port, int requests) throws Exception {
    try (SocketChannel channel =
            SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        Selector selector = Selector.open()) {
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      channel.configureBlocking(false);
      channel.register(selector, SelectionKey.OP_READ);
      ByteBuffer request = ByteBuffer.allocate(4);
      ByteBuffer reply = ByteBuffer.allocate(4);
      long start = System.nanoTime();
      for (int i = 0; i < requests; i++) {
        request.clear().putInt(i).flip();
        while (request.hasRemaining()) {
          channel.write(request);
        }
        reply.clear();
        while (reply.hasRemaining()) {
          if (channel.read(reply) < 0) {
            throw new java.io.EOFException("the echo closed the connection");
          }
          if (reply.hasRemaining()) {
            selector.select();
            selector.selectedKeys().clear();
          }
        }
        if (reply.flip().getInt() != i) {
          throw new IllegalStateException("the echo answered out of order");
        }
      }
      return System.nanoTime() - start;
    }
  }

  @Override
  public Documentation documentation() {
    return new Documentation(
        java.util.List.of(25),
        "--requests 2000",
        "platform",
        "`socket-roundtrip --requests 2000` / `--variant platform`, `nonblocking-virtual`, `nonblocking-platform`; `--senders 20 --requests 200`",
        "1 sender: 518 µs platform vs 687 µs virtual; non-blocking closes the gap; ≥ 20 senders virtual wins",
        "loopback, medians of 3 (`--senders 1 --requests 2000`, `--senders 20 --requests 200`), JDK 21 / 25: 1 sender, blocking 25 / 23 µs platform vs 63 / 59 µs virtual, non-blocking (a `SocketChannel` and a `Selector` per sender) 27 / 35 µs platform vs 76 / 88 µs virtual: non-blocking did not close the gap; 20 senders, blocking 292 / 309 µs platform vs 976 / 523 µs virtual, non-blocking 462 / 468 µs vs 650 / 623 µs: virtual did not win on 2 CPUs (the echo server shares them)");
  }

  @Override
  public List<WorkloadOption> options() {
    return List.of(
        WorkloadOption.count("senders", "1", "threads that send requests"),
        WorkloadOption.count("requests", "5000", "requests each sender sends"));
  }
}
