/**
 * The command line: one class per subcommand, mixins for options that go together, one table of
 * exit codes and one place that turns errors into one-line messages. Commands read as load,
 * analyse, advise, render; the work lives in the other packages.
 *
 * <p>May import: {@code dev.vtscope}, {@code picocli}, {@code org.jline}, {@code
 * com.fasterxml.jackson}, the JDK. Never: {@code jdk.jfr}.
 */
package dev.vtscope.cli;
