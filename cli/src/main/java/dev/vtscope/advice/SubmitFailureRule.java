package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
import dev.vtscope.analysis.Message;
import dev.vtscope.analysis.SubmitFailureGroup;
import dev.vtscope.recording.Frame;
import java.util.ArrayList;
import java.util.List;

/** The scheduler refused a task: a virtual thread could not start or continue. */
final class SubmitFailureRule implements Rule {

  static final String ID = "submit-failed";

  @Override
  public List<Finding> evaluate(Analysis a, Knowledge k) {
    List<Finding> findings = new ArrayList<>();
    for (SubmitFailureGroup g : a.submitFailed().groups()) {
      var meaning = k.submitFailure(g.example() != null ? g.example() : g.message());
      Frame where = g.stack().topApplicationFrame();
      List<Message> actions = new ArrayList<>();
      meaning.ifPresent(
          m -> actions.add(Message.of("submit-failed.action.known", "action", m.action())));
      if (meaning.isEmpty()) {
        actions.add(Message.of("submit-failed.action.unknown"));
      }
      actions.add(
          Message.of(
              "submit-failed.action.handle",
              "where",
              where == null
                  ? ""
                  : Message.of("submit-failed.action.handle.where", "frame", where)));
      findings.add(
          new Finding(
              ID,
              Severity.HIGH,
              Message.of(
                  "submit-failed.title",
                  "events",
                  g.events(),
                  "where",
                  where == null
                      ? ""
                      : Message.of(
                          "submit-failed.title.where", "startedAt", where.qualifiedMethod()),
                  "meaning",
                  meaning
                      .<Object>map(m -> Message.of("submit-failed.title.meaning", "id", m.id()))
                      .orElse("")),
              Message.of(
                  "submit-failed.explanation",
                  "meaning",
                  meaning.isPresent()
                      ? Message.of(
                          "submit-failed.explanation.known", "meaning", meaning.get().meaning())
                      : Message.of("submit-failed.explanation.unknown"),
                  "example",
                  g.example() == null
                      ? Message.of("submit-failed.explanation.no-message")
                      : g.example()),
              actions,
              List.of(
                  Evidence.count("rejected tasks", g.events(), "events"),
                  Evidence.count("virtual threads", g.virtualThreads(), "threads"),
                  Evidence.text("message", g.message() == null ? "(none)" : g.message())),
              k.jdk().virtualThreadsFinalIn() + "+",
              Facts.DOCS + ID,
              0,
              where == null ? List.of() : List.of(where.className()),
              List.of()));
    }
    return findings;
  }
}
