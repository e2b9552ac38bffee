package dev.vtscope.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The recordings the tests make say when other processes kept the machine busy: a workload recorded
 * while this JVM spins a thread on every CPU is seen so. (The tests that let a carrier monopoly
 * pass as a trace of load rely on it.)
 */
class MachineWasBusyTest {

  @Test
  void aRecordingMadeBesideABusyLoopOnEveryCpuSaysTheMachineWasBusy() throws Exception {
    AtomicBoolean spin = new AtomicBoolean(true);
    List<Thread> loops = new ArrayList<>();
    for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
      loops.add(
          Thread.ofPlatform()
              .daemon()
              .start(
                  () -> {
                    while (spin.get()) {
                      Thread.onSpinWait();
                    }
                  }));
    }
    Path recording;
    try {
      // a recording of a few seconds: several CPU load events, each over half a second
      recording =
          TestRecordings.recordWorkload(
              TestRecordings.jdk21Java(),
              List.of("jdk.VirtualThreadPinned#threshold=20ms"),
              List.of(),
              "sleep-fanout",
              "--tasks",
              "7",
              "--sleep",
              "2500ms");
    } finally {
      spin.set(false);
      for (Thread t : loops) {
        t.join();
      }
    }
    assertThat(TestRecordings.machineWasBusy(recording)).isTrue();
  }
}
