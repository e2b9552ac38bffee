package dev.vtscope.waits;

import static dev.vtscope.waits.Threads.VT_BOTTOM;
import static dev.vtscope.waits.Threads.dump;
import static dev.vtscope.waits.Threads.thread;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.attribution.FrameOwnership;
import dev.vtscope.threaddump.DumpedThread;
import dev.vtscope.threaddump.ThreadDump;
import dev.vtscope.threaddump.ThreadKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WaitSeriesTest {

  private static final WaitClassifier CLASSIFIER =
      new WaitClassifier(new FrameOwnership(List.of()));

  private static DumpedThread stuck(long tid) {
    return thread(
        tid,
        ThreadKind.VIRTUAL,
        "WAITING",
        null,
        "java.base/java.util.concurrent.locks.LockSupport.park(LockSupport.java:221)",
        "java.base/java.util.concurrent.locks.ReentrantLock.lock(ReentrantLock.java:322)",
        "com.acme.Ledger.post(Ledger.java:30)",
        VT_BOTTOM);
  }

  private static DumpedThread reading(long tid) {
    return thread(
        tid,
        ThreadKind.VIRTUAL,
        "WAITING",
        null,
        "java.base/sun.nio.ch.NioSocketImpl.read(NioSocketImpl.java:304)",
        "java.base/java.net.Socket$SocketInputStream.read(Socket.java:1099)",
        "com.acme.Client.fetch(Client.java:12)",
        VT_BOTTOM);
  }

  private static ThreadDump at(int second, List<DumpedThread> threads) {
    return dump(Instant.parse("2026-11-27T10:00:00Z").plusSeconds(second), threads);
  }

  @Test
  void theSameThreadsWaitingTheSameWayInEveryDumpAreStuckOthersMove() {
    List<DumpedThread> first =
        new ArrayList<>(List.of(stuck(1), stuck(2), reading(10), reading(11)));
    // thread 2 got its lock; the readers are new requests
    List<DumpedThread> second =
        new ArrayList<>(List.of(stuck(1), reading(12), reading(13), reading(14)));
    List<DumpedThread> third = new ArrayList<>(List.of(stuck(1), stuck(3), reading(15)));
    WaitSeries series =
        WaitSeries.of(List.of(at(0, first), at(5, second), at(10, third)), CLASSIFIER);
    assertThat(series.span()).isEqualTo(Duration.ofSeconds(10));
    assertThat(series.dumps()).hasSize(3);
    WaitSeries.Trend lock = series.groups().get(0);
    assertThat(lock.key().kind()).isEqualTo(WaitKind.LOCK);
    assertThat(lock.threads()).containsExactly(2, 1, 2);
    assertThat(lock.persistent()).isEqualTo(1);
    assertThat(lock.arrived()).isEqualTo(1);
    assertThat(lock.stuck()).isTrue();
    WaitSeries.Trend socket = series.groups().get(1);
    assertThat(socket.key().kind()).isEqualTo(WaitKind.SOCKET_IO);
    assertThat(socket.threads()).containsExactly(2, 3, 1);
    assertThat(socket.persistent()).isZero();
    assertThat(socket.arrived()).isEqualTo(1);
  }

  @Test
  void aThreadWhoseStackChangedIsNotStuckEvenWithTheSameKey() {
    DumpedThread before = stuck(1);
    DumpedThread after =
        thread(
            1,
            ThreadKind.VIRTUAL,
            "WAITING",
            null,
            "java.base/java.util.concurrent.locks.LockSupport.park(LockSupport.java:221)",
            "java.base/java.util.concurrent.locks.ReentrantLock.lock(ReentrantLock.java:322)",
            "com.acme.Ledger.post(Ledger.java:30)",
            "com.acme.Ledger.retry(Ledger.java:44)",
            VT_BOTTOM);
    WaitSeries series =
        WaitSeries.of(List.of(at(0, List.of(before)), at(1, List.of(after))), CLASSIFIER);
    assertThat(series.groups()).singleElement().satisfies(t -> assertThat(t.stuck()).isFalse());
  }

  @Test
  void groupsGoneByTheLastDumpComeAfterTheOthers() {
    WaitSeries series =
        WaitSeries.of(
            List.of(at(0, List.of(reading(1), reading(2))), at(1, List.of(stuck(3)))), CLASSIFIER);
    assertThat(series.groups())
        .extracting(t -> t.key().kind())
        .containsExactly(WaitKind.LOCK, WaitKind.SOCKET_IO);
    assertThat(series.groups().get(1).threads()).containsExactly(2, 0);
  }
}
