/**
 * vtscope's Java agent ({@code -javaagent:vtscope-agent.jar}): inside a service, it streams the
 * JVM's own events with vtscope's JFR settings, analyses them one interval at a time with the same
 * code as {@code vtscope analyze}, adds the intervals up as counters and serves them over HTTP in
 * the OpenMetrics format, for Prometheus or an OpenTelemetry collector to scrape ({@code
 * docs/metrics.md}); when the application has Micrometer or OpenTelemetry, it reports the same
 * counters there too.
 *
 * <p>May import: {@code dev.vtscope.analysis}, {@code dev.vtscope.advice}, {@code
 * dev.vtscope.metrics}, {@code dev.vtscope.recording}, {@code
 * dev.vtscope.report.OpenMetricsReport}, {@code dev.vtscope.report.OpenTelemetryNames}, {@code
 * dev.vtscope.report.Wording}, {@code io.micrometer.core.instrument} (in MicrometerMeters only,
 * provided by the application), {@code io.opentelemetry.api} (in OpenTelemetryMeters only, provided
 * by the application), the JDK. Never: {@code jdk.jfr} (the recording package streams events),
 * {@code dev.vtscope.cli}, {@code com.sun.net.httpserver} (it gives a slow client all the time it
 * likes; MetricsEndpoint says why).
 */
package dev.vtscope.agent;
