package dev.vtscope.thirdparty;

import com.mchange.v2.c3p0.ComboPooledDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executors;

/**
 * Virtual threads borrow connections from a c3p0 pool of two over an in-memory H2 database and hold
 * each for a few milliseconds. Up to 0.10.2, a checkout that finds no free connection waits with
 * Object.wait inside the pool's synchronized BasicResourcePool.prelimCheckoutResource: on JDK 21-23
 * that keeps the carrier (jdk.JavaMonitorWait events of virtual threads, no pinned event) and the
 * scheduler starts carriers to compensate (finding carrier-compensation); on JDK 24+ the wait
 * unmounts. Args: the number of borrowers.
 */
public final class C3p0CheckoutWait {

  private C3p0CheckoutWait() {}

  public static void main(String[] args) throws Exception {
    int borrowers = args.length > 0 ? Integer.parseInt(args[0]) : 24;
    System.setProperty("com.mchange.v2.log.MLog", "com.mchange.v2.log.FallbackMLog");
    System.setProperty("com.mchange.v2.log.FallbackMLog.DEFAULT_CUTOFF_LEVEL", "WARNING");
    ComboPooledDataSource pool = new ComboPooledDataSource();
    try {
      pool.setJdbcUrl("jdbc:h2:mem:orders;DB_CLOSE_DELAY=-1");
      pool.setInitialPoolSize(2);
      pool.setMinPoolSize(2);
      pool.setMaxPoolSize(2);
      // A borrower gives up rather than wait forever: the program cannot stall.
      pool.setCheckoutTimeout(10_000);
      // The first checkout builds the pool under the data source's monitor: done here, so that
      // the borrowers wait only for connections.
      pool.getConnection().close();
      try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
        for (int i = 0; i < borrowers; i++) {
          executor.submit(() -> placeOrder(pool));
        }
      }
    } finally {
      pool.close();
    }
  }

  static Void placeOrder(ComboPooledDataSource pool) throws SQLException, InterruptedException {
    try (Connection connection = pool.getConnection()) {
      Thread.sleep(5); // the order's work, while the connection is borrowed
      return null;
    }
  }
}
