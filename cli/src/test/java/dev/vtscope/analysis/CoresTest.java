package dev.vtscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/** Work spread over the cores: every index once, and a failure thrown to the caller. */
class CoresTest {

  @Test
  void runsEveryIndexOnceOnTheCallerAndTheOtherCores() {
    int count = 10_000;
    AtomicIntegerArray runs = new AtomicIntegerArray(count);
    var threads = ConcurrentHashMap.<String>newKeySet();
    Cores.forEach(
        count,
        i -> {
          runs.incrementAndGet(i);
          threads.add(Thread.currentThread().getName());
        });
    for (int i = 0; i < count; i++) {
      assertThat(runs.get(i)).as("index %d", i).isEqualTo(1);
    }
    assertThat(threads).contains(Thread.currentThread().getName());
    assertThat(threads.size()).isLessThanOrEqualTo(Runtime.getRuntime().availableProcessors());
  }

  @Test
  void theFirstFailureOfATaskReachesTheCallerAsItWasThrownExceptionOrError() {
    for (Throwable thrown :
        new Throwable[] {new IllegalStateException("task 7 failed"), new StackOverflowError()}) {
      assertThatThrownBy(
              () ->
                  Cores.forEach(
                      100,
                      i -> {
                        if (i == 7 && thrown instanceof Error e) {
                          throw e;
                        }
                        if (i == 7) {
                          throw (RuntimeException) thrown;
                        }
                      }))
          .isSameAs(thrown);
    }
  }

  @Test
  void aStartedTaskRunsOnAnotherCoreAndItsResultOrFailureComesWhenAsked() {
    String caller = Thread.currentThread().getName();
    String ran = Cores.start(() -> Thread.currentThread().getName()).get();
    if (Runtime.getRuntime().availableProcessors() > 1) {
      assertThat(ran).isNotEqualTo(caller);
    } else {
      assertThat(ran).as("one core: run where it is started").isEqualTo(caller);
    }
    for (Throwable thrown :
        new Throwable[] {new IllegalStateException("the sweep failed"), new StackOverflowError()}) {
      var failing =
          Cores.start(
              () -> {
                if (thrown instanceof Error e) {
                  throw e;
                }
                throw (RuntimeException) thrown;
              });
      assertThatThrownBy(failing::get).isSameAs(thrown);
    }
  }
}
