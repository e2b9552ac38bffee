package dev.vtscope.threaddump;

/**
 * A thread container of the JSON dump: the root, a thread pool, an executor's virtual threads.
 *
 * @param name its name ({@code <root>}, {@code java.util.concurrent.ThreadPerTaskExecutor@…})
 * @param parent its parent's name, or null for the root
 * @param owner the id of the thread that owns it (a structured task scope's), or -1
 * @param threadCount how many threads it has, as it counts them: more than it lists when the JVM
 *     does not track every thread, or -1 when not said
 * @param listed how many threads the dump lists in it
 */
public record ThreadContainer(
    String name, String parent, long owner, long threadCount, int listed) {}
