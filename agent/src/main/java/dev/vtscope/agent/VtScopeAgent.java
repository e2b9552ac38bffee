package dev.vtscope.agent;

import java.io.PrintStream;
import java.lang.instrument.Instrumentation;

/**
 * The entry point of {@code -javaagent:vtscope-agent.jar[=port=9464,...]}. It never stops the
 * service: an option it cannot use, a host that is not this machine's, a port in use or a JVM
 * without JFR is one line on standard error, and the service runs on without the agent.
 */
public final class VtScopeAgent {

  /** The class that tells whether the application has Micrometer. */
  private static final String MICROMETER_METRICS = "io.micrometer.core.instrument.Metrics";

  /** The class that tells whether the application has OpenTelemetry's API. */
  private static final String GLOBAL_OPEN_TELEMETRY = "io.opentelemetry.api.GlobalOpenTelemetry";

  private VtScopeAgent() {}

  /** Called by the JVM before {@code main} when started with {@code -javaagent}. */
  public static void premain(String args, Instrumentation instrumentation) {
    start(args);
  }

  /** Called when the agent is loaded into a running JVM (the Attach API's {@code loadAgent}). */
  public static void agentmain(String args, Instrumentation instrumentation) {
    start(args);
  }

  private static void start(String args) {
    PrintStream log = System.err;
    AgentOptions options;
    try {
      options = AgentOptions.parse(args);
    } catch (AgentOptions.BadOption e) {
      log.println("vtscope-agent: " + e.getMessage() + "; not started (see docs/metrics.md)");
      return;
    }
    // Off the main thread: JFR and the HTTP server start while the service starts.
    Thread starter = new Thread(() -> run(options, log), "vtscope-agent-start");
    starter.setDaemon(true);
    starter.start();
  }

  /**
   * Starts the endpoint and the analysis, saying on {@code log} that it serves or why it does not.
   * The address is bound first: a bad host or port is said before JFR starts.
   */
  static void run(AgentOptions options, PrintStream log) {
    MetricsEndpoint endpoint;
    try {
      endpoint =
          MetricsEndpoint.listen(options.host(), options.port(), MetricsEndpoint.Limits.DEFAULT);
    } catch (MetricsEndpoint.CannotListen e) {
      log.println(
          "vtscope-agent: "
              + e.getMessage()
              + "; not started: choose another with "
              + e.option()
              + "=");
      return;
    }
    ContinuousAnalysis analysis;
    try {
      analysis = ContinuousAnalysis.start(options, log);
    } catch (IllegalStateException e) {
      endpoint.close();
      log.println("vtscope-agent: " + e.getMessage() + "; not started");
      return;
    }
    endpoint.serve(analysis::metrics);
    log.println("vtscope-agent: serving OpenMetrics on " + endpoint.url());
    if (options.micrometer() && found(MICROMETER_METRICS)) {
      registerWithMicrometer(analysis, log);
    }
    if (options.openTelemetry() && found(GLOBAL_OPEN_TELEMETRY)) {
      registerWithOpenTelemetry(analysis, log);
    }
  }

  /**
   * Whether a library (Micrometer, OpenTelemetry) is on the application's class path, by one class
   * of it. Asked of the system class loader, the one that loads the agent and an application
   * started with {@code -cp}, without initialising the class.
   */
  private static boolean found(String className) {
    try {
      Class.forName(className, false, ClassLoader.getSystemClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * Registers the meters with the application's Micrometer. Called only once Micrometer is found,
   * so that {@link MicrometerMeters} and Micrometer's classes are loaded only then; a Micrometer
   * too old or otherwise unusable costs the meters, not the endpoint.
   */
  private static void registerWithMicrometer(ContinuousAnalysis analysis, PrintStream log) {
    try {
      analysis.onInterval(MicrometerMeters.registerGlobally(analysis.metrics(), log));
      log.println("vtscope-agent: registered with Micrometer's global registry");
    } catch (RuntimeException | LinkageError e) {
      log.println("vtscope-agent: cannot register with Micrometer (" + e + "); serving only");
    }
  }

  /**
   * Makes the instruments with the application's OpenTelemetry once it sets its global one, looked
   * at after each interval. Called only once OpenTelemetry's API is found, so that {@link
   * OpenTelemetryMeters} and OpenTelemetry's classes are loaded only then.
   */
  private static void registerWithOpenTelemetry(ContinuousAnalysis analysis, PrintStream log) {
    try {
      analysis.onInterval(OpenTelemetryMeters.onceSet(log));
    } catch (RuntimeException | LinkageError e) {
      log.println("vtscope-agent: cannot register with OpenTelemetry (" + e + "); serving only");
    }
  }
}
