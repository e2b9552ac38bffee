package dev.vtscope.gate;

import dev.vtscope.analysis.Message;
import java.util.List;

/**
 * The outcome of {@code vtscope check}.
 *
 * @param items everything checked, failures included
 * @param allowed each site or finding left out by the allow-list, and the entry that allowed it
 * @param warnings what the analysis warns of that the checks rest on: a recording skipped as
 *     unreadable, one read in part, data dropped as damaged; a check must not look clean then
 */
public record CheckResult(List<CheckItem> items, List<Message> allowed, List<Message> warnings) {

  public CheckResult {
    items = List.copyOf(items);
    allowed = List.copyOf(allowed);
    warnings = List.copyOf(warnings);
  }

  public boolean passed() {
    return items.stream().allMatch(CheckItem::passed);
  }

  public long failures() {
    return items.stream().filter(i -> !i.passed()).count();
  }
}
