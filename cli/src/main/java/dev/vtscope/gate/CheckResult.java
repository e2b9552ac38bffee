package dev.vtscope.gate;

import java.util.List;

/**
 * The outcome of {@code vtscope check}.
 *
 * @param items everything checked, failures included
 * @param allowed one line per site or finding left out by the allow-list
 */
public record CheckResult(List<CheckItem> items, List<String> allowed) {

  public CheckResult {
    items = List.copyOf(items);
    allowed = List.copyOf(allowed);
  }

  public boolean passed() {
    return items.stream().allMatch(CheckItem::passed);
  }

  public long failures() {
    return items.stream().filter(i -> !i.passed()).count();
  }
}
