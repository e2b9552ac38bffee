package dev.vtscope.thirdparty;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.Executors;

/**
 * Virtual threads share one connection to an embedded H2 1.4 database and run a query that calls a
 * slow function. H2 runs each command while holding a monitor of the session, so on JDK 21 the slow
 * function pins the carrier; the frame where the thread waited is this program's function.
 */
public final class H2SharedConnection {

  private H2SharedConnection() {}

  /** Called by H2 as the SQL function SLOW_LOOKUP: blocks like a remote lookup. */
  public static int slowLookup(int id) throws InterruptedException {
    Thread.sleep(5);
    return id;
  }

  public static void main(String[] args) throws Exception {
    int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    try (Connection connection = DriverManager.getConnection("jdbc:h2:mem:shop")) {
      try (Statement s = connection.createStatement()) {
        s.execute(
            "CREATE ALIAS SLOW_LOOKUP FOR \"dev.vtscope.thirdparty.H2SharedConnection.slowLookup\"");
      }
      try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
        for (int i = 0; i < tasks; i++) {
          int id = i;
          executor.submit(() -> lookUp(connection, id));
        }
      }
    }
  }

  static int lookUp(Connection connection, int id) throws Exception {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT SLOW_LOOKUP(" + id + ")")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
