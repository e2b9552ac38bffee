package dev.vtscope.analysis;

/** How events are grouped into sites. */
public enum GroupBy {
  /**
   * Who holds the carrier: the synchronized method or block, native or foreign-function boundary,
   * or class initialiser (docs/attribution.md).
   */
  CULPRIT("culprit"),
  /** The whole stack trace: each distinct stack is a site. */
  STACK("stack"),
  /**
   * The first frame not loaded by the boot loader, as the JDK's {@code jfr view pinned-threads}
   * groups: where the thread waited, as seen from the application.
   */
  TOP_FRAME("top-frame"),
  /** The pinned reason JFR records on JDK 24 and later. */
  REASON("reason");

  private final String label;

  GroupBy(String label) {
    this.label = label;
  }

  /** The name users type and read, e.g. {@code top-frame}. */
  public String label() {
    return label;
  }
}
