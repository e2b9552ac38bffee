/**
 * CI gates: {@code vtscope check} (budgets and findings against an allow-list) and {@code vtscope
 * diff} (sites matched by culprit between two recordings). Their results are data; the {@code
 * report} package words and formats them.
 *
 * <p>May import: {@code dev.vtscope.analysis}, {@code dev.vtscope.advice}, {@code
 * dev.vtscope.attribution}, {@code dev.vtscope.recording}, the JDK. Never: {@code jdk.jfr}.
 */
package dev.vtscope.gate;
