package dev.vtscope.analysis;

import dev.vtscope.attribution.Attribution;
import dev.vtscope.attribution.Attributor;
import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;

/** The groupings of {@link GroupBy}, for pinned and for monitor events. */
final class SiteGroupings {

  private SiteGroupings() {}

  static SiteCollector.Grouping pinned(GroupBy groupBy, Attributor attributor) {
    return new PinnedGrouping(groupBy, attributor);
  }

  static SiteCollector.Grouping monitors(GroupBy groupBy, Attributor attributor, boolean waits) {
    return new MonitorGrouping(groupBy, attributor, waits);
  }

  static SiteCollector.Grouping carrierWork(GroupBy groupBy, Attributor attributor) {
    return new CarrierWorkGrouping(groupBy, attributor);
  }

  /**
   * Groups carrier work (CPU runs, file I/O, compensated starts): the pinned-reason slot holds its
   * kind, so grouping by reason groups by kind.
   */
  record CarrierWorkGrouping(GroupBy groupBy, Attributor attributor)
      implements SiteCollector.Grouping {
    @Override
    public Attribution attribution(RecordedStack stack, String kind, String monitorClass) {
      return attributor.carrierWork(stack, kind);
    }

    @Override
    public String key(RecordedStack stack, String kind, Attribution attribution) {
      return switch (groupBy) {
        case CULPRIT -> attribution.groupingKey();
        case TOP_FRAME -> topFrameKey(stack);
        case STACK -> stackKey(stack);
        case REASON -> kind;
      };
    }
  }

  /** Groups pinned events; the culprit of each stack comes from the attribution rules. */
  record PinnedGrouping(GroupBy groupBy, Attributor attributor) implements SiteCollector.Grouping {
    @Override
    public Attribution attribution(RecordedStack stack, String reason, String monitorClass) {
      return attributor.pinned(stack, reason);
    }

    @Override
    public String key(RecordedStack stack, String reason, Attribution attribution) {
      return switch (groupBy) {
        case CULPRIT -> attribution.groupingKey();
        case STACK -> stackKey(stack);
        case TOP_FRAME -> topFrameKey(stack);
        // Before JDK 24 no reason is recorded: one group of everything would name one culprit
        // for all of it, so those pins are grouped by culprit (RecordingNotes says so).
        case REASON -> reason == null || reason.isEmpty() ? attribution.groupingKey() : reason;
      };
    }
  }

  /** Groups monitor events; they have no reason, so grouping by reason groups by stack. */
  record MonitorGrouping(GroupBy groupBy, Attributor attributor, boolean waits)
      implements SiteCollector.Grouping {
    @Override
    public Attribution attribution(RecordedStack stack, String reason, String monitorClass) {
      return attributor.monitor(stack, waits, monitorClass);
    }

    @Override
    public String key(RecordedStack stack, String reason, Attribution attribution) {
      return switch (groupBy) {
        case CULPRIT -> attribution.groupingKey();
        case TOP_FRAME -> topFrameKey(stack);
        case STACK, REASON -> stackKey(stack);
      };
    }
  }

  private static String stackKey(RecordedStack stack) {
    if (stack.frames().isEmpty()) {
      return "<no stack>";
    }
    StringBuilder key = new StringBuilder();
    for (Frame f : stack.frames()) {
      if (key.length() > 0) {
        key.append(" <- ");
      }
      key.append(frameText(f, true));
    }
    return key.toString();
  }

  /** By method, as {@code jfr view} does: the lines of one method are one site. */
  private static String topFrameKey(RecordedStack stack) {
    Frame top = stack.topApplicationFrame();
    return top == null ? "<no application frame>" : frameText(top, false);
  }

  /**
   * A frame in a key. In a whole stack a lambda's class is named without its address, which changes
   * from run to run (the frame below, {@code lambda$main$0}, tells lambdas apart); the top frame
   * keeps it, as {@code jfr view} does.
   */
  private static String frameText(Frame f, boolean withLine) {
    return (withLine ? Frame.stableClassName(f.className()) : f.className())
        + "."
        + f.method()
        + f.descriptor()
        + (withLine && f.line() >= 0 ? ":" + f.line() : "");
  }
}
