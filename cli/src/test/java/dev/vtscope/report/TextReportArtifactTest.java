package dev.vtscope.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vtscope.attribution.Artifact;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.attribution.CulpritKind;
import dev.vtscope.attribution.Owner;
import org.junit.jupiter.api.Test;

/** The held-by line says where a library's name came from when it is not Maven coordinates. */
class TextReportArtifactTest {

  private static String heldBy(Artifact artifact) {
    return TextReport.culprit(
        new Culprit(
            "com.acme.jni.Native",
            "call",
            12,
            CulpritKind.NATIVE_METHOD,
            Owner.LIBRARY,
            artifact,
            null,
            0,
            null));
  }

  @Test
  void coordinatesStandAloneAndOtherNamesSayWhereTheyCameFrom() {
    assertThat(
            heldBy(
                new Artifact(
                    "com.acme:acme-jni",
                    "10.10.1.1",
                    Artifact.Source.MAVEN,
                    "acme-jni-10.10.1.1-linux64.jar")))
        .endsWith("(library, com.acme:acme-jni:10.10.1.1)");
    assertThat(
            heldBy(
                new Artifact(
                    "com.acme.jni",
                    "10.10.1.1",
                    Artifact.Source.MANIFEST,
                    "acme-jni.jar",
                    "Automatic-Module-Name")))
        .endsWith("(library, com.acme.jni:10.10.1.1 (jar manifest's Automatic-Module-Name))");
    assertThat(
            heldBy(
                new Artifact(
                    "acme-jni",
                    "10.10.1.1",
                    Artifact.Source.FILE_NAME,
                    "acme-jni-10.10.1.1-linux64.jar")))
        .endsWith("(library, acme-jni:10.10.1.1 (jar file name))");
  }
}
