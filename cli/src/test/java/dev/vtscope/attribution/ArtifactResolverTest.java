package dev.vtscope.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A jar is named by its Maven metadata, else by the most stable manifest header it has. */
class ArtifactResolverTest {

  @TempDir Path dir;

  private Path jar(String name, Map<String, String> manifest, String pomProperties)
      throws IOException {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.forEach((k, v) -> m.getMainAttributes().putValue(k, v));
    Path jar = dir.resolve(name);
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, m)) {
      if (pomProperties != null) {
        out.putNextEntry(new ZipEntry("META-INF/maven/org.h2/h2/pom.properties"));
        out.write(pomProperties.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        out.closeEntry();
      }
    }
    return jar;
  }

  @Test
  void mavenCoordinatesFirstThenBundleThenModuleThenTitle() throws IOException {
    Map<String, String> all =
        Map.of(
            "Implementation-Title", "Standard runtime",
            "Implementation-Version", "2.7.4",
            "Bundle-SymbolicName", "org.h2;singleton:=true",
            "Bundle-Version", "2.2.224",
            "Automatic-Module-Name", "com.h2database");
    ArtifactResolver resolver = new ArtifactResolver();

    Artifact maven =
        resolver.resolve(
            jar("maven.jar", all, "groupId=com.h2database\nartifactId=h2\nversion=2.2.224\n"),
            "org.h2");
    assertThat(maven.display()).isEqualTo("com.h2database:h2:2.2.224");
    assertThat(maven.header()).isNull();

    Artifact bundle = resolver.resolve(jar("bundle.jar", all, null), "org.h2");
    assertThat(bundle.name()).isEqualTo("org.h2");
    assertThat(bundle.version()).isEqualTo("2.2.224");
    assertThat(bundle.header()).isEqualTo("Bundle-SymbolicName");

    Artifact module =
        resolver.resolve(
            jar(
                "module.jar",
                Map.of(
                    "Implementation-Title", "Standard runtime",
                    "Implementation-Version", "2.7.4",
                    "Automatic-Module-Name", "org.acme.driver"),
                null),
            "org.acme.driver");
    assertThat(module.display()).isEqualTo("org.acme.driver 2.7.4");
    assertThat(module.header()).isEqualTo("Automatic-Module-Name");

    Artifact title =
        resolver.resolve(
            jar(
                "title.jar",
                Map.of("Implementation-Title", "Acme Driver", "Implementation-Version", "1.0"),
                null),
            "org.acme");
    assertThat(title.display()).isEqualTo("Acme Driver 1.0");
    assertThat(title.header()).isEqualTo("Implementation-Title");

    assertThat(resolver.resolve(jar("bare.jar", Map.of(), null), "x")).isNull();
  }

  @Test
  void aManifestWithoutAVersionTakesTheOneInTheJarsFileName() throws IOException {
    ArtifactResolver resolver = new ArtifactResolver();
    // c3p0 0.10's manifest names its module and nothing else
    Artifact module =
        resolver.resolve(
            jar("c3p0-0.10.2.jar", Map.of("Automatic-Module-Name", "com.mchange.v2.c3p0"), null),
            "com.mchange.v2.c3p0");
    assertThat(module.display()).isEqualTo("com.mchange.v2.c3p0 0.10.2");
    // c3p0 0.9.5's names the extension and the version
    Artifact extension =
        resolver.resolve(
            jar(
                "c3p0-0.9.5.5.jar",
                Map.of(
                    "Extension-Name", "com.mchange.v2.c3p0", "Implementation-Version", "0.9.5.5"),
                null),
            "com.mchange.v2.c3p0");
    assertThat(extension.display()).isEqualTo("com.mchange.v2.c3p0 0.9.5.5");
    assertThat(extension.header()).isEqualTo("Extension-Name");

    // Derby's bundle version is encoded for OSGi; the file name says the release
    Artifact derby =
        resolver.resolve(
            jar(
                "derbyclient-10.16.1.1.jar",
                Map.of(
                    "Bundle-SymbolicName", "derbyclient",
                    "Bundle-Version", "10.16.1000001.1901046",
                    "Implementation-Version", "10.16.1.1 - (1901046)"),
                null),
            "org.apache.derby.client");
    assertThat(derby.display()).isEqualTo("derbyclient 10.16.1.1");

    assertThat(ArtifactResolver.versionInFileName("ojdbc8-19.29.0.0.jar")).isEqualTo("19.29.0.0");
    assertThat(ArtifactResolver.versionInFileName("guava-33.3.1-jre.jar")).isEqualTo("33.3.1-jre");
    assertThat(ArtifactResolver.versionInFileName("mssql-jdbc-12.2.0.jre11.jar"))
        .isEqualTo("12.2.0.jre11");
    assertThat(ArtifactResolver.versionInFileName("app.jar")).isNull();
    assertThat(ArtifactResolver.versionInFileName("app-core.jar")).isNull();
  }
}
