/**
 * Small programs that reproduce documented virtual-thread scenarios, one class per scenario, each
 * with its fixed twin as a variant. They depend on nothing but the JDK, because vtscope runs them
 * in a child JVM under JFR.
 */
package dev.vtscope.workloads;
