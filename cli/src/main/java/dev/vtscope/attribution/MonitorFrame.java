package dev.vtscope.attribution;

/**
 * A frame that holds a monitor.
 *
 * @param frameIndex its index in the stack
 * @param kind {@link CulpritKind#SYNCHRONIZED_METHOD} or {@link CulpritKind#SYNCHRONIZED_BLOCK}
 * @param lineRange the block's lines, or null
 */
public record MonitorFrame(int frameIndex, CulpritKind kind, LineRange lineRange) {}
