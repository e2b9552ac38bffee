package dev.vtscope.threaddump;

/**
 * What a dump can tell, from the fields and lines present in it, never from the JDK's version
 * alone: backports and vendors' builds differ.
 *
 * @param virtualMarked whether it says which threads are virtual (JSON of JDK 25+, the plain text's
 *     {@code virtual}); when not, only a stack ending in {@code VirtualThread.run} tells
 * @param statesGiven whether it gives threads' states (JSON and plain text of JDK 25+, {@code
 *     Thread.print} for platform threads)
 * @param carriersGiven whether it names the carrier of mounted virtual threads (JSON of JDK 25+,
 *     {@code Thread.print}'s {@code Carrying virtual thread #N})
 * @param locksGiven whether it names locks waited for and held (JSON and plain text of JDK 25+,
 *     {@code Thread.print}'s lock lines)
 * @param lockOwnersGiven whether it names who owns {@code java.util.concurrent} locks ({@code
 *     parkBlocker.owner} of JDK 26+, {@code Thread.print -l} for platform owners)
 * @param mountedStacksPrinted whether {@code Thread.print} printed the frames of mounted virtual
 *     threads ({@code Mounted virtual thread #N}, JDK 25)
 */
public record DumpFacts(
    boolean virtualMarked,
    boolean statesGiven,
    boolean carriersGiven,
    boolean locksGiven,
    boolean lockOwnersGiven,
    boolean mountedStacksPrinted) {

  /** A dump that says none of these. */
  public static final DumpFacts NONE = new DumpFacts(false, false, false, false, false, false);

  /** What either of two dumps of one moment tells. */
  public DumpFacts or(DumpFacts other) {
    return new DumpFacts(
        virtualMarked || other.virtualMarked,
        statesGiven || other.statesGiven,
        carriersGiven || other.carriersGiven,
        locksGiven || other.locksGiven,
        lockOwnersGiven || other.lockOwnersGiven,
        mountedStacksPrinted || other.mountedStacksPrinted);
  }
}
