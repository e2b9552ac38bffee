package dev.vtscope.gate;

/**
 * One thing {@code vtscope check} checked.
 *
 * @param kind {@code budget}, {@code site} or {@code finding}
 * @param name what was checked, e.g. {@code pinned total <= 500 ms}
 * @param passed whether it is within bounds
 * @param message the measured value and, when it failed, by how much
 * @param detail more text for a failure (a finding's explanation), or null
 */
public record CheckItem(String kind, String name, boolean passed, String message, String detail) {}
