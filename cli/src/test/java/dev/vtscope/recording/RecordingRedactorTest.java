package dev.vtscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** File events are kept by redact only when the file they name says nothing of the machine. */
class RecordingRedactorTest {

  @Test
  void keepsOnlyRelativeFileNamesBelowTheWorkingFolder() {
    assertThat(RecordingRedactor.isRelativeBelow("carrier-monopoly123.tmp")).isTrue();
    assertThat(RecordingRedactor.isRelativeBelow("data/part-1.bin")).isTrue();
    assertThat(RecordingRedactor.isRelativeBelow("/tmp/secret.bin")).isFalse();
    assertThat(RecordingRedactor.isRelativeBelow("../home/user/x")).isFalse();
    assertThat(RecordingRedactor.isRelativeBelow("a/../../b")).isFalse();
    assertThat(RecordingRedactor.isRelativeBelow("~/notes.txt")).isFalse();
    assertThat(RecordingRedactor.isRelativeBelow("C:\\Users\\x")).isFalse();
    assertThat(RecordingRedactor.isRelativeBelow("\\\\server\\share")).isFalse();
    assertThat(RecordingRedactor.isRelativeBelow("")).isFalse();
    assertThat(RecordingRedactor.isRelativeBelow(null)).isFalse();
  }
}
