/**
 * The files vtscope writes, each whole or not at all ({@link dev.vtscope.files.AtomicFile}): the
 * reports and files a command is asked to write, and the thread dumps {@code dump --save} keeps.
 * One write path, below every package that writes.
 *
 * <p>May import: the JDK.
 */
package dev.vtscope.files;
