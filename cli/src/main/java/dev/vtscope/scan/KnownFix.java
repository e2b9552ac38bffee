package dev.vtscope.scan;

/**
 * What vtscope's knowledge says of the library a finding is in.
 *
 * @param library the library's name
 * @param knownPin whether the knowledge names this very method as one that pins
 * @param fixedIn the first release that no longer pins, or null when none does
 * @param lastAffected the last release that pins, or null
 * @param checkedUpTo with no fixed release, the newest release checked, or null
 * @param remedy what to do without the fixed release
 * @param source where it is stated
 */
public record KnownFix(
    String library,
    boolean knownPin,
    String fixedIn,
    String lastAffected,
    String checkedUpTo,
    String remedy,
    String source) {}
