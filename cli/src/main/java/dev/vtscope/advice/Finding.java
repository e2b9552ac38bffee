package dev.vtscope.advice;

import dev.vtscope.analysis.Message;
import java.util.List;

/**
 * One piece of advice, computed from one recording, as data: what was found, how severe, the
 * figures and frames it rests on.
 *
 * @param id the rule's stable identifier, e.g. {@code monitor-pinning} (docs/findings.md)
 * @param severity how much it matters
 * @param title one line naming the problem and its place
 * @param explanation why it matters, with this recording's numbers
 * @param actions what to do, most effective first; the wording of all three lives with the
 *     renderers ({@code dev.vtscope.report.Wording})
 * @param evidence the figures it rests on
 * @param jdks the JDK releases where the problem exists, e.g. {@code 21-23} or {@code 21+}
 * @param documentation where the finding is explained, relative to vtscope's folder
 * @param carrierNanos the carrier time at stake, which ranks findings
 * @param classes the classes it blames, which {@code vtscope check --allow} matches
 * @param methods the methods it blames ({@code Class.method}), of those classes, when it is about
 *     one place in them; an {@code --allow} entry of each such method allows it too. Empty when it
 *     blames whole classes.
 * @param notes ids of the report's notes that this finding says again, with advice
 * @param spread of a report of several recordings, which of them have it and whose figures it
 *     shows; null for one recording
 */
public record Finding(
    String id,
    Severity severity,
    Message title,
    Message explanation,
    List<Message> actions,
    List<Evidence> evidence,
    String jdks,
    String documentation,
    long carrierNanos,
    List<String> classes,
    List<String> methods,
    List<String> notes,
    Spread spread) {

  public Finding {
    actions = List.copyOf(actions);
    evidence = List.copyOf(evidence);
    classes = List.copyOf(classes);
    methods = List.copyOf(methods);
    notes = List.copyOf(notes);
  }

  /** A finding of one recording. */
  public Finding(
      String id,
      Severity severity,
      Message title,
      Message explanation,
      List<Message> actions,
      List<Evidence> evidence,
      String jdks,
      String documentation,
      long carrierNanos,
      List<String> classes,
      List<String> methods,
      List<String> notes) {
    this(
        id,
        severity,
        title,
        explanation,
        actions,
        evidence,
        jdks,
        documentation,
        carrierNanos,
        classes,
        methods,
        notes,
        null);
  }

  /** The same finding, of a report of several recordings, with which of them have it. */
  public Finding withSpread(Spread spread) {
    return new Finding(
        id,
        severity,
        title,
        explanation,
        actions,
        evidence,
        jdks,
        documentation,
        carrierNanos,
        classes,
        methods,
        notes,
        spread);
  }

  /** A finding that blames whole classes, or none. */
  public Finding(
      String id,
      Severity severity,
      Message title,
      Message explanation,
      List<Message> actions,
      List<Evidence> evidence,
      String jdks,
      String documentation,
      long carrierNanos,
      List<String> classes,
      List<String> notes) {
    this(
        id,
        severity,
        title,
        explanation,
        actions,
        evidence,
        jdks,
        documentation,
        carrierNanos,
        classes,
        List.of(),
        notes);
  }

  /** Whether this is the verdict that nothing needs changing, rather than a problem. */
  public boolean healthy() {
    return HealthyRule.ID.equals(id);
  }
}
