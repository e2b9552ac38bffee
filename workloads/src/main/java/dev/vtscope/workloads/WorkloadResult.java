package dev.vtscope.workloads;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** What a workload measured, as named figures, and the published claim it is compared with. */
public final class WorkloadResult {

  private final String workload;
  private final String variant;
  private final Map<String, Object> figures = new LinkedHashMap<>();
  private String claim;

  public WorkloadResult(String workload, String variant) {
    this.workload = workload;
    this.variant = variant;
  }

  public WorkloadResult figure(String name, Object value) {
    figures.put(name, value);
    return this;
  }

  public WorkloadResult claim(String text) {
    this.claim = text;
    return this;
  }

  /** A few lines for people. */
  public String toText() {
    StringBuilder text = new StringBuilder();
    text.append(workload).append(" (").append(variant).append(")\n");
    figures.forEach(
        (k, v) -> text.append("  ").append(k).append(": ").append(format(v)).append('\n'));
    if (claim != null) {
      text.append("  claimed: ").append(claim).append('\n');
    }
    return text.toString();
  }

  /** One JSON object. */
  public String toJson() {
    StringBuilder json = new StringBuilder("{");
    json.append("\"workload\":").append(quote(workload));
    json.append(",\"variant\":").append(quote(variant));
    json.append(",\"figures\":{");
    boolean first = true;
    for (Map.Entry<String, Object> e : figures.entrySet()) {
      if (!first) {
        json.append(',');
      }
      first = false;
      json.append(quote(e.getKey())).append(':');
      Object v = e.getValue();
      json.append(
          v instanceof Number || v instanceof Boolean ? v.toString() : quote(String.valueOf(v)));
    }
    json.append('}');
    if (claim != null) {
      json.append(",\"claim\":").append(quote(claim));
    }
    return json.append('}').toString();
  }

  private static String format(Object value) {
    if (value instanceof Double d) {
      return String.format(Locale.ROOT, "%.1f", d);
    }
    return String.valueOf(value);
  }

  private static String quote(String s) {
    StringBuilder q = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> q.append("\\\"");
        case '\\' -> q.append("\\\\");
        case '\n' -> q.append("\\n");
        default -> {
          if (c < 0x20) {
            q.append(String.format("\\u%04x", (int) c));
          } else {
            q.append(c);
          }
        }
      }
    }
    return q.append('"').toString();
  }
}
