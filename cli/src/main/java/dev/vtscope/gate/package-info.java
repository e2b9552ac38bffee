/**
 * CI gates: {@code vtscope check} (budgets and findings against an allow-list) and {@code vtscope
 * diff} (sites matched by culprit between two recordings).
 */
package dev.vtscope.gate;
