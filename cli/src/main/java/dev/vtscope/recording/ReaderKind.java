package dev.vtscope.recording;

/** The JFR readers vtscope has, as {@code --reader} names them. */
public enum ReaderKind {
  /** vtscope's own reader: parallel, bounded memory, reads chunks still being written. */
  VTSCOPE,
  /** The JDK's {@code jdk.jfr.consumer}, as a second opinion. */
  JDK;

  /** A new reader of this kind. */
  public RecordingReader create() {
    return this == JDK ? new JfrStreamReader() : new JfrFileReader();
  }
}
