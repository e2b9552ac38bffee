package dev.vtscope.scan;

import dev.vtscope.advice.Severity;
import dev.vtscope.attribution.BlockingKind;
import dev.vtscope.attribution.LineRange;
import java.util.List;

/**
 * A method of the class path that can pin a virtual thread's carrier.
 *
 * @param severity the risk, from the score
 * @param score the risk score: the block's weight, less for each call between the monitor and the
 *     block and for a virtual call the scan had to guess; higher is worse
 * @param kind what holds the carrier
 * @param artifact the artifact of the class, as its jar names it
 * @param location the jar or folder the class was read from
 * @param release for a multi-release jar's variant, the release from which it is loaded; else 0
 * @param className the class, binary name with dots
 * @param method the method's name
 * @param descriptor its descriptor
 * @param lines the lines of the {@code synchronized} block, or of the method, or null
 * @param chain the calls from the method to the blocking one: the method first (with the line of
 *     its call), the blocking JDK method last; empty for a native method
 * @param blocking how the chain's last call blocks, or null for a native method
 * @param releases the JDK releases on which it pins
 * @param waitersPinnedUpTo for a class initialiser, the last release on which the threads waiting
 *     for it wait pinned too; else 0
 * @param fix what vtscope's knowledge says of the library, or null when it has no entry for it
 * @param demotion why no virtual thread runs the method (severity info, listed after the ranked
 *     findings), or null
 */
public record ScanFinding(
    Severity severity,
    int score,
    FindingKind kind,
    String artifact,
    String location,
    int release,
    String className,
    String method,
    String descriptor,
    LineRange lines,
    List<ChainStep> chain,
    BlockingKind blocking,
    Releases releases,
    int waitersPinnedUpTo,
    KnownFix fix,
    Demotion demotion) {

  public ScanFinding {
    chain = List.copyOf(chain);
  }

  /** {@code a.b.C.m}. */
  public String qualifiedMethod() {
    return className + "." + method;
  }

  /** Whether the chain passes through a virtual call the scan guessed the target of. */
  public boolean virtual() {
    return chain.stream().anyMatch(ChainStep::virtual);
  }
}
