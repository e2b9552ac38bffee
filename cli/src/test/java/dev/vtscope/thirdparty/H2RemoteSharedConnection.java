package dev.vtscope.thirdparty;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.Executors;
import org.h2.tools.Server;

/**
 * Virtual threads share one connection to an H2 1.4 TCP server (started here) and run a query whose
 * function is slow on the server. H2's client holds a monitor of its session while it sends the
 * command and reads the reply, so on JDK 21-23 the client's socket read pins the carrier
 * (jdk.VirtualThreadPinned, finding monitor-pinning on CommandRemote.executeQuery); on JDK 24+ it
 * unmounts. Args: the number of queries.
 */
public final class H2RemoteSharedConnection {

  private H2RemoteSharedConnection() {}

  /** Called by the server as the SQL function SLOW_STOCK: a slow query, seen from the client. */
  public static int slowStock(int id) throws InterruptedException {
    Thread.sleep(5);
    return id;
  }

  public static void main(String[] args) throws Exception {
    int queries = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    Server server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
    try (Connection connection =
        DriverManager.getConnection("jdbc:h2:tcp://localhost:" + server.getPort() + "/mem:stock")) {
      try (Statement s = connection.createStatement()) {
        s.execute(
            "CREATE ALIAS SLOW_STOCK FOR"
                + " \"dev.vtscope.thirdparty.H2RemoteSharedConnection.slowStock\"");
      }
      try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
        for (int i = 0; i < queries; i++) {
          int id = i;
          executor.submit(() -> checkStock(connection, id));
        }
      }
    } finally {
      server.stop();
    }
  }

  static int checkStock(Connection connection, int id) throws Exception {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT SLOW_STOCK(" + id + ")")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
