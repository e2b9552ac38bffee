package dev.vtscope.metrics;

import dev.vtscope.analysis.Site;
import dev.vtscope.attribution.Culprit;
import dev.vtscope.recording.Frame;
import java.util.Locale;

/**
 * The pinned time and events of one holder: a series of labels, as a monitoring system stores it.
 *
 * @param holder who holds the carrier
 * @param events pinned events
 * @param nanos their pinned time
 */
public record SiteSeries(Holder holder, long events, long nanos) {

  /**
   * The labels of a series: sites with the same holder (the same method, kind and artifact, with
   * different lines or stacks) are one series.
   *
   * @param className the holder's class, or {@code other} for the series of every other holder
   * @param method the holder's method, or empty
   * @param kind the culprit's kind in lower case ({@code synchronized_method}), or {@code other}
   * @param artifact the library that holds the carrier ({@code group:artifact:version}), or empty
   */
  public record Holder(String className, String method, String kind, String artifact) {

    /** The series of the holders beyond the limit. */
    public static final Holder OTHER = new Holder("other", "", "other", "");

    /** The holder of a site, as labels. */
    public static Holder of(Site site) {
      Culprit c = site.attribution().culprit();
      return new Holder(
          Frame.stableClassName(c.className()),
          c.method(),
          c.kind().name().toLowerCase(Locale.ROOT),
          c.artifact() == null ? "" : c.artifact().display());
    }
  }

  SiteSeries plus(long moreEvents, long moreNanos) {
    return new SiteSeries(holder, events + moreEvents, nanos + moreNanos);
  }
}
