package dev.vtscope.agent;

import dev.vtscope.metrics.PinningMetrics;
import dev.vtscope.report.OpenMetricsReport;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Serves the metrics at {@code /metrics} in the OpenMetrics format over HTTP/1.1, on one daemon
 * thread that multiplexes every connection with a selector: a client that sends slowly, or nothing
 * at all, holds a buffer and a descriptor until its time is up, never the thread, so it delays no
 * other scrape. A scrape formats the counters kept; nothing is analysed while serving.
 *
 * <p>It owns its socket loop rather than use the JDK's {@code com.sun.net.httpserver}, which reads
 * a request head with blocking reads on its executor's threads and, unless the JVM-wide {@code
 * sun.net.httpserver.maxReqTime} is set, for as long as the client likes; setting that property
 * inside a service would change the service's own HttpServer too.
 *
 * <p>It answers {@code GET} and {@code HEAD} of {@code /metrics} (a query is ignored), 404 for any
 * other path, 405 with {@code Allow} for other methods, 400 for what is not an HTTP/1.x request,
 * 431 for a head over the limit, 408 for a head not sent in time, 505 for other HTTP versions and
 * 503 to a connection beyond the limit; docs/metrics.md lists them for users.
 */
final class MetricsEndpoint implements AutoCloseable {

  /**
   * What a client may take.
   *
   * @param timeout the time a connection has for each step: to send a whole request head (counted
   *     from when it connects, or when its previous answer was written), to take an answer, and to
   *     close once told it will be closed
   * @param headBytes the longest request head, in bytes
   * @param connections the most connections open at once; one more is answered 503 and closed
   */
  record Limits(Duration timeout, int headBytes, int connections) {
    /** A few seconds, 8 KiB, and far more connections than any set of scrapers opens. */
    static final Limits DEFAULT = new Limits(Duration.ofSeconds(5), 8192, 256);
  }

  /** The endpoint cannot listen where it was told, said in one line, with the option to change. */
  static final class CannotListen extends Exception {
    private final String option;

    CannotListen(String message, String option) {
      super(message);
      this.option = option;
    }

    /** The agent option to choose another value of: {@code host} or {@code port}. */
    String option() {
      return option;
    }
  }

  private static final String PATH = "/metrics";

  private final ServerSocketChannel listener;
  private final Selector selector;
  private final InetSocketAddress address;
  private final Limits limits;
  private final OpenMetricsReport format = new OpenMetricsReport(Integer.MAX_VALUE);
  // Everything below is used on the serving thread only.
  private final Set<Connection> connections = new HashSet<>();
  private final ByteBuffer discarded;
  private SelectionKey accepting;
  private long acceptingAgainAt;
  private Supplier<PinningMetrics> metrics;
  private Thread thread;
  private volatile boolean closed;

  private MetricsEndpoint(
      ServerSocketChannel listener, Selector selector, InetSocketAddress address, Limits limits) {
    this.listener = listener;
    this.selector = selector;
    this.address = address;
    this.limits = limits;
    this.discarded = ByteBuffer.allocate(limits.headBytes());
  }

  /**
   * Binds {@code host:port}; connections wait until {@link #serve}. The agent binds first so that a
   * bad host or port is told before anything else starts.
   *
   * @throws CannotListen when the host is no address of this machine, or the port cannot be had
   */
  static MetricsEndpoint listen(String host, int port, Limits limits) throws CannotListen {
    InetSocketAddress wanted = new InetSocketAddress(host, port);
    if (wanted.isUnresolved()) {
      throw new CannotListen("host=" + host + " does not resolve to an address", "host");
    }
    ServerSocketChannel listener = null;
    Selector selector = null;
    try {
      listener = ServerSocketChannel.open();
      listener.bind(wanted, 64);
      listener.configureBlocking(false);
      selector = Selector.open();
      InetSocketAddress bound = (InetSocketAddress) listener.getLocalAddress();
      return new MetricsEndpoint(listener, selector, bound, limits);
    } catch (IOException | RuntimeException e) {
      closeQuietly(listener);
      closeQuietly(selector);
      if (!ofThisMachine(wanted.getAddress())) {
        throw new CannotListen(
            "host=" + host + " is not an address of this machine (" + e.getMessage() + ")", "host");
      }
      throw new CannotListen(
          "cannot listen on " + host + ":" + port + " (" + e.getMessage() + ")", "port");
    }
  }

