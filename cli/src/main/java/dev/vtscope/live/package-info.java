/**
 * Running JVMs on this machine: lists the ones vtscope can attach to, with their JDK release, and
 * runs the JDK's diagnostic commands in them over the Attach API (what {@code jcmd} sends), to
 * start and stop vtscope's JFR recording under a name of its own and to find the JFR repository it
 * writes to, and takes thread dumps (the carriers pinned now, which no JFR event shows while the
 * pin lasts). Nothing here reads a recording.
 *
 * <p>May import: {@code com.sun.tools.attach}, {@code com.fasterxml.jackson}, the JDK. Never:
 * {@code jdk.jfr}.
 */
package dev.vtscope.live;
