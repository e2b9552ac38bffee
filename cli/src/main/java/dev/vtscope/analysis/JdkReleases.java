package dev.vtscope.analysis;

/**
 * The JDK releases where virtual-thread behaviour changes, as {@code knowledge.json} states them
 * (its {@code jdk} section, which the command passes in). Nothing in the analysis names a release
 * number of its own.
 *
 * @param virtualThreadsPreviewIn the first release with virtual threads as a preview feature
 * @param virtualThreadsFinalIn the first release where they are final
 * @param monitorsStopPinningIn the first release where waiting on or in a monitor unmounts
 * @param pinnedReasonRecordedIn the first release whose pinned events record their reason
 */
public record JdkReleases(
    int virtualThreadsPreviewIn,
    int virtualThreadsFinalIn,
    int monitorsStopPinningIn,
    int pinnedReasonRecordedIn) {

  /**
   * The values knowledge.json ships with, for analyses made without it (tests, embedding code);
   * KnowledgeTest holds them equal to the file's.
   */
  public static final JdkReleases AS_SHIPPED = new JdkReleases(19, 21, 24, 24);

  /** Whether monitor enters and waits of virtual threads hold the carrier on {@code feature}. */
  public boolean monitorsHoldCarrier(int feature) {
    return feature == 0 || feature < monitorsStopPinningIn;
  }
}
