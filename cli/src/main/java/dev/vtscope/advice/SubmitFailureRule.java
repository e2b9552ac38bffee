package dev.vtscope.advice;

import dev.vtscope.analysis.Analysis;
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
      List<String> actions = new ArrayList<>();
      meaning.ifPresent(m -> actions.add(m.action()));
      if (meaning.isEmpty()) {
        actions.add(
            "Read the message: the scheduler that runs these virtual threads refused them. Check"
                + " its lifecycle (shut down too early?) and its capacity (a bounded queue?).");
      }
      actions.add(
          "The code that started or woke the threads"
              + (where == null ? "" : " (" + where.display() + ")")
              + " got a RejectedExecutionException: handle it, or the work is lost.");
      findings.add(
          new Finding(
              ID,
              Severity.HIGH,
              "The scheduler rejected "
                  + Facts.plural(g.events(), "virtual-thread task")
                  + (where == null ? "" : " started at " + where.qualifiedMethod())
                  + meaning.map(m -> ": " + m.id()).orElse(""),
              (meaning.isPresent()
                      ? "This means " + meaning.get().meaning() + ". "
                      : "The reason is not one vtscope knows. ")
                  + "Message: "
                  + (g.example() == null ? "(none recorded)" : g.example()),
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
