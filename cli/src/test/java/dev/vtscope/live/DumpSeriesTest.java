package dev.vtscope.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.waits.SchedulerLimits;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * What {@code vtscope dump} reads of a running JVM's scheduler beside its dumps, and keeps with
 * them: lines of a JDK 21 JVM's {@code jcmd PID VM.info}, and the kept properties read back.
 */
class DumpSeriesTest {

  @Test
  void theActiveProcessorsAreTheCpuLinesInitialActiveCount() {
    String info =
        "Host: AMD EPYC, 2 cores, 23G, Ubuntu 22.04.4 LTS\n"
            + "CPU: total 8 (initial active 2) (2 cores per cpu, 1 threads per core) family 25\n";
    assertThat(DumpSeries.activeProcessors(info)).isEqualTo(2);
  }

  @Test
  void aContainersActiveProcessorCountServesWhenTheCpuLineIsMissing() {
    String info =
        "container (cgroup) information:\ncontainer_type: cgroupv1\n"
            + "active_processor_count: 3\ncpu_quota: no quota\n";
    assertThat(DumpSeries.activeProcessors(info)).isEqualTo(3);
    assertThat(DumpSeries.activeProcessors("Failed: no such command")).isZero();
  }

  @Test
  void theKeptSchedulerReadsBackAndAnOlderFileKeptNone() {
    Properties kept = new Properties();
    kept.setProperty("java.class.path", "app.jar");
    assertThat(DumpSeries.keptScheduler(kept)).isEqualTo(SchedulerLimits.UNKNOWN);
    kept.setProperty("jdk.virtualThreadScheduler.parallelism", "2");
    kept.setProperty("jdk.virtualThreadScheduler.maxPoolSize", "256");
    assertThat(DumpSeries.keptScheduler(kept)).isEqualTo(new SchedulerLimits(2, 256));
    kept.setProperty("jdk.virtualThreadScheduler.maxPoolSize", "many");
    assertThat(DumpSeries.keptScheduler(kept)).isEqualTo(new SchedulerLimits(2, 0));
  }
}
