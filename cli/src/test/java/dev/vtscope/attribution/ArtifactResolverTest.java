package dev.vtscope.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A jar is named by its Maven metadata, else by the most stable manifest header it has, else by its
 * file name; never with the name or version repeated, never with a classifier in the version.
 */
class ArtifactResolverTest {

  @TempDir Path dir;

  /** A jar with {@code manifest} (none when null) and the given entries. */
  private Path jar(String name, Map<String, String> manifest, Map<String, String> entries)
      throws IOException {
    Path jar = dir.resolve(name);
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out =
            manifest == null ? new JarOutputStream(file) : withManifest(file, manifest)) {
      for (Map.Entry<String, String> e : entries.entrySet()) {
        out.putNextEntry(new ZipEntry(e.getKey()));
        out.write(e.getValue().getBytes(StandardCharsets.ISO_8859_1));
        out.closeEntry();
      }
    }
    return jar;
  }

  private static JarOutputStream withManifest(OutputStream file, Map<String, String> manifest)
      throws IOException {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.forEach((k, v) -> m.getMainAttributes().putValue(k, v));
    return new JarOutputStream(file, m);
  }

  private Path jar(String name, Map<String, String> manifest, String pomProperties)
      throws IOException {
    return jar(
        name,
        manifest,
        pomProperties == null
            ? Map.of()
            : Map.of("META-INF/maven/org.h2/h2/pom.properties", pomProperties));
  }

  private static String pom(String group, String artifact, String version) {
    return "groupId=" + group + "\nartifactId=" + artifact + "\nversion=" + version + "\n";
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
        resolver.resolve(jar("maven.jar", all, pom("com.h2database", "h2", "2.2.224")), "org.h2");
    assertThat(maven.display()).isEqualTo("com.h2database:h2:2.2.224");
    assertThat(maven.source()).isEqualTo(Artifact.Source.MAVEN);
    assertThat(maven.header()).isNull();

    Artifact bundle = resolver.resolve(jar("bundle.jar", all, (String) null), "org.h2");
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
                (String) null),
            "org.acme.driver");
    assertThat(module.display()).isEqualTo("org.acme.driver:2.7.4");
    assertThat(module.header()).isEqualTo("Automatic-Module-Name");

    Artifact title =
        resolver.resolve(
            jar(
                "title.jar",
                Map.of("Implementation-Title", "Acme Driver", "Implementation-Version", "1.0"),
                (String) null),
            "org.acme");
    assertThat(title.display()).isEqualTo("Acme Driver:1.0");
    assertThat(title.source()).isEqualTo(Artifact.Source.MANIFEST);
    assertThat(title.header()).isEqualTo("Implementation-Title");
  }

  @Test
  void aNativeJarIsNamedByItsPomPropertiesNotItsTitleNorItsClassifier() throws IOException {
    // as a JNI jar is published: the title repeats the version with the platform glued on
    Path jar =
        jar(
            "acme-jni-10.10.1.1-linux64.jar",
            Map.of(
                "Implementation-Title", "Acme JNI 10.10.1.1-linux64",
                "Implementation-Version", "10.10.1.1-linux64"),
            Map.of(
                "META-INF/maven/com.acme/acme-jni/pom.properties",
                pom("com.acme", "acme-jni", "10.10.1.1"),
                "lib/linux64/libacme.so",
                "\u007fELF"));

    Artifact artifact = new ArtifactResolver().resolve(jar, "com.acme.jni");

    assertThat(artifact.display()).isEqualTo("com.acme:acme-jni:10.10.1.1");
    assertThat(artifact.version()).isEqualTo("10.10.1.1");
    assertThat(artifact.source()).isEqualTo(Artifact.Source.MAVEN);
    assertThat(artifact.jar()).isEqualTo("acme-jni-10.10.1.1-linux64.jar");
  }

  @Test
  void withoutPomPropertiesANativeJarsTitleLosesTheVersionAndItsVersionTheClassifier()
      throws IOException {
    Path jar =
        jar(
            "acme-jni.jar",
            Map.of(
                "Implementation-Title", "Acme JNI 10.10.1.1-linux64",
                "Implementation-Version", "10.10.1.1-linux64"),
            Map.of());

    Artifact artifact = new ArtifactResolver().resolve(jar, "com.acme.jni");

    assertThat(artifact.display()).isEqualTo("Acme JNI:10.10.1.1");
    assertThat(artifact.header()).isEqualTo("Implementation-Title");
  }

  @Test
  void aPomPropertiesWithoutCoordinatesTakesThemFromItsPath() throws IOException {
    Path jar =
        jar(
            "acme-1.0.jar",
            Map.of(),
            Map.of("META-INF/maven/com.acme/acme/pom.properties", "version=1.0\n"));

    assertThat(new ArtifactResolver().resolve(jar, "com.acme").display())
        .isEqualTo("com.acme:acme:1.0");
  }

  @Test
  void aShadedJarIsTheArtifactItsFileNameCarriesElseTheGroupOfTheClassesPackage()
      throws IOException {
    Map<String, String> poms = new LinkedHashMap<>();
    poms.put(
        "META-INF/maven/org.slf4j/slf4j-api/pom.properties",
        pom("org.slf4j", "slf4j-api", "2.0.16"));
    poms.put(
        "META-INF/maven/com.acme/acme-shaded/pom.properties",
        pom("com.acme", "acme-shaded", "2.0"));
    poms.put(
        "META-INF/maven/com.acme.tools/acme-tools/pom.properties",
        pom("com.acme.tools", "acme-tools", "2.0"));

    Artifact named =
        new ArtifactResolver()
            .resolve(jar("acme-shaded-2.0.jar", Map.of(), poms), "org.slf4j.helpers");
    assertThat(named.display()).isEqualTo("com.acme:acme-shaded:2.0");

    // a file name that carries none of them: the longest group that prefixes the package
    ArtifactResolver resolver = new ArtifactResolver();
    Path app = jar("app.jar", Map.of(), poms);
    assertThat(resolver.resolve(app, "com.acme.tools.cli").display())
        .isEqualTo("com.acme.tools:acme-tools:2.0");
    assertThat(resolver.resolve(app, "com.acme.core").display())
        .isEqualTo("com.acme:acme-shaded:2.0");
    assertThat(resolver.resolve(app, "org.slf4j.helpers").display())
        .isEqualTo("org.slf4j:slf4j-api:2.0.16");
    // "com.acmeish" is not in group "com.acme"; none matches: the first by entry name
    assertThat(resolver.resolve(app, "com.acmeish").display())
        .isEqualTo("com.acme.tools:acme-tools:2.0");
  }

  /**
   * kafka-clients 4.4.0 bundles commons-net and carries its pom.properties alone: the jar is not
   * commons-net. A file name that carries another artifact says so, and the manifest or the file
   * name names the jar.
   */
  @Test
  void aJarWhosePomPropertiesAreOnlyOfWhatItBundlesIsNotNamedByThem() throws IOException {
    Path jar =
        jar(
            "kafka-clients-4.4.0.jar",
            Map.of(),
            Map.of(
                "META-INF/maven/commons-net/commons-net/pom.properties",
                pom("commons-net", "commons-net", "3.13.0")));
    ArtifactResolver resolver = new ArtifactResolver();
    Artifact kafka = resolver.resolve(jar, "org.apache.kafka.clients");
    assertThat(kafka.display()).isEqualTo("kafka-clients:4.4.0");
    assertThat(kafka.source()).isEqualTo(Artifact.Source.FILE_NAME);
    // commons-net's group is no package of its classes: they are named as the jar that holds them
    assertThat(resolver.resolve(jar, "org.apache.commons.net.ftp").display())
        .isEqualTo("kafka-clients:4.4.0");
    // the scan names a jar for no particular package
    assertThat(
            ArtifactResolver.identify(
                    "kafka-clients-4.4.0.jar",
                    Map.of(
                        "META-INF/maven/commons-net/commons-net/pom.properties",
                        pom("commons-net", "commons-net", "3.13.0")
                            .getBytes(StandardCharsets.ISO_8859_1)),
                    null)
                .display())
        .isEqualTo("kafka-clients:4.4.0");
  }

  /**
   * vtscope's own jar bundles its modules, one group: a class is of the module its package names.
   */
  @Test
  void ofSeveralModulesOfOneGroupTheOneThePackageNames() throws IOException {
    Map<String, String> poms = new LinkedHashMap<>();
    poms.put(
        "META-INF/maven/dev.vtscope/vtscope-cli/pom.properties",
        pom("dev.vtscope", "vtscope-cli", "0.1.0"));
    poms.put(
        "META-INF/maven/dev.vtscope/vtscope-workloads/pom.properties",
        pom("dev.vtscope", "vtscope-workloads", "0.1.0"));
    ArtifactResolver resolver = new ArtifactResolver();
    Path jar = jar("vtscope.jar", Map.of(), poms);
    assertThat(resolver.resolve(jar, "dev.vtscope.workloads").display())
        .isEqualTo("dev.vtscope:vtscope-workloads:0.1.0");
    // a package no module is named for: the first by entry name, as before
    assertThat(resolver.resolve(jar, "dev.vtscope.cli").display())
        .isEqualTo("dev.vtscope:vtscope-cli:0.1.0");
    assertThat(resolver.resolve(jar, "dev.vtscope.report").display())
        .isEqualTo("dev.vtscope:vtscope-cli:0.1.0");
  }

  @Test
  void anOsgiBundleIsNamedByItsSymbolicName() throws IOException {
    Path jar =
        jar(
            "bundle.jar",
            Map.of(
                "Bundle-SymbolicName", "org.acme.bundle;singleton:=true",
                "Bundle-Version", "3.1.0.v20240101",
                "Bundle-Name", "Acme Bundle"),
            Map.of());

    Artifact artifact = new ArtifactResolver().resolve(jar, "org.acme.bundle");

    assertThat(artifact.display()).isEqualTo("org.acme.bundle:3.1.0.v20240101");
    assertThat(artifact.header()).isEqualTo("Bundle-SymbolicName");
  }

  @Test
  void aBareJarIsNamedByItsFileNameWhenItCarriesAVersion() throws IOException {
    ArtifactResolver resolver = new ArtifactResolver();

    Artifact artifact =
        resolver.resolve(jar("foo-1.2.3-linux-x86_64.jar", null, Map.of()), "org.foo");
    assertThat(artifact.display()).isEqualTo("foo:1.2.3");
    assertThat(artifact.source()).isEqualTo(Artifact.Source.FILE_NAME);
    assertThat(artifact.header()).isNull();

    assertThat(resolver.resolve(jar("bare.jar", Map.of(), Map.of()), "x")).isNull();
  }

  @Test
  void aFileNameSplitsIntoArtifactVersionAndClassifier() {
    assertThat(JarFileName.parse("foo-1.2.3-linux-x86_64.jar"))
        .isEqualTo(new JarFileName("foo", "1.2.3", "linux-x86_64"));
    assertThat(JarFileName.parse("acme-jni-10.10.1.1-linux64.jar"))
        .isEqualTo(new JarFileName("acme-jni", "10.10.1.1", "linux64"));
    assertThat(JarFileName.parse("netty-transport-native-epoll-4.1.115.Final-linux-aarch_64.jar"))
        .isEqualTo(
            new JarFileName("netty-transport-native-epoll", "4.1.115.Final", "linux-aarch_64"));
    assertThat(JarFileName.parse("lwjgl-3.3.4-natives-windows.jar"))
        .isEqualTo(new JarFileName("lwjgl", "3.3.4", "natives-windows"));
    assertThat(JarFileName.parse("app-2.0-SNAPSHOT-sources.jar"))
        .isEqualTo(new JarFileName("app", "2.0-SNAPSHOT", "sources"));
    // version qualifiers stay in the version
    assertThat(JarFileName.parse("guava-33.3.1-jre.jar"))
        .isEqualTo(new JarFileName("guava", "33.3.1-jre", null));
    assertThat(JarFileName.parse("guava-33.3.1-android.jar").version()).isEqualTo("33.3.1-android");
    assertThat(JarFileName.parse("mssql-jdbc-12.2.0.jre11.jar"))
        .isEqualTo(new JarFileName("mssql-jdbc", "12.2.0.jre11", null));
    assertThat(JarFileName.parse("commons-lang3-3.14.0.jar"))
        .isEqualTo(new JarFileName("commons-lang3", "3.14.0", null));
    assertThat(JarFileName.parse("foo-2fa-1.0.jar").artifact()).isEqualTo("foo-2fa");
    assertThat(JarFileName.parse("app.jar")).isNull();
    assertThat(JarFileName.parse("app-core.jar")).isNull();
    assertThat(JarFileName.parse("classes")).isNull();
  }

  @Test
  void aManifestWithoutAVersionTakesTheOneInTheJarsFileName() throws IOException {
    ArtifactResolver resolver = new ArtifactResolver();
    // c3p0 0.10's manifest names its module and nothing else
    Artifact module =
        resolver.resolve(
            jar(
                "c3p0-0.10.2.jar",
                Map.of("Automatic-Module-Name", "com.mchange.v2.c3p0"),
                (String) null),
            "com.mchange.v2.c3p0");
    assertThat(module.display()).isEqualTo("com.mchange.v2.c3p0:0.10.2");
    // c3p0 0.9.5's names the extension and the version
    Artifact extension =
        resolver.resolve(
            jar(
                "c3p0-0.9.5.5.jar",
                Map.of(
                    "Extension-Name", "com.mchange.v2.c3p0", "Implementation-Version", "0.9.5.5"),
                (String) null),
            "com.mchange.v2.c3p0");
    assertThat(extension.display()).isEqualTo("com.mchange.v2.c3p0:0.9.5.5");
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
                (String) null),
            "org.apache.derby.client");
    assertThat(derby.display()).isEqualTo("derbyclient:10.16.1.1");
  }
}
