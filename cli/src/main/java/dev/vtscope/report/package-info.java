/**
 * Renders an {@link dev.vtscope.analysis.Analysis}: text for people, JSON for dashboards and CI.
 * Renderers only format; nothing is computed while printing. May import the analysis and recording
 * records, Jackson and the JDK.
 */
package dev.vtscope.report;
