package dev.vtscope.gate;

import dev.vtscope.advice.Finding;
import dev.vtscope.analysis.Message;

/**
 * One thing {@code vtscope check} checked, as data; the renderers word it.
 *
 * @param kind {@code recording} (whether the recordings can show pinning at all), {@code budget},
 *     {@code site} or {@code finding}
 * @param name what was checked, e.g. the budget {@code pinned total <= 500 ms}
 * @param passed whether it is within bounds
 * @param result the measured value and, when it failed, by how much
 * @param finding the finding that failed the check, whose explanation and actions say more; or null
 */
public record CheckItem(
    String kind, Message name, boolean passed, Message result, Finding finding) {}
