package dev.vtscope.analysis;

import dev.vtscope.recording.RecordedStack;

/**
 * One thread of a running JVM's thread dump, its frames read as a recording's.
 *
 * @param tid its thread id
 * @param name its name
 * @param virtual whether it is a virtual thread, or null when the dump does not say (JDK 21)
 * @param state its {@link Thread.State} name, or null when the dump does not say (JDK 21)
 * @param carrier the id of the carrier it is mounted on, or -1 when not mounted or not known
 * @param stack its frames, innermost first; a dump gives no bytecode index, so a frame has only its
 *     line
 */
public record ThreadInDump(
    long tid, String name, Boolean virtual, String state, long carrier, RecordedStack stack) {}
