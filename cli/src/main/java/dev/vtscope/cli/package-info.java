/**
 * The command line: one class per subcommand, mixins for options that go together, one table of
 * exit codes and one place that turns errors into one-line messages. Commands read as load,
 * analyse, render; the work lives in {@code dev.vtscope.analysis} and {@code dev.vtscope.report}.
 */
package dev.vtscope.cli;
