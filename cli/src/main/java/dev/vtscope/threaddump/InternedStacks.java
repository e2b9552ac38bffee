package dev.vtscope.threaddump;

import dev.vtscope.recording.Frame;
import dev.vtscope.recording.RecordedStack;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The stacks of one dump, each made once: a fan-out repeats a few stacks thousands of times, so
 * that a dump's memory goes with its distinct stacks, not with its threads, and each distinct
 * stack's frames are parsed once.
 */
final class InternedStacks {

  private final Map<List<String>, RecordedStack> stacks = new HashMap<>();
  private final Function<String, Frame> frame;

  /**
   * @param frame reads one frame's text, null when it is no frame
   */
  InternedStacks(Function<String, Frame> frame) {
    this.frame = frame;
  }

  /** The stack of these frames' texts, innermost first. */
  RecordedStack of(List<String> texts) {
    RecordedStack known = stacks.get(texts);
    if (known != null) {
      return known;
    }
    List<Frame> frames = new ArrayList<>(texts.size());
    for (String text : texts) {
      Frame f = frame.apply(text);
      if (f != null) {
        frames.add(f);
      }
    }
    RecordedStack stack = new RecordedStack(frames, false);
    stacks.put(List.copyOf(texts), stack);
    return stack;
  }
}
