package dev.vtscope.threaddump;

/**
 * A monitor a thread holds.
 *
 * @param depth the index in the thread's stack of the frame that locked it
 * @param lock the monitor, or null when the JIT eliminated the lock
 */
public record HeldMonitor(int depth, ObjectRef lock) {}