  /**
   * Whether {@code address} is this machine's. Asked only once binding failed: Linux binds all of
   * 127.0.0.0/8, which no interface lists address by address.
   */
  private static boolean ofThisMachine(InetAddress address) {
    try {
      return address.isAnyLocalAddress()
          || address.isLoopbackAddress()
          || NetworkInterface.getByInetAddress(address) != null;
    } catch (IOException e) {
      return true; // cannot tell: the port is the likelier cause
    }
  }

  /** Starts answering, with what {@code metrics} holds at each scrape. */
  MetricsEndpoint serve(Supplier<PinningMetrics> metrics) {
    this.metrics = metrics;
    thread = new Thread(this::run, "vtscope-agent-http");
    thread.setDaemon(true);
    thread.start();
    return this;
  }

  /** The address it listens on, with the port taken when 0 was asked for. */
  InetSocketAddress address() {
    return address;
  }

  /** The metrics' URL, as a scraper is told to ask for it. */
  String url() {
    String host = address.getHostString();
    return "http://"
        + (host.contains(":") ? "[" + host + "]" : host)
        + ":"
        + address.getPort()
        + PATH;
  }

  private void run() {
    try {
      accepting = listener.register(selector, SelectionKey.OP_ACCEPT);
      while (!closed) {
        selector.select(this::ready, millisToNextDeadline());
        timeOut(System.nanoTime());
      }
    } catch (IOException | ClosedSelectorException e) {
      // the selector cannot go on: nothing more is served
    } finally {
      List.copyOf(connections).forEach(Connection::close);
      closeQuietly(listener);
      closeQuietly(selector);
    }
  }

  private void ready(SelectionKey key) {
    if (key == accepting) {
      accept();
      return;
    }
    Connection connection = (Connection) key.attachment();
    try {
      if (key.isReadable()) {
        connection.read();
      } else {
        connection.proceed();
      }
    } catch (IOException | RuntimeException e) {
      // this client's connection failed, or what it sent did: the others are served on
      connection.close();
    }
  }

  /** Takes one connection: one per round, so that a burst of them does not hold up the others. */
  private void accept() {
    SocketChannel channel;
    try {
      channel = listener.accept();
    } catch (IOException e) {
      // Most likely out of descriptors: the listener stays ready, so pause rather than spin.
      accepting.interestOps(0);
      acceptingAgainAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
      return;
    }
    if (channel == null) {
      return;
    }
    if (connections.size() >= limits.connections()) {
      refuse(channel);
      return;
    }
    try {
      connections.add(new Connection(channel));
    } catch (IOException e) {
      closeQuietly(channel);
    }
  }

  /** Answers 503 to a connection beyond the limit, as far as its socket takes it at once. */
  private void refuse(SocketChannel channel) {
    try (channel) {
      channel.configureBlocking(false);
      // The request already sent is read, so that closing sends no reset that loses the answer.
      discarded.clear();
      channel.read(discarded);
      channel.write(
          Response.error(503, "more than " + limits.connections() + " connections open")
              .bytes(true, true));
      channel.shutdownOutput();
    } catch (IOException e) {
      // the client learns it from the closed connection
    }
  }

  private void timeOut(long now) {
    for (Connection connection : List.copyOf(connections)) {
      if (now - connection.deadline >= 0) {
        connection.timeOut();
      }
    }
    if (accepting.interestOps() == 0 && now - acceptingAgainAt >= 0) {
      accepting.interestOps(SelectionKey.OP_ACCEPT);
    }
  }

