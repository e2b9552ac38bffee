package dev.vtscope.analysis;

import dev.vtscope.recording.JvmFacts;

/**
 * One analysed recording, as the report lists it.
 *
 * @param name the path the user gave
 * @param files how many files it has (more than one for a JFR repository folder)
 * @param chunks chunks read
 * @param startNanos start of its first chunk, nanoseconds since the epoch
 * @param durationNanos from the start of its first chunk to the end of its last
 * @param jvm the JVM that wrote it, or null when the recording does not say
 * @param cpus CPUs the JVM saw (container limit first), or 0 when unknown
 * @param problem why reading stopped early, or null when it was read to the end
 * @param readNotes what the reader says about what it read (a chunk still being written read up to
 *     its last flush, references to missing constants), in the order found
 * @param figures what belongs to this recording alone (its scheduler, settings, carriers held at
 *     once), or null before its analysis made them
 */
public record InputFacts(
    String name,
    int files,
    int chunks,
    long startNanos,
    long durationNanos,
    JvmFacts jvm,
    int cpus,
    String problem,
    java.util.List<String> readNotes,
    RecordingFigures figures) {

  public InputFacts {
    readNotes = java.util.List.copyOf(readNotes);
  }

  /** An input whose own figures are not made yet. */
  public InputFacts(
      String name,
      int files,
      int chunks,
      long startNanos,
      long durationNanos,
      JvmFacts jvm,
      int cpus,
      String problem,
      java.util.List<String> readNotes) {
    this(name, files, chunks, startNanos, durationNanos, jvm, cpus, problem, readNotes, null);
  }

  /** This input with its own figures. */
  InputFacts withFigures(RecordingFigures figures) {
    return new InputFacts(
        name, files, chunks, startNanos, durationNanos, jvm, cpus, problem, readNotes, figures);
  }
}
