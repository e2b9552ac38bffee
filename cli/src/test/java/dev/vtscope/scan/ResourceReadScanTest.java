package dev.vtscope.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.advice.Knowledge;
import dev.vtscope.attribution.BlockingKind;
import dev.vtscope.testing.GeneratedClasses;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code URL.openStream()} reads a socket or a file, as the URL says: one that a resource lookup
 * gave is a file of the class path, any other stays what the table of blocking calls says.
 */
class ResourceReadScanTest {

  @TempDir Path dir;

  private static final String SOURCE =
      """
      package p;
      import java.io.*;
      import java.net.URL;
      public class Versions {
        private URL configured;
        // straight from the lookup
        public synchronized InputStream direct() throws IOException {
          return Versions.class.getResource("/VERSION").openStream();
        }
        // through a local that takes either of two names' URL, checked for null
        public synchronized InputStream twoNames() throws IOException {
          URL url = Versions.class.getResource("/a.properties");
          if (url == null) {
            url = Thread.currentThread().getContextClassLoader().getResource("b.properties");
          }
          return url == null ? null : url.openStream();
        }
        public synchronized InputStream system() throws IOException {
          URL url = ClassLoader.getSystemResource("c.properties");
          return url.openStream();
        }
        // a URL given by the caller, or kept in a field, may be any URL
        public synchronized InputStream given(URL url) throws IOException {
          return url.openStream();
        }
        public synchronized InputStream field() throws IOException {
          return configured.openStream();
        }
        // a local that may also hold another URL
        public synchronized InputStream mixed(boolean remote) throws IOException {
          URL url = Versions.class.getResource("/d.properties");
          if (remote) {
            url = new URL("https://example.com/d.properties");
          }
          return url.openStream();
        }
      }
      """;

  @Test
  void aResourceLookupsUrlReadsAFileAnyOtherUrlASocket() {
    ScanResult r =
        new ClassPathScanner(Knowledge.standard(), 1)
            .scan(List.of(GeneratedClasses.compile(dir, Map.of("p.Versions", SOURCE))));
    Map<String, BlockingKind> kinds =
        r.findings().stream()
            .collect(
                java.util.stream.Collectors.toMap(ScanFinding::qualifiedMethod, f -> f.blocking()));
    assertThat(kinds)
        .containsEntry("p.Versions.direct", BlockingKind.FILE)
        .containsEntry("p.Versions.twoNames", BlockingKind.FILE)
        .containsEntry("p.Versions.system", BlockingKind.FILE)
        .containsEntry("p.Versions.given", BlockingKind.SOCKET)
        .containsEntry("p.Versions.field", BlockingKind.SOCKET)
        .containsEntry("p.Versions.mixed", BlockingKind.SOCKET);
  }
}