  /** How long the selector may wait: until the next deadline, or for ever (0) without one. */
  private long millisToNextDeadline() {
    long now = System.nanoTime();
    long next = Long.MAX_VALUE;
    for (Connection connection : connections) {
      next = Math.min(next, connection.deadline - now);
    }
    if (accepting.interestOps() == 0) {
      next = Math.min(next, acceptingAgainAt - now);
    }
    return next == Long.MAX_VALUE ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(next) + 1);
  }

  /** The answer to a request that could be read. */
  private Response answer(RequestHead request) {
    if (!request.path().equals(PATH)) {
      return Response.error(404, "this endpoint serves " + PATH);
    }
    if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
      return Response.error(405, "GET or HEAD").allowing("GET, HEAD");
    }
    try {
      return Response.ok(OpenMetricsReport.CONTENT_TYPE, render());
    } catch (RuntimeException e) {
      return Response.error(500, "the metrics could not be written");
    }
  }

  private byte[] render() {
    ByteArrayOutputStream body = new ByteArrayOutputStream(4096);
    PrintWriter out = new PrintWriter(new OutputStreamWriter(body, StandardCharsets.UTF_8), false);
    format.render(metrics.get(), out);
    out.flush();
    return body.toByteArray();
  }

  private static void closeQuietly(Closeable closeable) {
    if (closeable != null) {
      try {
        closeable.close();
      } catch (IOException e) {
        // closed as far as it can be
      }
    }
  }

  /** Stops serving and closes every connection. */
  @Override
  public void close() {
    closed = true;
    if (thread == null) {
      closeQuietly(listener);
      closeQuietly(selector);
      return;
    }
    selector.wakeup();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * One client's connection, in one of three steps: reading a request head, writing the answer, or
   * lingering after an answer that closes it, reading until the client closes so that what it still
   * sends does not make the closing a reset that loses the answer.
   */
  private final class Connection {
    private final SocketChannel channel;
    private final SelectionKey key;

    /** The request head read so far, and whatever came after it: the next request. */
    private final ByteBuffer head;

    /** The answer being written; null while a head is read. */
    private ByteBuffer answer;

    private boolean closeAfterAnswer;
    private boolean lingering;

    /** When the current step must be done, in {@link System#nanoTime()}'s terms. */
    private long deadline;

    Connection(SocketChannel channel) throws IOException {
      this.channel = channel;
      channel.configureBlocking(false);
      this.key = channel.register(selector, SelectionKey.OP_READ, this);
      this.head = ByteBuffer.allocate(limits.headBytes());
      this.deadline = deadline();
    }

    private long deadline() {
      return System.nanoTime() + limits.timeout().toNanos();
    }

    void read() throws IOException {
      if (lingering) {
        discarded.clear();
        if (channel.read(discarded) < 0) {
          close();
        }
        return;
      }
      if (channel.read(head) < 0) {
        close();
        return;
      }
      proceed();
    }

    /**
     * Writes the answer under way, then answers the next request already read, until it has to wait
     * for the client.
     */
    void proceed() throws IOException {
      while (true) {
        if (answer != null) {
          channel.write(answer);
          if (answer.hasRemaining()) {
            key.interestOps(SelectionKey.OP_WRITE);
            return;
          }
          answer = null;
          if (closeAfterAnswer) {
            channel.shutdownOutput();
            lingering = true;
            deadline = deadline();
            key.interestOps(SelectionKey.OP_READ);
            return;
          }
          deadline = deadline();
        }
        answer = nextAnswer();
        if (answer == null) {
          key.interestOps(SelectionKey.OP_READ);
          return;
        }
        deadline = deadline();
      }
    }

    /** The answer to the request head read, or null while it is incomplete. */
    private ByteBuffer nextAnswer() {
      int end = RequestHead.end(head.array(), head.position());
      if (end < 0) {
        if (head.hasRemaining()) {
          return null;
        }
        closeAfterAnswer = true;
        return Response.error(431, "the request head is over " + limits.headBytes() + " bytes")
            .bytes(true, true);
      }
      try {
        RequestHead request = RequestHead.parse(head.array(), end);
        closeAfterAnswer = !request.keepAlive();
        return answer(request).bytes(!request.method().equals("HEAD"), closeAfterAnswer);
      } catch (RequestHead.Rejected e) {
        closeAfterAnswer = true;
        return Response.error(e.status(), e.getMessage()).bytes(true, true);
      } finally {
        head.flip().position(end);
        head.compact();
      }
    }

    /** The current step took too long: a client that sent part of a head is told why. */
    void timeOut() {
      if (answer == null && !lingering && head.position() > 0) {
        try {
          channel.write(
              Response.error(408, "no whole request head in " + limits.timeout().toMillis() + " ms")
                  .bytes(true, true));
        } catch (IOException e) {
          // closed below all the same
        }
      }
      close();
    }

    void close() {
      connections.remove(this);
      key.cancel();
      closeQuietly(channel);
    }
  }
}
