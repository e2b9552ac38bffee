package dev.vtscope.recording;

/**
 * One {@code jdk.ActiveSetting} event: a setting of an event type in force during the recording.
 *
 * @param eventType the event type's name, e.g. {@code jdk.VirtualThreadPinned}
 * @param name the setting, e.g. {@code threshold}
 * @param value its value as JFR wrote it, e.g. {@code 20 ms}
 */
public record EventSetting(String eventType, String name, String value) {}
