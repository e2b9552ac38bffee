package dev.vtscope.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.testing.TestRecordings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The table of JDK 21 blocks vtscope ships agrees with the class files of the JDK 21 the tests run
 * with (one of the updates it was made from): every block it lists is there, at the same bytecode
 * indexes, and its classes' other methods have none.
 */
class JdkMonitorTableTest {

  @Test
  void everyBlockOfTheTableIsInTheInstalledJdk21() {
    JdkMonitorTable table = JdkMonitorTable.of(21).orElseThrow();
    assertThat(table.updates()).hasSizeGreaterThanOrEqualTo(3).allMatch(u -> u.startsWith("21."));
    Path home = TestRecordings.jdk21Java().getParent().getParent();
    JdkImage jdk = JdkImage.at(home).orElseThrow();
    assertThat(table.updates()).contains(jdk.version());

    List<String> differences = new ArrayList<>();
    int blocks = 0;
    for (Map.Entry<String, Map<String, List<SynchronizedBlockLocator.Region>>> c :
        table.blocks().entrySet()) {
      byte[] bytes = jdk.find(c.getKey()).orElse(null);
      if (bytes == null) {
        differences.add(c.getKey() + " is not in " + home);
        continue;
      }
      SynchronizedBlockLocator real = new SynchronizedBlockLocator(bytes);
      for (Map.Entry<String, List<SynchronizedBlockLocator.Region>> m : c.getValue().entrySet()) {
        blocks += m.getValue().size();
        if (!real.regions(m.getKey()).equals(m.getValue())) {
          differences.add(c.getKey() + "." + m.getKey());
        }
      }
    }
    jdk.close();
    assertThat(differences).isEmpty();
    assertThat(blocks).isGreaterThan(2000);
    // the JDK code virtual threads reach most: ConcurrentHashMap.compute holds the bin's monitor
    assertThat(
            table
                .locator("java.util.concurrent.ConcurrentHashMap")
                .orElseThrow()
                .regions(
                    "compute(Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;"))
        .isNotEmpty();
    assertThat(table.locator("com.example.NotTheJdk")).isEmpty();
  }
}
