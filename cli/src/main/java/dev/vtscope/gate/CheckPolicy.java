package dev.vtscope.gate;

import dev.vtscope.advice.Severity;

/**
 * What {@code vtscope check} enforces; a null budget is not checked.
 *
 * @param maxPinnedTotalNanos the most pinned time allowed in total
 * @param maxPinnedEvents the most pinned events allowed
 * @param maxSiteTotalNanos the most pinned time allowed at any one site
 * @param failOn findings at or above this severity fail the check; null to ignore findings
 * @param allow sites and findings that are not counted
 */
public record CheckPolicy(
    Long maxPinnedTotalNanos,
    Long maxPinnedEvents,
    Long maxSiteTotalNanos,
    Severity failOn,
    AllowList allow) {}
